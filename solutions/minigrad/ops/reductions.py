"""Reductions (sum, mean, prod, var, std, max, norm): many elements in, fewer out.

Backward spreads the gradient of each output back over the elements it came from:
every summed element gets it whole, a mean's elements get 1/n of it, a product's
elements get the product of the others, a max sends it to the largest element only.
"""
import builtins
import warnings

import numpy as np

from .. import dtypes
from ..autograd.graph import Node, record, should_record
from ..autograd.saved_tensor import SavedTensor
from ..creation import eye
from ..public_names import public
from ..return_types import MinMax
from ..tensor import Tensor
from ._operands import dispatch
from .comparison import maximum, minimum
from .selection import masked_fill
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


def _restored(grad, shape, dims, keepdim):
    """The reduced dimensions put back as 1s, one ``unsqueeze`` each as PyTorch does (so that
    a recorded backward, with create_graph, has PyTorch's nodes). A 0-dim input had none."""
    if keepdim or not shape:
        return grad
    if isinstance(grad, Tensor):
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
        return grad
    return np.expand_dims(grad, tuple(sorted(dims)))


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
        return _expand(_restored(grad, shape, dims, keepdim), shape)


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
        return _expand(_restored(grad, shape, dims, keepdim) / count, shape)


def _kept(value, shape, dims, keepdim):
    """A reduced result (or its gradient) with its reduced dimensions back as 1s, so it
    broadcasts against the input; already so with ``keepdim``."""
    return value if keepdim else value.reshape(_kept_shape(shape, dims))


def _product_of_others(x, result, dim):
    """For each element of ``x``, the product of the other elements of its slice along
    ``dim`` (``result`` is the slice's product, shaped to broadcast against ``x``).

    Without zeros that is ``result / x``. A zero makes the division useless (its own
    entry would be 0/0), so then the product is built from both sides instead: the
    running product of the elements before each one times that of the elements after
    it, which never divides. PyTorch takes the same two paths, so ``inf`` and ``nan``
    inputs give the same answers as there.
    """
    values = x._array if isinstance(x, Tensor) else x
    if not (values == 0).any():
        return result / x
    if isinstance(x, Tensor):  # create_graph: computed with recorded operations
        return _product_of_others_recorded(x, dim)
    before = _exclusive_cumprod(x, dim)
    after = np.flip(_exclusive_cumprod(np.flip(x, dim), dim), dim)
    return before * after


def _exclusive_cumprod(array, axis):
    """The running product along ``axis`` of the elements strictly before each one (1 first)."""
    first = np.ones_like(array.take([0], axis=axis))
    shifted = np.concatenate([first, array.take(range(array.shape[axis] - 1), axis=axis)], axis=axis)
    return np.multiply.accumulate(shifted, axis=axis)  # the ufunc itself: its nan warnings are minigrad's, silenced


def _product_of_others_recorded(x, dim):
    """The same products as tensors whose graph is recorded, for a second derivative.

    A new dimension after ``dim`` repeats each slice once per element; in the copy for
    element i, element i is replaced by 1, and the product over the copy is what the
    others multiply to. It costs n times the memory, which only higher-order gradients pay.
    """
    n = x.shape[dim]
    repeated = x.unsqueeze(dim).expand(*x.shape[:dim], n, *x.shape[dim:])
    diagonal = eye(n, dtype=dtypes.bool).reshape((n, n) + (1,) * (x.dim() - dim - 1))
    return masked_fill(repeated, diagonal, 1.0).prod(dim + 1)


class ProdBackward0(Node):
    """d(x0 * x1 * ... ) / dxi: the product of all the other elements."""

    __slots__ = ()
    saved_names = ("self", "result")

    def backward(self, grad):
        self_, result = self.saved_tensors
        if not self_.shape:
            return grad
        flat = self_.reshape(-1)
        return (grad * _product_of_others(flat, result, 0)).reshape(self_.shape)


class ProdBackward1(Node):
    """``prod(dim)``: in each slice, every element gets the product of the others in that slice."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "result", "self")

    def backward(self, grad):
        dim, keepdim, result, self_ = self.saved_tensors
        if not self_.shape:
            return grad
        shape = self_.shape
        others = _product_of_others(self_, _kept(result, shape, (dim,), keepdim), dim)
        return _kept(grad, shape, (dim,), keepdim) * others


def _centered(x, dims):
    """``x`` minus its mean over ``dims`` (kept as 1s), for an array or a tensor."""
    return x - dispatch(x, lambda a: a.mean(axis=dims, keepdims=True), lambda t: t.mean(dims, keepdim=True))


def _reduced_count(shape, dims):
    """How many elements each output of a reduction over ``dims`` gathers."""
    count = 1
    for d in dims:
        count *= shape[d] if shape else 1
    return count


def _degrees_of_freedom(shape, dims, correction):
    """n - correction, never below 0: PyTorch divides by this (0 gives ``inf`` or ``nan``)."""
    return builtins.max(0, _reduced_count(shape, dims) - (1 if correction is None else correction))


class VarBackward0(Node):
    """d var / dxi = 2 (xi - mean) / (n - correction): the mean's own change cancels out,
    since the deviations sum to zero."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self")

    def backward(self, grad):
        correction, dim, keepdim, self_ = self.saved_tensors
        dims = _all_dims(self_.shape, dim)
        return _var_backward(self_, _kept(grad, self_.shape, dims, keepdim), dims, correction)


class StdBackward0(Node):
    """std = sqrt(var): d std = d var / (2 std); where std is 0 the gradient is 0, not 0/0."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self", "result")

    def backward(self, grad):
        correction, dim, keepdim, self_, result = self.saved_tensors
        dims = _all_dims(self_.shape, dim)
        grad, result = _kept(grad, self_.shape, dims, keepdim), _kept(result, self_.shape, dims, keepdim)
        grad_var = grad / (2 * result + (result == 0)) * (result != 0)
        return _var_backward(self_, grad_var, dims, correction)


class VarMeanBackward0(Node):
    """``var_mean``: one node, two outputs; each output's gradient goes back by its own rule."""

    __slots__ = ()
    _num_outputs = 2
    saved_names = ("correction", "dim", "keepdim", "self")

    def backward(self, grad_var, grad_mean):
        correction, dim, keepdim, self_ = self.saved_tensors[:4]
        dims = _all_dims(self_.shape, dim)
        grad = 0
        if grad_var is not None:
            grad = _var_backward(self_, _kept(grad_var, self_.shape, dims, keepdim), dims, correction)
        if grad_mean is not None:
            spread = _kept(grad_mean, self_.shape, dims, keepdim) / _reduced_count(self_.shape, dims)
            grad = grad + _expand(spread, self_.shape)
        return grad

    def _output_meta(self, nr):
        return self._shape, self._dtype


class StdMeanBackward0(VarMeanBackward0):
    """``std_mean``: the standard deviation's gradient is the variance's, over 2 std."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self", "result0")

    def backward(self, grad_std, grad_mean):
        std = self.saved_tensors[4]
        if grad_std is not None:
            grad_std = grad_std / (2 * std + (std == 0)) * (std != 0)
        return VarMeanBackward0.backward(self, grad_std, grad_mean)


def _var_backward(self_, grad, dims, correction):
    """The variance's gradient, for ``grad`` already shaped to broadcast against ``self_``.

    With no degrees of freedom left PyTorch's factor is 2/0 = inf, so the gradient is
    inf * 0 = nan; a Python float division would raise instead, hence the explicit inf.
    """
    dof = _degrees_of_freedom(self_.shape, dims, correction)
    scale = 2.0 / dof if dof else float("inf")
    return grad * scale * _centered(self_, _axes(dims, len(self_.shape)))


def _all_dims(shape, dim):
    """The dimensions a variance reduces: ``None`` and ``()`` both mean all of them."""
    return tuple(range(len(shape))) if not dim else dim


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


@public("sum", methods="sum")
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A001 - PyTorch's name
    """Integers and bools sum to int64, as in PyTorch; floats keep their dtype. ``axis`` and
    ``keepdims`` are numpy's spellings, which PyTorch accepts too."""
    dim = axis if dim is None else dim
    keepdim = keepdim if keepdims is None else keepdims
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


@public("mean", methods="mean")
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
    """The sum divided by the count (``nan`` for no elements), in a floating dtype only."""
    dim = axis if dim is None else dim
    keepdim = keepdim if keepdims is None else keepdims
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


@public("prod", methods="prod")
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """The product of all elements, or along one ``dim``; integers and bools give int64, as in PyTorch."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(
            f"prod() received an invalid combination of arguments - got ({type(dim).__name__}), but expected one of:\n"
            " * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
        )
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    result_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    if dim is None:
        out = Tensor._wrap(np.asarray(np.multiply.reduce(array, axis=None, dtype=result_dtype)))
        if should_record(input):
            record(out, ProdBackward0(SavedTensor(input), SavedTensor(out, is_output=True)), input)
        return out
    (d,) = _dims(dim, array.ndim)
    product = np.multiply.reduce(array, axis=_axes((d,), array.ndim), dtype=result_dtype, keepdims=keepdim)
    out = Tensor._wrap(np.asarray(product))
    if should_record(input):
        record(out, ProdBackward1(d, keepdim, SavedTensor(out, is_output=True), SavedTensor(input)), input)
    return out


_NO_DIM = type("NoDim", (), {"__repr__": lambda self: "None", "__doc__": "``dim`` was not given at all."})()


@public("var", methods="var")
def var(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """The variance: the mean squared deviation from the mean, divided by n - correction.

    PyTorch accepts ``var(unbiased)``, ``var(dim, unbiased, keepdim)`` and
    ``var(dim, *, correction, keepdim)``; ``unbiased`` is the old spelling of
    ``correction`` 1 (True) or 0 (False). ``dim`` None or ``()`` means every dimension.
    """
    return _spread("var", VarBackward0, input, dim, unbiased, keepdim, correction)


@public("std", methods="std")
def std(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """The standard deviation: the square root of ``var`` (same arguments)."""
    return _spread("std", StdBackward0, input, dim, unbiased, keepdim, correction)


@public("var_mean")
def var_mean(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)`` over the same dimensions, the outputs of one node."""
    return _with_mean(var, VarMeanBackward0, input, dim, unbiased, keepdim, correction)


@public("std_mean")
def std_mean(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)`` over the same dimensions, the outputs of one node."""
    return _with_mean(std, StdMeanBackward0, input, dim, unbiased, keepdim, correction)


def _with_mean(spread, node_class, input, dim, unbiased, keepdim, correction):
    detached = Tensor._wrap(input._array)
    first = spread(detached, dim, unbiased, keepdim, correction=correction)
    dims = None if dim is _NO_DIM or dim is None else _dims(dim, input._array.ndim)
    second = mean(detached, _all_dims(input._array.shape, dims), keepdim)
    if should_record(input):
        saved = (_saved_correction(dim, unbiased, correction), dims, keepdim, SavedTensor(input))
        if node_class is StdMeanBackward0:
            saved += (SavedTensor(first, is_output=True),)
        node = node_class(*saved)
        record(first, node, input)
        second.grad_fn, second._output_nr, second._requires_grad = node, 1, True
    return first, second


def _spread(name, node_class, input, dim, unbiased, keepdim, correction):
    """``var`` or ``std``: the arguments read as PyTorch reads them, then the reduction."""
    if isinstance(dim, builtins.bool):  # ``x.var(False)``: the one positional argument is ``unbiased``
        dim, unbiased = _NO_DIM, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got both unbiased and correction")
    saved_correction = _saved_correction(dim, unbiased, correction)
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims = None if dim is _NO_DIM or dim is None else _dims(dim, array.ndim)
    if dims is not None and len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    reduced = _all_dims(array.shape, dims)
    axes = _axes(reduced, array.ndim)
    dof = _degrees_of_freedom(array.shape, reduced, saved_correction)
    if dof == 0:
        warnings.warn(_NO_DOF.format(name), UserWarning, stacklevel=3)
    deviations = array - array.sum(axis=axes, keepdims=True) / _reduced_count(array.shape, reduced)
    squares = (deviations * deviations).sum(axis=axes, keepdims=keepdim)
    value = squares / dof if dof else squares / np.zeros((), array.dtype)  # x/0: inf or nan, silently
    if name == "std":
        value = np.sqrt(value)
    out = Tensor._wrap(np.asarray(value, dtype=array.dtype))
    if should_record(input):
        saved = (saved_correction, dims, keepdim, SavedTensor(input))
        if name == "std":
            saved += (SavedTensor(out, is_output=True),)
        record(out, node_class(*saved), input)
    return out


def _saved_correction(dim, unbiased, correction):
    """The correction as PyTorch's node shows it: None when nothing chose it, except that
    naming ``dim`` (even as None) picks the signature whose ``unbiased`` defaults to True."""
    if correction is not None:
        return correction
    if unbiased is not None:
        return builtins.int(unbiased)
    return None if dim is _NO_DIM else 1


_NO_DOF = (
    "{}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel "
    "divided by output numel). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)"
)


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


@public("max", methods="max")
def max(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """``max(x)``: the largest element; ``max(x, dim)``: values and indices; ``max(x, y)``: maximum."""
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    return _extreme("max", input, dim, keepdim)


@public("min", methods="min")
def min(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    if isinstance(dim, Tensor):
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


@public("argmax", methods="argmax")
def argmax(input, dim=None, keepdim=False, *, axis=None):
    return _arg_extreme(np.argmax, input, axis if dim is None else dim, keepdim)


@public("argmin", methods="argmin")
def argmin(input, dim=None, keepdim=False, *, axis=None):
    return _arg_extreme(np.argmin, input, axis if dim is None else dim, keepdim)


@public("norm", methods="norm")
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
