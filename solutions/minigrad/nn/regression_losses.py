"""L1 and smooth L1 losses, and constant padding (``F.pad``).

``l1_loss`` is composed of operations, as PyTorch composes it (``SubBackward0``, ``AbsBackward0``,
then ``MeanBackward0`` or ``SumBackward0``); ``smooth_l1_loss`` and ``pad`` are one node each,
as in PyTorch (``SmoothL1LossBackward0``, ``ConstantPadNdBackward0``).
"""
import warnings

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..ops import arithmetic, pointwise
from ..ops._operands import compute, dispatch
from ..shape import sum_to
from ..tensor import Tensor
from ._loss_parts import _REDUCTIONS, _numel, _reduce, _reduction
from .activations import _where


def _warn_if_shapes_differ(input, target):
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). This will "
            "likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            stacklevel=3,
        )


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The mean (or sum) of the absolute differences |x - y|."""
    _warn_if_shapes_differ(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    loss = pointwise.abs(arithmetic.sub(input, target))
    return loss if reduction == "none" else loss.mean() if reduction == "mean" else loss.sum()


class SmoothL1LossBackward0(Node):
    """Per element, d/dx of 0.5 (x - y)² / beta inside |x - y| < beta, of |x - y| - beta/2 outside:
    (x - y) / beta inside, its sign outside; the target gets the opposite; a mean divides by n."""

    saved_names = ("self", "target", "reduction", "beta")

    def __init__(self, input, target, reduction, beta):
        self._saved = (SavedTensor(input), SavedTensor(target), reduction, beta)

    def backward(self, grad):
        x, y, reduction, beta = self.saved_tensors
        need_x, need_y = self.needs_input_grad
        diff = x - y
        slope = _where(abs(diff) < beta, diff / beta, dispatch(diff, np.sign, pointwise.sign))
        if reduction == _REDUCTIONS["mean"]:
            slope = slope / _numel(slope)
        g = grad * slope
        return (sum_to(g, x.shape) if need_x else None, sum_to(-g, y.shape) if need_y else None)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared below ``beta``, absolute above: 0.5 d² / beta if |d| < beta, else |d| - beta/2 (d = x - y).
    ``beta=0`` is the L1 loss, and PyTorch then computes it as ``l1_loss``."""
    if beta == 0:  # PyTorch's own shortcut: its graph is then l1_loss's
        return l1_loss(input, target, size_average, reduce, reduction)
    _warn_if_shapes_differ(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    diff = compute(np.subtract, input._array, target._array)
    size = np.abs(diff)
    dtype = diff.dtype.type
    loss = np.where(size < beta, dtype(0.5) * diff * diff / dtype(beta), size - dtype(0.5 * beta))
    out = Tensor._wrap(_reduce(loss.astype(diff.dtype, copy=False), reduction))
    return recorded(out, (input, target), SmoothL1LossBackward0, input, target, _REDUCTIONS[reduction], beta)


# ---------------------------------------------------------------- padding


class ConstantPadNdBackward0(Node):
    """out = the input surrounded by ``value`` (a negative pad cuts instead): the gradient is the
    part of ``grad`` where the input went, cut out again."""

    saved_names = ("pad",)

    def __init__(self, pad, input_shape):
        self._saved = (pad,)
        self._input_shape = input_shape

    def backward(self, grad):
        (pad,) = self._saved
        widths = _widths(pad, len(self._input_shape))
        return _pad_or_cut(grad, [(-before, -after) for before, after in widths], 0)


def _widths(pad, ndim):
    """(before, after) for each dimension, from PyTorch's pad tuple, which starts at the last dimension."""
    pairs = [(pad[i], pad[i + 1]) for i in range(0, len(pad), 2)]
    return [(0, 0)] * (ndim - len(pairs)) + pairs[::-1]


def _pad_or_cut(a, widths, value):
    """``a`` with ``before`` and ``after`` elements added (filled with ``value``) or, negative, removed."""
    cut = tuple(slice(max(-b, 0), n - max(-e, 0)) for (b, e), n in zip(widths, a.shape))
    a = a[cut]
    grow = [(max(b, 0), max(e, 0)) for b, e in widths]
    if not any(b or e for b, e in grow):
        return a
    if isinstance(a, Tensor):  # under create_graph: padding the gradient is this same operation
        return pad(a, [w for b, e in reversed(grow) for w in (b, e)], value=value)
    return np.pad(a, grow, constant_values=value)


def pad(input, pad, mode="constant", value=None):
    """``input`` with ``pad[0]`` elements before and ``pad[1]`` after the last dimension, ``pad[2]``
    and ``pad[3]`` around the one before, and so on, filled with ``value`` (0 by default)."""
    if mode != "constant":
        raise NotImplementedError("minigrad's pad has the constant mode only")
    pad = tuple(int(p) for p in pad)
    x = input._array
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * x.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but got padding length "
            f"{len(pad)} and input of dimension {x.ndim}"
        )
    widths = _widths(pad, x.ndim)
    if any(n + b + e < 0 for (b, e), n in zip(widths, x.shape)):
        raise RuntimeError("narrow(): length must be non-negative.")
    out = Tensor._wrap(np.ascontiguousarray(_pad_or_cut(x, widths, 0 if value is None else value)))
    return recorded(out, (input,), ConstantPadNdBackward0, pad, x.shape)
