"""Comparisons and selections. Comparisons give bool tensors and record nothing:
a step function has no useful gradient.
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..shape import sum_to
from ..tensor import Tensor
from ._operands import promoted


def _compare(numpy_op):
    def compare(input, other):
        x, y = promoted(input, other)
        return Tensor._wrap(numpy_op(x, y))

    compare.__name__ = numpy_op.__name__
    return compare


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)


def equal(input, other):
    """True when both have the same shape and the same values."""
    return input._array.shape == other._array.shape and bool(np.array_equal(input._array, other._array))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor._wrap(np.isclose(input._array, other._array, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(input._array, other._array, rtol=rtol, atol=atol, equal_nan=equal_nan))


class WhereBackward0(Node):
    """The gradient goes to whichever input each element was taken from."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("condition",)

    def backward(self, grad):
        (condition,) = self.saved_tensors
        return sum_to(grad * condition, self.self_shape), sum_to(grad * ~condition, self.other_shape)


def where(condition, input, other):
    x, y = promoted(input, other)
    mask = condition._array if isinstance(condition, Tensor) else np.asarray(condition)
    out = Tensor._wrap(np.where(mask, x, y))
    if should_record(input, other):
        node = WhereBackward0(SavedTensor(condition) if isinstance(condition, Tensor) else mask)
        node.self_shape, node.other_shape = np.shape(x), np.shape(y)
        record(out, node, input, other)
    return out


class MaximumBackward0(Node):
    """Ties share the gradient half and half, as in PyTorch."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")
    _pick = staticmethod(np.greater)

    def backward(self, grad):
        self_, other = self.saved_tensors
        first = (self_ > other) if self._pick is np.greater else (self_ < other)
        tie = (self_ == other) * 0.5
        return sum_to(grad * (first + tie), self.self_shape), sum_to(grad * (1 - first - tie), self.other_shape)


class MinimumBackward0(MaximumBackward0):
    __slots__ = ()
    _pick = staticmethod(np.less)


def _pairwise(numpy_fn, node_type):
    def pairwise(input, other):
        x, y = promoted(input, other)
        out = Tensor._wrap(numpy_fn(x, y))
        if should_record(input, other):
            node = node_type(SavedTensor(input), SavedTensor(other))
            node.self_shape, node.other_shape = np.shape(x), np.shape(y)
            record(out, node, input, other)
        return out

    return pairwise


maximum = _pairwise(np.maximum, MaximumBackward0)
minimum = _pairwise(np.minimum, MinimumBackward0)
