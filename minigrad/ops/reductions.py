"""Reductions (sum, mean, max, norm): many elements in, fewer out.

Backward spreads the gradient of each output back over the elements it came from:
every summed element gets it whole, a mean's elements get 1/n of it, a max sends it
to the largest element only.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..return_types import MinMax
from ..tensor import Tensor
from ._operands import dispatch
from .views import _dim, _scatter


def _dims(dim, ndim):
    """``dim`` (a number or a tuple of them, negative from the end) as a tuple of axes."""
    return tuple(_dim(d, ndim) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))


def _axes(dims, ndim):
    """The numpy axes for ``dims``: a zero-dim tensor accepts dim 0 but has no axis."""
    return dims if ndim else ()


def _kept_shape(shape, dims):
    """The input shape with the reduced dimensions as 1s: the result's shape with keepdim."""
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def _expand(grad, shape):
    """Broadcast ``grad`` to ``shape``, for an array or a tensor."""
    return dispatch(grad, lambda g: np.broadcast_to(g, shape), lambda g: g.expand(shape))


class SumBackward0(Node):
    """Every element of the input contributed once: each gets the whole gradient."""

    __slots__ = ()
    saved_names = ("self_sym_sizes",)

    def backward(self, grad):
        (shape,) = self._saved
        return _expand(grad, shape)


class SumBackward1(Node):
    """As SumBackward0, per slice: put the reduced dimensions back, then broadcast."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "self_sym_sizes")

    def backward(self, grad):
        dims, keepdim, shape = self._saved
        return _expand(grad.reshape(_kept_shape(shape, dims)), shape)


class MeanBackward0(Node):
    """Each of the n elements counted 1/n in the mean."""

    __slots__ = ()
    saved_names = ("self_sym_numel", "self_sym_sizes")

    def backward(self, grad):
        count, shape = self._saved
        return _expand(grad / count, shape)


class MeanBackward1(Node):
    __slots__ = ()
    saved_names = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    def backward(self, grad):
        dims, keepdim, count, shape = self._saved
        return _expand(grad.reshape(_kept_shape(shape, dims)) / count, shape)


class MaxBackward1(Node):
    """The largest element gets the gradient; ties share it evenly."""

    __slots__ = ()
    saved_names = ("self", "result")

    def backward(self, grad):
        self_, result = self.saved_tensors
        winners = self_ == result
        return grad * winners / winners.sum()


class MinBackward1(MaxBackward1):
    """The smallest element gets the gradient; ties share it evenly."""

    __slots__ = ()


class MaxBackward0(Node):
    """``max(dim)``: in each slice the element ``indices`` points at gets that slice's gradient."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "indices", "self_sym_sizes")

    def backward(self, grad):
        dim, keepdim, indices, shape = self._saved
        if not shape:  # a zero-dim tensor is its own maximum
            return grad
        kept = _kept_shape(shape, (dim,))
        position = list(np.ogrid[tuple(slice(n) for n in kept)])  # every slice's own coordinates
        position[dim] = indices.reshape(kept)
        return _scatter(grad.reshape(kept), shape, tuple(position))


class MinBackward0(MaxBackward0):
    """``min(dim)``: the same rule, with the indices of the smallest elements."""

    __slots__ = ()


class LinalgVectorNormBackward0(Node):
    """d ||x|| / dx = x / ||x|| (zero where the norm is zero)."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "ord", "self", "result")

    def backward(self, grad):
        dims, keepdim, ord, self_, result = self.saved_tensors
        if not keepdim and dims is not None:
            kept = _kept_shape(self_.shape, dims)
            grad, result = grad.reshape(kept), result.reshape(kept)
        scale = result + (result == 0)  # avoid 0/0: the gradient there is 0
        return grad * self_ / scale


def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None):  # noqa: A001 - PyTorch's name
    """Integers and bools sum to int64, as in PyTorch; floats keep their dtype."""
    dim = axis if dim is None else dim
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    result_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    if dim is None:
        out = Tensor._wrap(array.sum(dtype=result_dtype))
        node = SumBackward0(array.shape) if should_record(input) else None
    else:
        dims = _dims(dim, array.ndim)
        out = Tensor._wrap(array.sum(axis=_axes(dims, array.ndim), keepdims=keepdim, dtype=result_dtype))
        node = SumBackward1(dims, keepdim, array.shape) if should_record(input) else None
    if node is not None:
        record(out, node, input)
    return out


def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None):
    """The sum divided by the count (``nan`` for no elements), in a floating dtype only."""
    dim = axis if dim is None else dim
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    if array.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {dtypes.scalar_type_name(array.dtype)}"
        )
    if dim is None:
        out = Tensor._wrap(array.sum() / array.size)
        node = MeanBackward0(array.size, array.shape) if should_record(input) else None
    else:
        dims = _dims(dim, array.ndim)
        count = int(np.prod([array.shape[d] for d in _axes(dims, array.ndim)]))
        out = Tensor._wrap(array.sum(axis=_axes(dims, array.ndim), keepdims=keepdim) / count)
        node = MeanBackward1(dims, keepdim, count, array.shape) if should_record(input) else None
    if node is not None:
        record(out, node, input)
    return out


def _extreme(name, input, dim, keepdim):
    """``max``/``min`` over everything (one value) or along ``dim`` (values and indices)."""
    pick, arg, full_node, dim_node = _EXTREMES[name]
    array = input._array
    if dim is None:
        if array.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        out = Tensor._wrap(pick(array))
        if should_record(input):
            record(out, full_node(SavedTensor(input), SavedTensor(out, is_output=True)), input)
        return out
    (d,) = _dims(dim, array.ndim)
    if array.ndim == 0:  # a zero-dim tensor is its own extreme, at index 0
        values, indices = array.copy(), np.zeros((), np.int64)
    elif array.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    else:
        values, indices = pick(array, axis=d, keepdims=keepdim), arg(array, axis=d, keepdims=keepdim)
    out = Tensor._wrap(values)
    if should_record(input):
        record(out, dim_node(d, keepdim, indices, array.shape), input)
    return MinMax(out, Tensor._wrap(indices.astype(np.int64, copy=False)), name)


_EXTREMES = {
    "max": (np.max, np.argmax, MaxBackward1, MaxBackward0),
    "min": (np.min, np.argmin, MinBackward1, MinBackward0),
}


def max(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """``max(x)``: the largest element; ``max(x, dim)``: values and indices; ``max(x, y)``: maximum."""
    if isinstance(dim, Tensor):
        from .comparison import maximum

        return maximum(input, dim)
    return _extreme("max", input, dim, keepdim)


def min(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    if isinstance(dim, Tensor):
        from .comparison import minimum

        return minimum(input, dim)
    return _extreme("min", input, dim, keepdim)


def _arg_extreme(numpy_fn, input, dim, keepdim):
    """Index of the largest/smallest element: in the flattened tensor when ``dim`` is None."""
    array = input._array
    if dim is None:
        index = np.int64(numpy_fn(array))
        return Tensor._wrap(index.reshape((1,) * array.ndim) if keepdim else index)
    (d,) = _dims(dim, array.ndim)
    return Tensor._wrap(numpy_fn(array, axis=d, keepdims=keepdim).astype(np.int64) if array.ndim else np.int64(0))


def argmax(input, dim=None, keepdim=False):
    return _arg_extreme(np.argmax, input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg_extreme(np.argmin, input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False):
    """The 2-norm (``p=2`` or ``"fro"``) over all elements or over ``dim``."""
    if p not in (2, "fro", 2.0):
        raise NotImplementedError("minigrad's norm computes the 2-norm only")
    array = input._array
    dims = None if dim is None else _dims(dim, array.ndim)
    out = Tensor._wrap(np.sqrt((array * array).sum(axis=dims, keepdims=keepdim, dtype=array.dtype)))
    if should_record(input):
        node = LinalgVectorNormBackward0(dims, keepdim, 2, SavedTensor(input), SavedTensor(out, is_output=True))
        record(out, node, input)
    return out
