"""Sums and means, and their backward rules: many elements in, fewer out.

Every element of the input went into exactly one output of a sum, once, so each gets
that output's gradient, whole: the gradient is copied back over the summed axes. A
mean is a sum divided by the count of its elements, and so is its gradient. Other
reductions live beside this module: ``products`` (prod), ``statistics`` (var, std,
norm), ``extrema`` (max, min).
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..public_names import public
from ..tensor import Tensor
from ._operands import dispatch
from .views import _dim


def _expand(grad, shape):
    """Broadcast ``grad`` to ``shape``, for an array or a tensor: a view, nothing is copied."""
    return dispatch(grad, lambda g: np.broadcast_to(g, shape), lambda g: g.expand(shape))



class SumBackward0(Node):
    """``x.sum()``: one output, made of every element of ``x`` once."""

    __slots__ = ()
    saved_names = ("self_sym_sizes",)

    def jvp(self, tangent):
        """Forward mode: the sum moves by the sum of its elements' moves (no backward needed, so
        forward mode through a sum does not wait for expand's rule, exercise 4.8)."""
        return np.asarray(tangent.sum())


class SumBackward1(Node):
    """``x.sum(dims, keepdim)``: each output is made of one slice of ``x``."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "self_sym_sizes")


class MeanBackward0(Node):
    """``x.mean()``: the sum of all ``numel`` elements, over ``numel``."""

    __slots__ = ()
    saved_names = ("self_sym_numel", "self_sym_sizes")


class MeanBackward1(Node):
    """``x.mean(dims, keepdim)``: each output is the mean of one slice of ``x``. PyTorch saves
    the input's whole ``numel``, not the size of a slice."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")


def _dims(dim, ndim):
    """``dim`` (a number or a tuple of them, negative from the end) as a tuple of axes."""
    return tuple(_dim(d, ndim) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))


def _axes(dims, ndim):
    """The numpy axes for ``dims``: a zero-dim tensor accepts dim 0 but has no axis."""
    return dims if ndim else ()


def _kept_shape(shape, dims):
    """The input shape with the reduced dimensions as 1s: the result's shape with keepdim."""
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def _keepdim(name, keepdim, keepdims):
    """``keepdim`` (or numpy's spelling ``keepdims``), which PyTorch takes as a bool only: numpy's
    ``keepdims=1`` is refused, with PyTorch's words."""
    keepdim = keepdim if keepdims is None else keepdims
    if type(keepdim) is not bool:
        kind = type(keepdim)
        shown = kind.__name__ if kind.__module__ == "builtins" or isinstance(keepdim, Tensor) else (
            f"{kind.__module__}.{kind.__name__}")
        raise TypeError(f"{name}(): argument 'keepdim' must be bool, not {shown}")
    return keepdim


def _reduced_axes(dims, ndim):
    """The numpy axes a reduction over ``dims`` sums: none given (``dim=()``) means every one, as in
    PyTorch (numpy would sum over none)."""
    return _axes(dims, ndim) if dims else None


@public("sum", methods="sum")
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A001 - PyTorch's name
    """Integers and bools sum to int64, as in PyTorch; floats keep their dtype. ``axis`` and
    ``keepdims`` are numpy's spellings, which PyTorch accepts too; ``dim=()`` sums over every
    dimension, as in PyTorch."""
    dim = axis if dim is None else dim
    keepdim = _keepdim("sum", keepdim, keepdims)
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    result_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    if dim is None:
        return recorded(Tensor._wrap(array.sum(dtype=result_dtype)), (input,), SumBackward0, array.shape)
    dims = _dims(dim, array.ndim)
    out = Tensor._wrap(array.sum(axis=_reduced_axes(dims, array.ndim), keepdims=keepdim, dtype=result_dtype))
    return recorded(out, (input,), SumBackward1, dims, keepdim, array.shape)


@public("mean", methods="mean")
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
    """The sum divided by the count (``nan`` for no elements), in a floating dtype only; ``dim=()``
    averages over every dimension, as in PyTorch."""
    dim = axis if dim is None else dim
    keepdim = _keepdim("mean", keepdim, keepdims)
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    if array.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {dtypes.scalar_type_name(array.dtype)}"
        )
    if dim is None:
        return recorded(Tensor._wrap(array.sum() / array.size), (input,), MeanBackward0, array.size, array.shape)
    dims = _dims(dim, array.ndim) or tuple(range(array.ndim))  # saved whole: the rule divides by their sizes
    count = int(np.prod([array.shape[d] for d in _axes(dims, array.ndim)]))
    out = Tensor._wrap(array.sum(axis=_axes(dims, array.ndim), keepdims=keepdim) / count)
    return recorded(out, (input,), MeanBackward1, dims, keepdim, array.size, array.shape)
