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
from ._loss_parts import _REDUCTIONS, _maybe_saved, _numel, _reduce

MEAN = _REDUCTIONS["mean"]  # the number the node saves for reduction="mean"


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """The loss of each element, times its weight, summed, and over n for a mean."""

    saved_names = ("self", "target", "weight", "pos_weight", "reduction")

    def __init__(self, input, target, weight, pos_weight, reduction):
        self._saved = (SavedTensor(input), SavedTensor(target), _maybe_saved(weight), _maybe_saved(pos_weight), reduction)

    def backward(self, grad):
        """The gradients of the loss for the logits ``z`` and for the target ``y``.

        损失对 logits ``z`` 和对目标 ``y`` 的梯度。
        """
        z, y, weight, pos_weight, reduction = self.saved_tensors
        need_z, need_y = self.needs_input_grad
        raise NotImplementedError("step 2.8: your code goes here (see the chapter's exercise) / 第 2.8 步：在这里写你的代码（见本章的练习）")


def scaled(grad, weight, reduction, z):
    """How much each element's loss counts in the result, times ``grad``: an array (or tensor) that
    broadcasts against ``z``. ``weight`` is None or the per-element weights; ``reduction`` is
    ``MEAN`` or the number of another reduction. With grad = 1, weight = [1, 3] and MEAN over
    z of 2 elements: [0.5, 1.5]. ``binary_cross_entropy``'s node counts its elements this way too.

    每个元素的损失在结果中占多少，乘以 ``grad``：一个能与 ``z`` 广播的数组（或张量）。``weight`` 为 None
    或逐元素的权重；``reduction`` 为 ``MEAN`` 或其他归约方式的编号。grad = 1、weight = [1, 3]、对 2 个元素的
    z 取 MEAN 时：[0.5, 1.5]。``binary_cross_entropy`` 的节点也这样计算每个元素的份量。
    """
    raise NotImplementedError("step 2.8: your code goes here (see the chapter's exercise) / 第 2.8 步：在这里写你的代码（见本章的练习）")


def _logits_slope(z, y, pos_weight):
    """d loss / dz for one element (weight 1): how the loss of each logit changes with it.

    单个元素（权重为 1）的 d loss / dz。
    """
    raise NotImplementedError("step 2.8: your code goes here (see the chapter's exercise) / 第 2.8 步：在这里写你的代码（见本章的练习）")


def _target_slope(z, pos_weight):
    """d loss / dy for one element (weight 1): the loss is a straight line in the target.

    单个元素（权重为 1）的 d loss / dy：损失对目标而言是一条直线。
    """
    raise NotImplementedError("step 2.8: your code goes here (see the chapter's exercise) / 第 2.8 步：在这里写你的代码（见本章的练习）")


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
