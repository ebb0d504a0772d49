"""Scans: running totals along one dimension (``cumsum``).

Output i along the dimension is x0 + x1 + ... + xi, so input j counts in every output
from j on: its gradient is the sum of the output gradients from position j to the end,
a running total taken backwards.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..public_names import public
from ..tensor import Tensor
from ._operands import dispatch
from .views import _dim


def _reverse_cumsum(grad, dim):
    """The running total from the end: position j gets grad[j] + grad[j+1] + ...

    For arrays: flip, cumsum, flip back. A tensor (create_graph) has no ``flip`` here, so
    its total is the whole sum minus the running total before j, with recorded operations.
    """
    return dispatch(
        grad,
        lambda g: np.flip(np.flip(g, dim).cumsum(axis=dim), dim),
        lambda g: g.sum(dim, keepdim=True) - g.cumsum(dim) + g,
    )


class CumsumBackward0(Node):
    __slots__ = ()
    saved_names = ("dim",)

    def backward(self, grad):
        (dim,) = self._saved
        if not grad.shape:  # a zero-dim tensor is its own running total
            return grad
        return _reverse_cumsum(grad, dim)


@public("cumsum", methods="cumsum")
def cumsum(input, dim, *, dtype=None):
    """Running totals along ``dim``; integers and bools add up as int64, as in PyTorch."""
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    d = _dim(dim, array.ndim)
    result_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    out = Tensor._wrap(array.cumsum(axis=d, dtype=result_dtype) if array.ndim else array.astype(result_dtype))
    return recorded(out, (input,), CumsumBackward0, d)
