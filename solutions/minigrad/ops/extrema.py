"""The largest and smallest elements: ``max``, ``min``, ``argmax``, ``argmin``.

Backward sends each output's gradient to the element it came from: over everything,
ties share it evenly; along a dimension, to the element its index points at.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..return_types import MinMax
from ..tensor import Tensor
from .comparison import maximum, minimum
from .reductions import _dims, _kept_shape
from .views import _scatter


class MaxBackward1(Node):
    """The largest element gets the gradient; ties share it evenly."""

    __slots__ = ()
    saved_names = ("self", "result")

    def __init__(self, input, result):
        self._saved = (SavedTensor(input), SavedTensor(result, is_output=True))

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
        return recorded(out, (input,), full_node, input, out)
    (d,) = _dims(dim, array.ndim)
    if array.ndim == 0:  # a zero-dim tensor is its own extreme, at index 0
        values, indices = array.copy(), np.zeros((), np.int64)
    elif array.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    else:
        values, indices = pick(array, axis=d, keepdims=keepdim), arg(array, axis=d, keepdims=keepdim)
    out = recorded(Tensor._wrap(values), (input,), dim_node, d, keepdim, indices, array.shape)
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
