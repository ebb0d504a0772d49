"""The lower and upper triangles of a matrix (or of every matrix of a batch): ``tril`` and ``triu``.

An element either is copied or becomes 0, so the gradient follows the same mask: each
node cuts the gradient down to the same triangle (the zeroed elements had no say in the
result). ``diagonal`` moves the edge: 0 is the main diagonal, k > 0 above it, k < 0 below.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..public_names import public
from ..tensor import Tensor
from ._operands import dispatch


class TrilBackward0(Node):
    """out = the lower triangle of self: the gradient keeps the same triangle."""

    __slots__ = ()
    saved_names = ("diagonal",)

    def backward(self, grad):
        (diagonal,) = self._saved
        return dispatch(grad, lambda g: np.tril(g, diagonal), lambda g: tril(g, diagonal))


class TriuBackward0(Node):
    """out = the upper triangle of self: the gradient keeps the same triangle."""

    __slots__ = ()
    saved_names = ("diagonal",)

    def backward(self, grad):
        (diagonal,) = self._saved
        return dispatch(grad, lambda g: np.triu(g, diagonal), lambda g: triu(g, diagonal))


def _triangle(name, cut, node_type, input, diagonal):
    """``cut`` (``np.tril`` or ``np.triu``) applied to the last two dimensions, recorded as ``node_type``."""
    array = input._array
    if array.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return recorded(Tensor._wrap(cut(array, diagonal)), (input,), node_type, diagonal)


@public("tril", methods="tril")
def tril(input, diagonal=0):
    """The elements on and below the ``diagonal``-th diagonal; the others are 0."""
    return _triangle("tril", np.tril, TrilBackward0, input, diagonal)


@public("triu", methods="triu")
def triu(input, diagonal=0):
    """The elements on and above the ``diagonal``-th diagonal; the others are 0."""
    return _triangle("triu", np.triu, TriuBackward0, input, diagonal)
