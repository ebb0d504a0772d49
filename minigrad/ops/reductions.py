"""Reductions (sum, mean, max, norm): many elements in, fewer out.

Backward spreads the gradient of each output back over the elements it came from:
every summed element gets it whole, a mean's elements get 1/n of it, a max sends it
to the largest element only.
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..tensor import Tensor


def _dims(dim, ndim):
    """``dim`` as a tuple of non-negative axes (``None`` means all)."""
    if dim is None:
        return tuple(range(ndim))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(d % max(ndim, 1) for d in dims)


def _kept_shape(shape, dims):
    """The output shape with the reduced dimensions kept as 1s, for broadcasting back."""
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def expand_to(grad, shape):
    """Broadcast ``grad`` to ``shape``, for an array or a tensor."""
    return np.broadcast_to(grad, shape) if isinstance(grad, (np.ndarray, np.generic)) else grad.expand(shape)


class SumBackward0(Node):
    """Every element of the input contributed once: each gets the whole gradient."""

    saved_names = ("self_sym_sizes",)

    def backward(self, grad):
        (shape,) = self._saved
        return expand_to(grad, shape)


class SumBackward1(Node):
    saved_names = ("dim", "keepdim", "self_sym_sizes")

    def backward(self, grad):
        dims, keepdim, shape = self._saved
        return expand_to(grad.reshape(_kept_shape(shape, dims)), shape)


class MeanBackward0(Node):
    saved_names = ("self_sym_numel", "self_sym_sizes")

    def backward(self, grad):
        count, shape = self._saved
        return expand_to(grad / count, shape)


class MeanBackward1(Node):
    saved_names = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    def backward(self, grad):
        dims, keepdim, count, shape = self._saved
        return expand_to(grad.reshape(_kept_shape(shape, dims)) / count, shape)


class MaxBackward1(Node):
    """The largest element gets the gradient; ties share it evenly."""

    saved_names = ("self", "result")

    def backward(self, grad):
        self_, result = self.saved_tensors
        winners = self_ == result
        return grad * winners / winners.sum()


MinBackward1 = type("MinBackward1", (MaxBackward1,), {"__slots__": (), "__doc__": "The smallest element gets it."})


class MaxBackward0(Node):
    """``max(dim)``: each slice's largest element (its first, on ties) gets that slice's gradient."""

    saved_names = ("dim", "keepdim", "indices", "self_sym_sizes")

    def backward(self, grad):
        dim, keepdim, indices, shape = self._saved
        from .views import _scatter

        index = np.expand_dims(indices, dim) if not keepdim else indices
        key = tuple(
            index if d == dim else np.arange(n).reshape([-1 if i == d else 1 for i in range(len(shape))])
            for d, n in enumerate(shape)
        )
        values = grad if keepdim else (grad.unsqueeze(dim) if isinstance(grad, Tensor) else np.expand_dims(grad, dim))
        return _scatter(values, shape, key)


MinBackward0 = type("MinBackward0", (MaxBackward0,), {"__slots__": ()})


class LinalgVectorNormBackward0(Node):
    """d ||x|| / dx = x / ||x|| (zero where the norm is zero)."""

    saved_names = ("dim", "keepdim", "ord", "self", "result")

    def backward(self, grad):
        dims, keepdim, ord, self_, result = self.saved_tensors
        if not keepdim and dims is not None:
            kept = _kept_shape(self_.shape, dims)
            grad, result = grad.reshape(kept), result.reshape(kept)
        scale = result + (result == 0)  # avoid 0/0: the gradient there is 0
        return grad * self_ / scale


def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None):  # noqa: A001
    dim = axis if dim is None else dim
    array = input._array
    if dtype is not None:
        array = array.astype(dtype.numpy)
    if dim is None:
        out = Tensor._wrap(array.sum(dtype=_sum_dtype(array)))
        node = SumBackward0(array.shape) if should_record(input) else None
    else:
        dims = _dims(dim, array.ndim)
        out = Tensor._wrap(array.sum(axis=dims, keepdims=keepdim, dtype=_sum_dtype(array)))
        node = SumBackward1(dims, keepdim, array.shape) if should_record(input) else None
    if node is not None:
        record(out, node, input)
    return out


def _sum_dtype(array):
    """Sums of integers and bools are int64 in PyTorch; floats keep their dtype."""
    return np.int64 if array.dtype.kind in "biu" else array.dtype


def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None):
    dim = axis if dim is None else dim
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    if array.dtype.kind != "f":
        from .. import dtypes

        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {dtypes.from_numpy(array.dtype).name.capitalize().replace('Int64', 'Long')}"
        )
    if dim is None:
        out = Tensor._wrap(array.mean(dtype=array.dtype))
        node = MeanBackward0(array.size, array.shape) if should_record(input) else None
    else:
        dims = _dims(dim, array.ndim)
        out = Tensor._wrap(array.mean(axis=dims, keepdims=keepdim, dtype=array.dtype))
        count = int(np.prod([array.shape[d] for d in dims]))
        node = MeanBackward1(dims, keepdim, count, array.shape) if should_record(input) else None
    if node is not None:
        record(out, node, input)
    return out


def _extreme(input, dim, keepdim, pick, arg, full_node, dim_node, name):
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
    from ..return_types import MinMax

    d = _dims(dim, array.ndim)[0]
    indices = arg(array, axis=d, keepdims=keepdim)
    values = Tensor._wrap(np.take_along_axis(array, indices if keepdim else np.expand_dims(indices, d), d).reshape(
        indices.shape))
    if should_record(input):
        record(values, dim_node(d, keepdim, indices, array.shape), input)
    return MinMax(values, Tensor._wrap(indices.astype(np.int64)), name)


def max(input, dim=None, keepdim=False):  # noqa: A001
    if isinstance(dim, Tensor):
        from .comparison import maximum

        return maximum(input, dim)
    return _extreme(input, dim, keepdim, np.max, np.argmax, MaxBackward1, MaxBackward0, "max")


def min(input, dim=None, keepdim=False):  # noqa: A001
    if isinstance(dim, Tensor):
        from .comparison import minimum

        return minimum(input, dim)
    return _extreme(input, dim, keepdim, np.min, np.argmin, MinBackward1, MinBackward0, "min")


def argmax(input, dim=None, keepdim=False):
    array = input._array
    if dim is None:
        return Tensor._wrap(np.int64(np.argmax(array)))
    return Tensor._wrap(np.argmax(array, axis=dim, keepdims=keepdim).astype(np.int64))


def argmin(input, dim=None, keepdim=False):
    array = input._array
    if dim is None:
        return Tensor._wrap(np.int64(np.argmin(array)))
    return Tensor._wrap(np.argmin(array, axis=dim, keepdims=keepdim).astype(np.int64))


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
