"""Chapter 2's backward rules: the matrix product (2.4), ``sum`` (2.5), ``mean`` (2.6), ``relu`` and ``sigmoid``
(2.7), the logits loss (2.8), and ``softmax`` and ``log_softmax`` (challenge C2).

Each rule is a node's ``backward``, as in chapter 1 (``rules/chapter1.py``): the node, the gradient of the output,
one gradient per input returned. ``RULES``, at the end, tells ``rules/__init__.py`` which node each belongs to.

第 2 章的反向传播规则：矩阵乘积（2.4）、``sum``（2.5）、``mean``（2.6）、``relu`` 和 ``sigmoid``（2.7）、
logits 损失（2.8），以及 ``softmax`` 和 ``log_softmax``（挑战 C2）。

与第 1 章（``rules/chapter1.py``）一样，每条规则都是一个节点的 ``backward``：接收节点和输出的梯度，为每个输入返回
一个梯度。文件末尾的 ``RULES`` 告诉 ``rules/__init__.py`` 每条规则属于哪个节点。
"""
import numpy as np

from ..nn._loss_parts import _numel
from ..nn.logits_loss import MEAN, BinaryCrossEntropyWithLogitsBackward0, _sigmoid, _softplus_neg
from ..nn.softmax import LogSoftmaxBackward0, SoftmaxBackward0, _sum_kept
from ..ops import pointwise
from ..ops._operands import dispatch
from ..ops.linalg import MmBackward0, _transpose
from ..ops.pointwise import ReluBackward0, SigmoidBackward0, sign
from ..ops.reductions import MeanBackward0, MeanBackward1, SumBackward0, SumBackward1, _expand
from ..tensor import Tensor


# MmBackward0 (ops/linalg.py): out = self @ mat2, a matrix product: self (m, k), mat2 (k, n), out (m, n).
def mm_backward(self, grad):
    """``(grad_self, grad_mat2)`` for ``grad`` of out's shape (m, n): grad_self of shape (m, k),
    grad_mat2 of shape (k, n), or None for an input that needs no gradient. With self = [[1, 2]],
    mat2 = [[3], [4]] and grad = [[1]]: ([[3, 4]], [[1], [2]]).

    对形状为 (m, n)（与 out 相同）的 ``grad``，返回 ``(grad_self, grad_mat2)``：grad_self 形状为 (m, k)，
    grad_mat2 形状为 (k, n)；不需要梯度的输入得到 None。self = [[1, 2]]、mat2 = [[3], [4]]、grad = [[1]] 时：
    ([[3, 4]], [[1], [2]])。
    """
    self_, mat2 = self.saved_tensors
    need_self, need_mat2 = self.needs_input_grad
    # BEGIN SOLUTION 2.4
    grad_self = grad @ _transpose(mat2) if need_self else None
    grad_mat2 = _transpose(self_) @ grad if need_mat2 else None
    return grad_self, grad_mat2
    # END SOLUTION


def _restored(grad, shape, dims, keepdim):
    """The gradient of a sum over ``dims`` of an input of shape ``shape``, with the summed
    dimensions back in place as 1s, so that it lines up with the input (arrays and tensors).

    With ``keepdim=True`` they never left; with ``keepdim=False`` the sum dropped them.
    (Tensors get one ``unsqueeze`` per dimension, as PyTorch records them.)

    把求和所去掉的维度以长度 1 放回原位，使梯度与输入的各维对齐（数组与张量都要支持）。
    ``keepdim=True`` 时这些维度一直都在；``keepdim=False`` 时求和把它们去掉了。
    """
    # BEGIN SOLUTION 2.5
    if keepdim or not shape:
        return grad
    if isinstance(grad, Tensor):
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
        return grad
    return np.expand_dims(grad, tuple(sorted(dims)))
    # END SOLUTION


# SumBackward0 (ops/reductions.py): ``x.sum()``: one output, made of every element of ``x`` once.
def sum_backward(self, grad):
    """The gradient of ``x.sum()`` for ``x`` (its shape is ``shape``).

    ``x.sum()`` 对 ``x`` 的梯度（``x`` 的形状是 ``shape``）。
    """
    (shape,) = self._saved
    # BEGIN SOLUTION 2.5
    return _expand(grad, shape)
    # END SOLUTION


# SumBackward1 (ops/reductions.py): ``x.sum(dims, keepdim)``: each output is made of one slice of ``x``.
def sum_dim_backward(self, grad):
    """The gradient of ``x.sum(dims, keepdim)`` for ``x`` (its shape is ``shape``).

    ``x.sum(dims, keepdim)`` 对 ``x`` 的梯度（``x`` 的形状是 ``shape``）。
    """
    dims, keepdim, shape = self._saved
    # BEGIN SOLUTION 2.5
    return _expand(_restored(grad, shape, dims, keepdim), shape)
    # END SOLUTION


# MeanBackward0 (ops/reductions.py): ``x.mean()``: the sum of all ``numel`` elements, over ``numel``.
def mean_backward(self, grad):
    """The gradient of ``x.mean()`` for ``x``.

    ``x.mean()`` 对 ``x`` 的梯度。
    """
    numel, shape = self._saved
    # BEGIN SOLUTION 2.6
    return _expand(grad / numel, shape)
    # END SOLUTION


# MeanBackward1 (ops/reductions.py): ``x.mean(dims, keepdim)``: each output is the mean of one slice of ``x``.
def mean_dim_backward(self, grad):
    """The gradient of ``x.mean(dims, keepdim)`` for ``x``.

    ``x.mean(dims, keepdim)`` 对 ``x`` 的梯度。
    """
    dims, keepdim, numel, shape = self._saved  # numel: every element of the input, not one slice's
    # BEGIN SOLUTION 2.6
    count = 1
    for d in dims:
        count *= shape[d] if shape else 1
    return _expand(_restored(grad, shape, dims, keepdim) / count, shape)
    # END SOLUTION


# ReluBackward0 (ops/pointwise.py): out = relu(x), element by element; the node keeps the result.
def relu_backward(self, grad):
    """The gradient for ``x``, of its shape, from the saved result ``relu(x)``; 0 at x = 0, as in
    PyTorch. With x = [-1, 0, 2] and grad = [5, 5, 5]: [0, 0, 5].

    ``x`` 的梯度，形状与它相同，由保存的结果 ``relu(x)`` 求出；x = 0 处为 0，与 PyTorch 相同。
    x = [-1, 0, 2]、grad = [5, 5, 5] 时：[0, 0, 5]。
    """
    (result,) = self.saved_tensors
    # BEGIN SOLUTION 2.7
    # sign(result) is the mask result > 0 (relu's result is never negative); as a recorded
    # operation it keeps a double backward connected to the input, with derivative 0.
    return grad * dispatch(result, np.sign, sign)
    # END SOLUTION


# SigmoidBackward0 (ops/pointwise.py): out = sigmoid(x), element by element; the node keeps the result.
def sigmoid_backward(self, grad):
    """The gradient for ``x``, of its shape, from the saved result ``sigmoid(x)``. With x = [0]
    (result [0.5]) and grad = [1]: [0.25].

    ``x`` 的梯度，形状与它相同，由保存的结果 ``sigmoid(x)`` 求出。x = [0]（结果为 [0.5]）、grad = [1] 时：[0.25]。
    """
    (result,) = self.saved_tensors
    # BEGIN SOLUTION 2.7
    return grad * result * (1 - result)
    # END SOLUTION


# BinaryCrossEntropyWithLogitsBackward0 (nn/logits_loss.py): the loss of each element, times its weight,
# summed, and over n for a mean.
def logits_loss_backward(self, grad):
    """The gradients of the loss for the logits ``z`` and for the target ``y``.

    损失对 logits ``z`` 和对目标 ``y`` 的梯度。
    """
    z, y, weight, pos_weight, reduction = self.saved_tensors
    need_z, need_y = self.needs_input_grad
    # BEGIN SOLUTION 2.8
    scale = scaled(grad, weight, reduction, z)
    grad_z = scale * _logits_slope(z, y, pos_weight) if need_z else None
    grad_y = scale * _target_slope(z, pos_weight) if need_y else None
    return grad_z, grad_y
    # END SOLUTION


def scaled(grad, weight, reduction, z):
    """How much each element's loss counts in the result, times ``grad``: an array (or tensor) that
    broadcasts against ``z``. ``weight`` is None or the per-element weights; ``reduction`` is
    ``MEAN`` or the number of another reduction. With grad = 1, weight = [1, 3] and MEAN over
    z of 2 elements: [0.5, 1.5]. ``binary_cross_entropy``'s node counts its elements this way too.

    每个元素的损失在结果中占多少，乘以 ``grad``：一个能与 ``z`` 广播的数组（或张量）。``weight`` 为 None
    或逐元素的权重；``reduction`` 为 ``MEAN`` 或其他归约方式的编号。grad = 1、weight = [1, 3]、对 2 个元素的
    z 取 MEAN 时：[0.5, 1.5]。``binary_cross_entropy`` 的节点也这样计算每个元素的份量。
    """
    # BEGIN SOLUTION 2.8
    scale = grad if weight is None else grad * weight
    if reduction == MEAN:
        scale = scale / _numel(z)
    return scale
    # END SOLUTION


def _logits_slope(z, y, pos_weight):
    """d loss / dz for one element (weight 1): how the loss of each logit changes with it.

    单个元素（权重为 1）的 d loss / dz。
    """
    # BEGIN SOLUTION 2.8
    if pos_weight is None:
        return _sigmoid(z) - y
    return (pos_weight * y + 1 - y) * _sigmoid(z) - pos_weight * y
    # END SOLUTION


def _target_slope(z, pos_weight):
    """d loss / dy for one element (weight 1): the loss is a straight line in the target.

    单个元素（权重为 1）的 d loss / dy：损失对目标而言是一条直线。
    """
    # BEGIN SOLUTION 2.8
    if pos_weight is None:
        return -z
    return (pos_weight - 1) * _softplus_neg(z) - z
    # END SOLUTION


# SoftmaxBackward0 (nn/softmax.py): s = softmax(x) along ``dim``: every s_i depends on every x_j of its
# slice; the node keeps s.
def softmax_backward(self, grad):
    """The gradient for ``x``, of its shape, from the saved result ``s``. Each slice along ``dim`` of
    the answer sums to 0 (softmax's outputs always sum to 1). With x = [0, 0] (s = [0.5, 0.5]) and
    grad = [1, 0]: [0.25, -0.25].

    由保存的结果 ``s`` 求 ``x`` 的梯度，形状与 ``x`` 相同。答案沿 ``dim`` 的每一片之和为 0（softmax 的输出之和
    恒为 1）。x = [0, 0]（s = [0.5, 0.5]）、grad = [1, 0] 时：[0.25, -0.25]。
    """
    dim, result = self.saved_tensors
    # BEGIN SOLUTION C2
    return result * (grad - _sum_kept(grad * result, dim))
    # END SOLUTION


# LogSoftmaxBackward0 (nn/softmax.py): l = log_softmax(x) along ``dim``, computed stably; the node keeps l.
def log_softmax_backward(self, grad):
    """The gradient for ``x``, of its shape, from the saved result ``l`` (exp(l) is softmax(x)). With
    x = [0, 0] (l = [-0.6931, -0.6931]) and grad = [1, 0]: [0.5, -0.5].

    由保存的结果 ``l``（exp(l) 即 softmax(x)）求 ``x`` 的梯度，形状与 ``x`` 相同。x = [0, 0]
    （l = [-0.6931, -0.6931]）、grad = [1, 0] 时：[0.5, -0.5]。
    """
    dim, result = self.saved_tensors
    # BEGIN SOLUTION C2
    return grad - dispatch(result, np.exp, pointwise.exp) * _sum_kept(grad, dim)
    # END SOLUTION


# Which node's method each rule is: ``rules/__init__.py`` sets them.
RULES = {
    (ReluBackward0, "backward"): relu_backward,
    (SigmoidBackward0, "backward"): sigmoid_backward,
    (MmBackward0, "backward"): mm_backward,
    (SumBackward0, "backward"): sum_backward,
    (SumBackward1, "backward"): sum_dim_backward,
    (MeanBackward0, "backward"): mean_backward,
    (MeanBackward1, "backward"): mean_dim_backward,
    (BinaryCrossEntropyWithLogitsBackward0, "backward"): logits_loss_backward,
    (SoftmaxBackward0, "backward"): softmax_backward,
    (LogSoftmaxBackward0, "backward"): log_softmax_backward,
    (BinaryCrossEntropyWithLogitsBackward0, "scaled"): staticmethod(scaled),  # binary_cross_entropy's node uses it
}
