"""Choosing elements by a mask or by an index tensor: ``masked_fill`` and ``gather``.

Each records one node, as PyTorch does. ``masked_fill``'s backward is exercise 7.3
(``rules/chapter7.py``); ``gather``'s sends each output's gradient to the input element
its index named (and an element gathered twice gets both gradients).
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..dtypes import c_type_name
from ..public_names import public
from ..tensor import Tensor
from ._operands import broadcast_mismatch
from .views import _dim

# ---------------------------------------------------------------- masked_fill


def _zero_where(values, where):
    """``values`` with 0 where the bool ``where`` is True (arrays, or tensors under create_graph)."""
    if isinstance(values, Tensor):
        return values.masked_fill(where if isinstance(where, Tensor) else Tensor._wrap(where), 0)
    return np.where(where, np.zeros((), values.dtype), values)


class MaskedFillBackward0(Node):
    """out = input.masked_fill(mask, value), value a number: keeps the mask. Its ``backward`` is set by
    ``rules/__init__.py`` (exercise 7.3)."""

    __slots__ = ()
    saved_names = ("mask",)

    def __init__(self, mask):
        self._saved = (SavedTensor(mask),)


class MaskedFillBackward1(MaskedFillBackward0):
    """As MaskedFillBackward0, with value a 0-dim tensor, the node's second input (exercise 7.3)."""

    __slots__ = ()


@public("masked_fill", methods="masked_fill")
def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` wherever the bool ``mask`` (broadcast) is True.

    ``value`` is a number or a zero-dim tensor, converted to the input's dtype; a
    tensor value is an input of the graph too (``MaskedFillBackward1``).
    """
    if not isinstance(mask, Tensor):
        raise TypeError(f"masked_fill(): argument 'mask' (position 1) must be Tensor, not {type(mask).__name__}")
    if mask._array.dtype.kind != "b":
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {c_type_name(mask._array.dtype)}"
        )
    array, mask_array = input._array, mask._array
    is_tensor = isinstance(value, Tensor)
    if is_tensor and value._array.ndim:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value._array.ndim} dimension(s)."
        )
    fill = np.asarray(value._array if is_tensor else value).astype(array.dtype)
    try:
        out = Tensor._wrap(np.where(mask_array, fill, array))
    except ValueError:
        raise RuntimeError(broadcast_mismatch(mask_array.shape, array.shape)) from None
    if is_tensor:
        return recorded(out, (input, value), MaskedFillBackward1, mask)
    return recorded(out, (input,), MaskedFillBackward0, mask)


# ---------------------------------------------------------------- gather


def _gather_key(index, dim):
    """The numpy key that picks, for every position p of ``index``, the element whose
    coordinates are p's own except along ``dim``, where it is ``index[p]``."""
    key = list(np.ogrid[tuple(slice(n) for n in index.shape)])
    key[dim] = index
    return tuple(key)


def _scatter_add(grad, shape, index, dim):
    """Zeros of ``shape`` with each gradient added where its element was gathered from
    (``np.add.at`` adds every one, where plain assignment would keep the last)."""
    if isinstance(grad, Tensor):  # create_graph: the scatter is recorded, its backward gathers
        out = Tensor._wrap(_scatter_add(grad._array, shape, index, dim))
        return recorded(out, (grad,), ScatterAddBackward0, dim, index)
    out = np.zeros(shape, dtype=grad.dtype)
    np.add.at(out, _gather_key(index, dim), grad)
    return out


class GatherBackward0(Node):
    """Each gathered element sends its gradient back to the input element it was read from."""

    __slots__ = ()
    saved_names = ("dim", "index", "self", "sparse_grad")

    def __init__(self, dim, index, input, sparse_grad):
        self._saved = (dim, SavedTensor(index), SavedTensor(input), sparse_grad)

    def backward(self, grad):
        dim, index, self_, _ = self._saved
        index, shape = index.unpack(self, False), self_.unpack(self, False).shape
        if not shape or not index.shape:  # a zero-dim input or index was read as a vector of one element
            return _scatter_add(grad.reshape(-1), shape or (1,), index.reshape(-1), 0).reshape(shape)
        return _scatter_add(grad, shape, index, dim)


class ScatterAddBackward0(Node):
    """The backward of scattering gradients into zeros: gather them back (second order)."""

    __slots__ = ()
    saved_names = ("dim", "index")

    def backward(self, grad):
        dim, index = self._saved
        return grad[_gather_key(index, dim)]


@public("gather", methods="gather")
def gather(input, dim, index, *, sparse_grad=False):
    """``out[p] = input[p with its dim coordinate replaced by index[p]]``; ``out`` is shaped like ``index``."""
    if not isinstance(index, Tensor):
        raise TypeError(f"gather(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    array, positions = input._array, index._array
    d = _dim(dim, array.ndim)
    _check_gather(array, positions, d)
    source = array.reshape(-1) if not array.ndim else array  # zero-dim tensors act as vectors of one
    picked = source[_gather_key(positions.reshape(-1) if not positions.ndim else positions, d)]
    out = Tensor._wrap(picked.reshape(positions.shape))
    return recorded(out, (input,), GatherBackward0, d, index, input, sparse_grad)


def _check_gather(array, index, dim):
    """PyTorch's checks: integer indices, one dimension count, index no larger than the
    input except along ``dim``, every index within that dimension."""
    if index.dtype.name not in ("int32", "int64"):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if max(array.ndim, 1) != max(index.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    shape, wanted = array.shape or (1,), index.shape or (1,)
    for d, (have, want) in enumerate(zip(shape, wanted)):
        if d != dim and want > have:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be no larger than "
                f"self {list(array.shape)} apart from dimension {dim}"
            )
    outside = (index < 0) | (index >= shape[dim])
    if outside.any():
        raise RuntimeError(
            f"index {index[outside].flat[0]} is out of bounds for dimension {dim} with size {shape[dim]}"
        )

