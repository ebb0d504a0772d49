"""Operations that rearrange elements without computing new ones: reshape, transpose,
unsqueeze, indexing... Their results are *views*: they share memory (and the version
counter) with their base, as in PyTorch, and their backward puts the gradient back
in the input's shape.
"""
import math
import warnings

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SECOND_BACKWARD
from ..autograd.view_tracking import view_of
from ..public_names import public
from ..shape import Size
from ..tensor import Tensor
from ..tensor_data import tensor_type_name
from ..torch_texts import T_OF_A_SCALAR, T_REVERSING_DIMENSIONS
from .copies import clone


def _shape_args(shape):
    """``reshape(2, 3)`` and ``reshape((2, 3))`` mean the same."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Size)):
        return tuple(shape[0])
    return tuple(shape)


def _dim(dim, ndim):
    """A dimension index counted from the end when negative, checked against ``ndim``."""
    size = max(ndim, 1)
    if not -size <= dim < size:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})"
        )
    return dim % size


class ViewBackward0(Node):
    saved_names = ("self_sym_sizes",)

    def backward(self, grad):
        (shape,) = self._saved
        return grad.reshape(shape)


class ReshapeAliasBackward0(ViewBackward0):
    """``reshape`` of a non-contiguous tensor whose strides allow a view: the same rule."""


class AliasBackward0(Node):
    """``x[...]`` or ``x[:, :]``: a view of all of ``x``; the gradient passes unchanged."""

    def backward(self, grad):
        return grad


class UnsqueezeBackward0(Node):
    """out = self.unsqueeze(dim): the same elements with a new axis of size 1 at ``dim``."""

    saved_names = ("dim",)


class SqueezeBackward0(Node):
    """``squeeze()`` and ``squeeze(dims)``: the gradient takes the input's shape back."""

    saved_names = ("self_sym_sizes",)

    def backward(self, grad):
        return grad.reshape(self._saved[-1])  # the input's shape, saved last


class SqueezeBackward1(Node):
    """out = self.squeeze(dim): the axis ``dim`` is gone if its size was 1, else nothing changed."""

    saved_names = ("dim", "self_sym_sizes")


class SqueezeBackward4(SqueezeBackward0):
    """``squeeze(dims)``, which ``matmul`` uses to drop the dimension it added."""

    saved_names = ("dim", "self_sym_sizes")


class ExpandBackward0(Node):
    """out = self.expand(sizes): each element of ``self`` is read at every position it is copied to."""

    saved_names = ("self_sym_sizes",)


class PermuteBackward0(Node):
    """out = self.permute(dims): axis ``i`` of the result is axis ``dims[i]`` of the input."""

    saved_names = ("dims",)


class TransposeBackward0(Node):
    """out = self.transpose(dim0, dim1): two axes swapped."""

    saved_names = ("dim0", "dim1")


class TBackward0(Node):
    def backward(self, grad):
        return grad.t() if isinstance(grad, Tensor) else grad.T


class SelectBackward0(Node):
    """``x[i]``: the gradient lands in row ``i`` of zeros shaped like ``x``."""

    saved_names = ("dim", "index", "self_sym_sizes")

    def backward(self, grad):
        dim, index, shape = self._saved
        return _scatter(grad, shape, (slice(None),) * dim + (index,))


class SliceBackward0(Node):
    saved_names = ("self_sym_sizes", "key")

    def backward(self, grad):
        shape, key = self._saved
        return _scatter(grad, shape, key)


class IndexBackward0(Node):
    """Advanced indexing may pick one element twice: those gradients add up."""

    saved_names = ("self_sym_sizes", "indices")

    def backward(self, grad):
        shape, key = self._saved
        if key is None:
            raise RuntimeError(SECOND_BACKWARD)
        return _scatter(grad, shape, key, accumulate=True)

    def _release(self):
        """PyTorch saves the index tensors, and frees them after backward like any saved tensor."""
        self._saved = (self._saved[0], None)


class IndexBackwardBackward0(Node):
    """The backward of a scatter is picking the same elements again."""

    saved_names = ("key",)

    def backward(self, grad):
        (key,) = self._saved
        return grad[key]


def _scatter(grad, shape, key, accumulate=False):
    """Zeros of ``shape`` with ``grad`` placed (or added) at ``key``."""
    if isinstance(grad, Tensor):  # create_graph: the scatter itself is recorded
        out = Tensor._wrap(_scatter(grad._array, shape, key, accumulate))
        return recorded(out, (grad,), IndexBackwardBackward0, key)
    out = np.zeros(shape, dtype=grad.dtype)
    if accumulate:
        np.add.at(out, key, grad)
    else:
        out[key] = grad
    return out


class UnsafeViewBackward0(Node):
    """A reshape whose result is not a view: the gradient takes the input's shape back."""

    __slots__ = ()
    saved_names = ("self_sym_sizes",)

    def backward(self, grad):
        (shape,) = self._saved
        return grad.reshape(shape)


def _unsafe_view(input, shape):
    """``input`` reshaped into a new tensor that autograd does not treat as a view."""
    return recorded(Tensor._wrap(input._array.reshape(shape)), (input,), UnsafeViewBackward0, input._array.shape)


@public(methods="view")
def view(input, *shape):
    shape = _shape_args(shape)
    try:
        array = input._array.view()
        array.shape = shape
    except (AttributeError, ValueError) as error:
        if input._array.size != _numel(shape, input._array.size):
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {input._array.size}") from None
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead."
        ) from error
    return recorded(view_of(input, array), (input,), ViewBackward0, input._array.shape)


@public("reshape", methods="reshape")
def reshape(input, *shape):
    """A view when the strides allow one, else a copy, each recorded as PyTorch records it.

    A contiguous input gives a view (``ViewBackward0``); a non-contiguous one whose
    strides fit the new shape gives a view too (``ReshapeAliasBackward0``). Otherwise
    the elements are copied in order (``CloneBackward0``) and the copy reshaped
    (``UnsafeViewBackward0``): a new tensor, not a view, so writing into it leaves the
    input alone.
    """
    array = input._array
    shape = _inferred(_shape_args(shape), array.size)
    try:
        value = array.reshape(shape, copy=False)
    except ValueError:  # the shape fits (checked above), the strides do not
        return _unsafe_view(clone(input), shape)
    node_type = ViewBackward0 if array.flags.c_contiguous else ReshapeAliasBackward0
    return recorded(view_of(input, value), (input,), node_type, array.shape)


def _inferred(shape, size):
    """``shape`` with its -1 worked out from ``size``, or PyTorch's error if it cannot hold ``size`` elements."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for index, d in enumerate(shape):
        if d < -1:
            raise RuntimeError(f"invalid shape dimension {d} at index {index} of shape {list(shape)}")
    known = math.prod(d for d in shape if d != -1)
    if -1 in shape and known and size % known == 0:
        return tuple(size // known if d == -1 else d for d in shape)
    if -1 in shape or known != size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
    return shape


def _numel(shape, total):
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    return total if -1 in shape and known and total % known == 0 else known


@public("unsqueeze", methods="unsqueeze")
def unsqueeze(input, dim):
    dim = _dim(dim, input._array.ndim + 1)
    return recorded(view_of(input, np.expand_dims(input._array, dim)), (input,), UnsqueezeBackward0, dim)


@public("squeeze", methods="squeeze")
def squeeze(input, dim=None, *, _node=None):
    array = input._array
    if dim is None:
        return recorded(view_of(input, array.squeeze()), (input,), SqueezeBackward0, array.shape)
    dims = tuple(_dim(d, array.ndim) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))
    value = array.squeeze(tuple(d for d in dims if array.shape[d] == 1)) if array.ndim else array
    single = not isinstance(dim, (tuple, list))
    node_type = _node or (SqueezeBackward1 if single else SqueezeBackward4)
    return recorded(view_of(input, value), (input,), node_type, dims[0] if single else dims, array.shape)


@public(methods="expand")
def expand(input, *sizes):
    sizes = _shape_args(sizes)
    array = input._array
    lead = len(sizes) - array.ndim
    target = tuple(array.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    try:
        value = np.broadcast_to(array, target)
    except ValueError:
        raise expand_error(array, sizes) from None
    return recorded(view_of(input, value), (input,), ExpandBackward0, array.shape)


def expand_error(array, target):
    """PyTorch's error for an ``array`` whose shape cannot be expanded to ``target``."""
    shape, lead = array.shape, len(target) - array.ndim
    if lead < 0:
        return RuntimeError(
            f"expand(torch.{tensor_type_name(array.dtype)}{{{list(shape)}}}, size={list(target)}): "
            f"the number of sizes provided ({len(target)}) must be greater or equal to the number of dimensions "
            f"in the tensor ({len(shape)})"
        )
    for dim in reversed(range(len(target))):
        have = shape[dim - lead] if dim >= lead else 1
        if have not in (target[dim], 1) and target[dim] != -1:
            return RuntimeError(
                f"The expanded size of the tensor ({target[dim]}) must match the existing size ({have}) at "
                f"non-singleton dimension {dim}.  Target sizes: {list(target)}.  Tensor sizes: {list(shape)}"
            )
    raise ValueError(f"{list(shape)} expands to {list(target)}")


@public(methods="expand_as")
def expand_as(input, other):
    return expand(input, other.shape)


@public("permute", methods="permute")
def permute(input, *dims):
    dims = tuple(_dim(d, input._array.ndim) for d in _shape_args(dims))
    return recorded(view_of(input, input._array.transpose(dims)), (input,), PermuteBackward0, dims)


@public("transpose", methods="transpose")
def transpose(input, dim0, dim1):
    ndim = input._array.ndim
    dim0, dim1 = _dim(dim0, ndim), _dim(dim1, ndim)
    value = np.swapaxes(input._array, dim0, dim1)
    return recorded(view_of(input, value), (input,), TransposeBackward0, dim0, dim1)


@public("t", methods="t")
def t(input):
    if input._array.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input._array.ndim}D")
    return recorded(view_of(input, input._array.T), (input,), TBackward0)


_T_WARNINGS = {0: T_OF_A_SCALAR, 1: T_REVERSING_DIMENSIONS}  # PyTorch warns once per process for each case
_t_warned = set()


@public(properties="T")
def T(input):
    """``x.T``: every dimension reversed (a permute, as PyTorch records it). Meant for
    matrices: on any other tensor PyTorch warns, once, that this is deprecated."""
    ndim = input._array.ndim
    if ndim != 2:
        case = 0 if ndim == 0 else 1
        if case not in _t_warned:
            _t_warned.add(case)
            warnings.warn(_T_WARNINGS[case], UserWarning, stacklevel=2)
    return permute(input, tuple(reversed(range(ndim))))


@public("flatten", methods="flatten")
def flatten(input, start_dim=0, end_dim=-1):
    """Merge the dims from ``start_dim`` to ``end_dim`` into one, by ``reshape``.

    With one dim or none to merge, PyTorch hands back the input itself (no node); a
    0-dim tensor still becomes a vector of one element.
    """
    shape = input._array.shape
    if not shape:
        return reshape(input, (1,))
    start, end = _dim(start_dim, len(shape)), _dim(end_dim, len(shape))
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    merged = math.prod(shape[start : end + 1])
    return reshape(input, shape[:start] + (merged,) + shape[end + 1 :])


@public(methods="contiguous")
def contiguous(input, memory_format=None):
    """The input itself if its elements are already in row-major order, else a row-major
    copy (``CloneBackward0``), which is a new tensor, not a view, as in PyTorch."""
    if input._array.flags.c_contiguous:
        return input
    return clone(input)


@public(methods="__getitem__")
def getitem(input, key):
    """``x[key]``: a copy for index tensors and masks; otherwise a view, made the way
    PyTorch makes it, one recorded view per part of the key: ``x[1:, 0]`` is a slice of
    dim 0, then a select of dim 1; ``None`` unsqueezes; a full ``:`` inside a tuple is skipped."""
    key = _plain_key(key)
    if _is_advanced(key):
        array = input._array
        out = Tensor._wrap(array[key])
        return recorded(out, (input,), IndexBackward0, array.shape, key)
    if isinstance(key, slice):  # a lone slice is recorded even when it takes everything
        return _slice(input, 0, key)
    out, dim = input, 0
    for part in _spelled_out(key if isinstance(key, tuple) else (key,), input._array.ndim):
        if part is None:
            out, dim = unsqueeze(out, dim), dim + 1
        elif isinstance(part, slice):
            out, dim = (out if part == slice(None) else _slice(out, dim, part)), dim + 1
        else:
            out = _select(out, dim, part)
    if out is input:
        return recorded(view_of(input, input._array.view()), (input,), AliasBackward0)
    return out


def _spelled_out(parts, ndim):
    """The key's parts with ``...`` replaced by as many full slices as it stands for."""
    if Ellipsis not in parts:
        return parts
    at = parts.index(Ellipsis)
    used = sum(1 for part in parts if part is not None and part is not Ellipsis)
    return parts[:at] + (slice(None),) * (ndim - used) + parts[at + 1 :]


def _select(input, dim, index):
    """``x[..., index, ...]`` at ``dim``: that dimension goes away (a 0-dim view for a vector)."""
    array = input._array
    size = array.shape[dim] if dim < array.ndim else 0
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    value = array[(slice(None),) * dim + (index, Ellipsis)]
    return recorded(view_of(input, value), (input,), SelectBackward0, dim, index, array.shape)


def _slice(input, dim, part):
    if part.step is not None and part.step <= 0:
        raise ValueError("step must be greater than zero")
    array = input._array
    key = (slice(None),) * dim + (part,)
    return recorded(view_of(input, array[key]), (input,), SliceBackward0, array.shape, key)


def _plain_key(key):
    """Index tensors become numpy arrays, so numpy can do the indexing."""
    if isinstance(key, Tensor):
        return key._array
    if isinstance(key, tuple):
        return tuple(k._array if isinstance(k, Tensor) else k for k in key)
    return key


def _as_view_key(key):
    """A basic index that gives a numpy view even when it picks one element.

    ``array[0]`` of a vector is a numpy scalar (a copy); ``array[0, ...]`` is a 0-dim
    view of the same memory, as PyTorch's ``x[0]`` is.
    """
    parts = key if isinstance(key, tuple) else (key,)
    if any(part is Ellipsis for part in parts):
        return key
    return parts + (Ellipsis,)


def _is_advanced(key):
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, (np.ndarray, list)) for k in parts)


@public("narrow", methods="narrow")
def narrow(input, dim, start, length):
    """``length`` positions of ``dim`` from ``start`` on: a slice, as PyTorch records it."""
    array = input._array
    dim = _dim(dim, array.ndim)
    size = array.shape[dim]
    start = start + size if start < 0 else start
    if not 0 <= start <= size or not 0 <= length <= size - start:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return _slice(input, dim, slice(start, start + length))


@public("select", methods="select")
def select(input, dim, index):
    """``x.select(dim, i)``: ``x[..., i, ...]`` with ``i`` at ``dim``."""
    array = input._array
    dim = _dim(dim, array.ndim)
    return _select(input, dim, index + array.shape[dim] if index < 0 else index)


@public(methods="view_as")
def view_as(input, other):
    """``x.view_as(other)``: ``x.view(other.shape)``."""
    return view(input, other._array.shape)


@public(properties="mT")
def mT(input):  # noqa: N802 - PyTorch's name
    """``x.mT``: the last two dimensions swapped (a batch of matrices, transposed)."""
    return transpose(input, -2, -1)
