"""Softmax and log-softmax along one dimension, one node each as in PyTorch.

Their backward rules are chapter 2's optional challenge (C2): each node saved its
result, and the gradient of a whole slice is written with it, with one sum per slice.
"""
import warnings

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..ops.views import _dim
from ..public_names import public
from ..tensor import Tensor


class SoftmaxBackward0(Node):
    """s = softmax(x) along ``dim``: every s_i depends on every x_j of its slice; the node keeps s."""

    saved_names = ("dim", "result")

    def __init__(self, dim, result):
        self._saved = (dim, SavedTensor(result, is_output=True))


class LogSoftmaxBackward0(SoftmaxBackward0):
    """l = log_softmax(x) along ``dim``, computed stably; the node keeps l."""


def _sum_kept(x, dim):
    """Sum over ``dim``, keeping it as a 1 (an array or a tensor; a 0-d one is its own sum)."""
    if x.ndim == 0:
        return x
    return x.sum(axis=dim, keepdims=True) if isinstance(x, np.ndarray) else x.sum(dim, keepdim=True)


def _softmax_dim(name, ndim, stacklevel):
    """The dim PyTorch guesses when none is given (and warns that it guessed)."""
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def _shifted(input, dim):
    """x - max(x) along dim: the same softmax, with no exp that can overflow."""
    x = input._array
    if x.ndim == 0:
        return x - x
    return x - x.max(axis=dim, keepdims=True)


@public("softmax")
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / Σ exp(x) along ``dim``: each slice becomes probabilities summing to 1."""
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    dim = _dim(dim, input.ndim)
    e = np.exp(_shifted(input, dim))
    out = Tensor._wrap(e / _sum_kept(e, dim))
    return recorded(out, (input,), SoftmaxBackward0, dim, out)


@public("log_softmax")
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """x - log Σ exp(x) along ``dim``, computed stably (the log of softmax without its rounding)."""
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    dim = _dim(dim, input.ndim)
    shifted = _shifted(input, dim)
    out = Tensor._wrap(shifted - np.log(_sum_kept(np.exp(shifted), dim)))
    return recorded(out, (input,), LogSoftmaxBackward0, dim, out)


@public(methods="softmax")
def softmax_method(self, dim, dtype=None):
    """``x.softmax(dim)``: ``F.softmax`` with the method's arguments."""
    return softmax(self, dim, dtype=dtype)


@public(methods="log_softmax")
def log_softmax_method(self, dim, dtype=None):
    """``x.log_softmax(dim)``: ``F.log_softmax`` with the method's arguments."""
    return log_softmax(self, dim, dtype=dtype)
