"""``torch.nn.functional``: activations and losses built on minigrad's operations.

Losses PyTorch implements as one fused kernel (binary cross-entropy with logits)
get one node here too, so the graph shows the same ``grad_fn`` names.
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..ops import pointwise
from ..tensor import Tensor

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

relu = pointwise.relu
sigmoid = pointwise.sigmoid
tanh = pointwise.tanh


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """d loss / d z = (sigmoid(z) - y) per element (times the weights), over n for a mean."""

    saved_names = ("self", "target", "weight", "pos_weight", "reduction")

    def backward(self, grad):
        z, y, weight, pos_weight, reduction = self.saved_tensors
        s = _sigmoid(z)
        if pos_weight is None:
            local = s - y
        else:
            local = (pos_weight * y + 1 - y) * s - pos_weight * y
        if weight is not None:
            local = local * weight
        if reduction == _REDUCTIONS["mean"]:
            local = local / _numel(z)
        return grad * local, None


def _numel(x):
    n = 1
    for d in x.shape:
        n *= d
    return n


def _sigmoid(z):
    return 0.5 + 0.5 * np.tanh(0.5 * z) if isinstance(z, (np.ndarray, np.generic)) else pointwise.sigmoid(z)


def _reduce(values, reduction):
    if reduction == "mean":
        return values.mean(dtype=values.dtype)
    if reduction == "sum":
        return values.sum(dtype=values.dtype)
    return values


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
    if should_record(input, target):
        saved = (SavedTensor(input), SavedTensor(target), _maybe_saved(weight), _maybe_saved(pos_weight),
                 _REDUCTIONS[reduction])
        record(out, BinaryCrossEntropyWithLogitsBackward0(*saved), input, target)
    return out


def _maybe_saved(x):
    return None if x is None else SavedTensor(x)
