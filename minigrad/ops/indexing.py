"""Picking and adding along one dimension by a tensor of indices, and sorting.

``index_select(x, dim, index)`` takes the slices ``index`` names; its backward adds the
gradient back into those slices (a slice picked twice gets both). ``index_add`` is that
addition as an operation of its own, whose backward picks the same slices again. ``sort``
permutes: its backward sends each value's gradient back to the place it came from.
"""
import numpy as np

from ..autograd.graph import Node, record, should_record
from ..public_names import public
from ..return_types import MinMax
from ..tensor import Tensor
from . import inplace_history
from .selection import gather
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
    if should_record(input):
        record(out, IndexSelectBackward0(dim, picked, array.shape), input)
    return out


@public("index_add", methods="index_add")
def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source[i]`` added to slice ``index[i]`` along ``dim``."""
    array = input._array
    dim = _dim(dim, max(array.ndim, 1))
    picked = _index(index)
    out = array.copy()
    np.add.at(out, (slice(None),) * dim + (picked,), source._array * alpha)
    out = Tensor._wrap(out)
    if should_record(input, source):
        record(out, IndexAddBackward0(alpha, dim, picked), input, source)
    return out


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
    if should_record(input):
        record(out, SortBackward0(dim, order, array.shape), input)
    return MinMax(out, indices, "sort")


@public("argsort", methods="argsort")
def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices

