"""Binary cross-entropy computed from logits, one node as in PyTorch: the loss of chapter 2's model.

For a logit z (any real number) and a target y in [0, 1], with σ the sigmoid, the loss
-[y log σ(z) + (1 - y) log(1 - σ(z))] is (1 - y) z + softplus(-z), where softplus(-z) =
log(1 + e^-z); with a ``pos_weight`` p the softplus term is weighted 1 + (p - 1) y. It is
computed in that form, never through σ(z) itself, so a large |z| cannot give log(0).
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..ops import pointwise
from ..ops._operands import dispatch
from ..tensor import Tensor
from ._loss_parts import _REDUCTIONS, _maybe_saved, _reduce

MEAN = _REDUCTIONS["mean"]  # the number the node saves for reduction="mean"


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """The loss of each element, times its weight, summed, and over n for a mean."""

    saved_names = ("self", "target", "weight", "pos_weight", "reduction")

    def __init__(self, input, target, weight, pos_weight, reduction):
        self._saved = (SavedTensor(input), SavedTensor(target), _maybe_saved(weight), _maybe_saved(pos_weight), reduction)





def _sigmoid(z):
    """σ(z) for an array (computed without overflow) or a tensor."""
    return pointwise.stable_sigmoid(z) if isinstance(z, (np.ndarray, np.generic)) else pointwise.sigmoid(z)


def _softplus_neg(z):
    """softplus(-z) = log(1 + e^-z) = -log σ(z): stable for arrays; for tensors (a recorded
    backward) -log σ(z), which is differentiable everywhere and finite while σ(z) > 0."""
    return dispatch(z, lambda a: np.logaddexp(0, -a), lambda t: -pointwise.log(pointwise.sigmoid(t)))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """-[y log σ(z) + (1 - y) log(1 - σ(z))], computed stably from the logits z."""
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    z, y = input._array, target._array
    log_sig_neg = np.logaddexp(0, -z)  # -log σ(z), stable for large |z|
    if pos_weight is None:
        loss = (1 - y) * z + log_sig_neg
    else:
        loss = (1 - y) * z + (1 + (pos_weight._array - 1) * y) * log_sig_neg
    if weight is not None:
        loss = loss * weight._array
    out = Tensor._wrap(_reduce(loss.astype(z.dtype, copy=False), reduction))
    saved = (input, target, weight, pos_weight, _REDUCTIONS[reduction])
    return recorded(out, (input, target), BinaryCrossEntropyWithLogitsBackward0, *saved)
