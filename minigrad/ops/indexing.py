"""Picking and adding along one dimension by a tensor of indices, and sorting.

``index_select(x, dim, index)`` takes the slices ``index`` names; its backward adds the
gradient back into those slices (a slice picked twice gets both). ``index_add`` is that
addition as an operation of its own, whose backward picks the same slices again. ``sort``
permutes: its backward sends each value's gradient back to the place it came from; ``topk``
keeps the first ``k`` of that order, and the elements it left out get no gradient.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..public_names import public
from ..return_types import MinMax
from ..tensor import Tensor
from . import inplace_history
from .selection import _scatter_add, gather
from .views import _dim


def _picked(grad, dim, index):
    """``grad``'s slices at ``index`` along ``dim`` (recorded when ``grad`` is a tensor)."""
    if isinstance(grad, Tensor):
        return index_select(grad, dim, Tensor._wrap(index))
    return np.take(grad, index, axis=dim)


def _added(shape, dim, index, source):
    """Zeros of ``shape`` with ``source`` added at ``index`` along ``dim`` (recorded for a tensor)."""
    if isinstance(source, Tensor):
        return index_add(Tensor._wrap(np.zeros(shape, source._array.dtype)), dim, Tensor._wrap(index), source)
    out = np.zeros(shape, source.dtype)
    np.add.at(out, (slice(None),) * dim + (index,), source)
    return out


class IndexSelectBackward0(Node):
    __slots__ = ()
    saved_names = ("dim", "index", "self_sym_sizes")

    def backward(self, grad):
        dim, index, shape = self._saved
        return _added(shape, dim, index, grad)


class IndexAddBackward0(Node):
    """d out / d self is the identity; d out / d source picks the slices source was added to."""

    __slots__ = ()
    saved_names = ("alpha", "dim", "index")

    def backward(self, grad):
        alpha, dim, index = self._saved
        return grad, _picked(grad, dim, index) * alpha


class SortBackward0(Node):
    __slots__ = ()
    _num_outputs = 2  # the values, and the indices (which get no gradient)
    saved_names = ("dim", "indices", "self_sym_sizes")

    def backward(self, grad, _indices_grad=None):
        dim, indices, shape = self._saved
        if isinstance(grad, Tensor):
            inverse = Tensor._wrap(np.argsort(indices, axis=dim))
            return gather(grad, dim, inverse)
        out = np.zeros(shape, dtype=grad.dtype)
        np.put_along_axis(out, indices, grad, axis=dim)
        return out

    def _output_meta(self, nr):
        return self._shape, np.dtype(np.int64)


class DiagEmbedBackward0(Node):
    """``diag`` of a vector puts it on a diagonal: its gradient is that diagonal of the gradient."""

    __slots__ = ()
    saved_names = ("offset",)

    def backward(self, grad):
        (offset,) = self._saved
        return diag(grad, offset) if isinstance(grad, Tensor) else np.diagonal(grad, offset).copy()


class DiagonalBackward0(Node):
    """``diag`` of a matrix reads a diagonal: its gradient is zeros with the gradient on it."""

    __slots__ = ()
    saved_names = ("offset", "self_sym_sizes")

    def backward(self, grad):
        offset, shape = self._saved
        return _placed(grad, offset, shape)


def _placed(values, offset, shape):
    """Zeros of ``shape`` with the vector ``values`` on diagonal ``offset``: a product with a 0/1
    matrix, so that for a tensor (create_graph) it is recorded like any product."""
    count = len(values)
    rows = np.arange(count) - min(offset, 0)
    placing = np.zeros((shape[0] * shape[1], count), dtype=values.dtype if isinstance(values, np.ndarray) else values._array.dtype)
    placing[rows * shape[1] + rows + offset, np.arange(count)] = 1
    if isinstance(values, Tensor):
        return (Tensor._wrap(placing) @ values).reshape(shape)
    return (placing @ values).reshape(shape)


@public("diag", methods="diag")
def diag(input, diagonal=0):
    """A vector becomes a square matrix with it on diagonal ``diagonal``; a matrix gives that diagonal."""
    array = input._array
    if array.ndim == 1:
        size = len(array) + abs(diagonal)
        return recorded(Tensor._wrap(_placed(array, diagonal, (size, size))), (input,), DiagEmbedBackward0, diagonal)
    if array.ndim == 2:
        out = Tensor._wrap(np.diagonal(array, diagonal).copy())
        return recorded(out, (input,), DiagonalBackward0, diagonal, array.shape)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {array.ndim}D")


@public("diagonal", methods="diagonal")
def diagonal(input, offset=0, dim1=0, dim2=1):
    """Diagonal ``offset`` of the matrices along ``dim1`` and ``dim2``, as a new last dimension
    (a copy here, where PyTorch gives a view)."""
    ndim = input._array.ndim
    dim1, dim2 = _dim(dim1, ndim), _dim(dim2, ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if ndim == 2:
        return diag(input if dim1 == 0 else input.t(), offset)
    return _batched_diagonal(input, offset, dim1, dim2)


def _batched_diagonal(input, offset, dim1, dim2):
    """The diagonal of each matrix of a batch: the two dimensions moved last, then a product with
    a 0/1 matrix picking the diagonal's elements, so the gradient (of any order) is the product's."""
    rest = [d for d in range(input._array.ndim) if d not in (dim1, dim2)]
    matrices = input.permute(*rest, dim1, dim2)
    *batch, n, m = matrices.shape
    count = max(0, min(n + min(offset, 0), m - max(offset, 0)))
    rows = np.arange(count) - min(offset, 0)
    picking = np.zeros((n * m, count), dtype=input._array.dtype)
    picking[rows * m + rows + offset, np.arange(count)] = 1
    return matrices.reshape(*batch, n * m) @ Tensor._wrap(picking)


def _index(index):
    array = index._array
    if array.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    return array.reshape(-1).astype(np.int64, copy=False)


@public("index_select", methods="index_select")
def index_select(input, dim, index):
    array = input._array
    dim = _dim(dim, max(array.ndim, 1))
    picked = _index(index)
    out = Tensor._wrap(np.take(array, picked, axis=dim))
    return recorded(out, (input,), IndexSelectBackward0, dim, picked, array.shape)


@public("index_add", methods="index_add")
def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source[i]`` added to slice ``index[i]`` along ``dim``."""
    array = input._array
    dim = _dim(dim, max(array.ndim, 1))
    picked = _index(index)
    out = array.copy()
    np.add.at(out, (slice(None),) * dim + (picked,), source._array * alpha)
    out = Tensor._wrap(out)
    return recorded(out, (input, source), IndexAddBackward0, alpha, dim, picked)


@public(methods="index_add_")
def index_add_(input, dim, index, source, *, alpha=1):
    return inplace_history.apply(input, index_add, dim, index, source, alpha=alpha)


@public("sort", methods="sort")
def sort(input, dim=-1, descending=False, stable=False):
    """``(values, indices)``; equal values keep their order."""
    array = input._array
    dim = _dim(dim, max(array.ndim, 1))
    order = np.argsort(-array if descending else array, axis=dim, kind="stable")
    out = Tensor._wrap(np.take_along_axis(array, order, axis=dim))
    indices = Tensor._wrap(order.astype(np.int64))
    return MinMax(recorded(out, (input,), SortBackward0, dim, order, array.shape), indices, "sort")


@public("argsort", methods="argsort")
def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices



class TopkBackward0(SortBackward0):
    """The ``k`` values picked send their gradients back to where ``indices`` says they were; the
    rest of the input gets 0 (a scatter into zeros, recorded under create_graph)."""

    __slots__ = ()

    def backward(self, grad, _indices_grad=None):
        dim, indices, shape = self._saved
        return _scatter_add(grad, shape, indices, dim) if shape else grad


@public("topk", methods="topk")
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - PyTorch's name
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``, best first.

    Ties keep their order in the input. ``sorted=False`` lets PyTorch return them in any order;
    minigrad returns them sorted all the same.
    """
    array = input._array
    dim = _dim(dim, max(array.ndim, 1))
    if not 0 <= k <= (array.shape[dim] if array.ndim else 1):
        raise RuntimeError("selected index k out of range")
    if not array.ndim:  # a zero-dim tensor is its own top element (PyTorch's answer for k 0 too)
        order, values = np.zeros((), np.int64), array.copy()
    else:
        order = np.argsort(-array if largest else array, axis=dim, kind="stable")
        order = np.take(order, np.arange(k), axis=dim)
        values = np.take_along_axis(array, order, axis=dim)
    out = recorded(Tensor._wrap(values), (input,), TopkBackward0, dim, order, array.shape)
    return MinMax(out, Tensor._wrap(order.astype(np.int64)), "topk")
