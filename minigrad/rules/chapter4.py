"""Chapter 4's operations: zeroing a gradient in place (4.3), the forward-mode rules of ``*``, ``/``, ``**`` and
the matrix product (4.5), and the backward rules of the shape operations (4.8).

A forward-mode rule is a node's ``jvp``: it receives the node and one tangent per input (None for an input
without one) and returns the output's tangent. A shape operation's rule is a node's ``backward``, as in
chapters 1 and 2. ``RULES``, at the end, tells ``rules/__init__.py`` which node each belongs to.

第 4 章的运算：原地清零梯度（4.3），``*``、``/``、``**`` 和矩阵乘积的前向模式规则（4.5），以及形状运算的反向传播
规则（4.8）。

前向模式规则是节点的 ``jvp``：它接收节点和每个输入的切向量（没有切向量的输入为 None），返回输出的切向量。形状运算的
规则与第 1、2 章一样是节点的 ``backward``。文件末尾的 ``RULES`` 告诉 ``rules/__init__.py`` 每条规则属于哪个节点。
"""
import numpy as np

from ..autograd.graph import should_record
from ..ops.arithmetic import DivBackward0, MulBackward0
from ..ops.inplace import _zeros
from ..ops.inplace_history import apply, check_allowed
from ..ops.linalg import MmBackward0
from ..ops.powers import PowBackward0, _power
from ..ops.views import ExpandBackward0, PermuteBackward0, SqueezeBackward1, TransposeBackward0, UnsqueezeBackward0
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor


@public("zero_", methods="zero_")
def zero_(tensor):
    """Set every element to 0 in place: how training resets a gradient between steps.

    Usually there is nothing to record (a ``.grad``, or any tensor under ``no_grad``) and
    the memory is written directly; a recorded zeroing goes through ``apply`` like every
    other in-place operation.

    原地把每个元素置为 0：训练在两步之间就是这样重置梯度的。

    通常没有什么需要记录（``.grad``，或 ``no_grad`` 下的任何张量），直接写内存即可；需要记录的清零
    和其他原地操作一样经过 ``apply``。
    """
    if should_record(tensor):
        return apply(tensor, _zeros)
    check_allowed(tensor)
    raise NotImplementedError("step 4.3: your code goes here (see the chapter's exercise) / 第 4.3 步：在这里写你的代码（见本章的练习）")


# MulBackward0 (ops/arithmetic.py): out = self * other, element by element (the shapes broadcast together).
def mul_jvp(self, tangent_self, tangent_other):
    """Forward mode: out's tangent, from the inputs' tangents (None for an input that has none). With
    self = [2], other = [5], tangent_self = [1] and tangent_other = None: [5].

    前向模式：由各输入的切向量（没有切向量的输入为 None）求 out 的切向量。self = [2]、other = [5]、
    tangent_self = [1]、tangent_other = None 时：[5]。
    """
    other, self_ = self.saved_tensors
    raise NotImplementedError("step 4.5: your code goes here (see the chapter's exercise) / 第 4.5 步：在这里写你的代码（见本章的练习）")


# DivBackward0 (ops/arithmetic.py): out = self / other, element by element (the shapes broadcast together).
def div_jvp(self, tangent_self, tangent_other):
    """Forward mode: out's tangent, from the inputs' tangents (None for an input that has none). With
    self = [3], other = [2], tangent_self = None and tangent_other = [1]: [-0.75].

    前向模式：由各输入的切向量（没有切向量的输入为 None）求 out 的切向量。self = [3]、other = [2]、
    tangent_self = None、tangent_other = [1] 时：[-0.75]。
    """
    self_, other = self.saved_tensors
    raise NotImplementedError("step 4.5: your code goes here (see the chapter's exercise) / 第 4.5 步：在这里写你的代码（见本章的练习）")


# PowBackward0 (ops/powers.py): out = self ** exponent, ``exponent`` a Python number.
def pow_jvp(self, tangent):
    """Forward mode: out's tangent from self's. With self = [2], exponent = 3 and tangent = [0.5]: [6];
    0 everywhere for exponent 0.

    前向模式：由 self 的切向量求 out 的切向量。self = [2]、exponent = 3、tangent = [0.5] 时：[6]；
    exponent 为 0 时处处为 0。
    """
    self_, exponent = self.saved_tensors
    raise NotImplementedError("step 4.5: your code goes here (see the chapter's exercise) / 第 4.5 步：在这里写你的代码（见本章的练习）")


# MmBackward0 (ops/linalg.py): out = self @ mat2, a matrix product: self (m, k), mat2 (k, n), out (m, n).
def mm_jvp(self, tangent_self, tangent_mat2):
    """Forward mode: out's tangent (m, n), from the inputs' tangents (None for an input that has none).
    With self = [[1, 2]], mat2 = [[3], [4]], tangent_self = [[1, 0]] and tangent_mat2 = None: [[3]].

    前向模式：由各输入的切向量（没有切向量的输入为 None）求 out 的切向量 (m, n)。self = [[1, 2]]、
    mat2 = [[3], [4]]、tangent_self = [[1, 0]]、tangent_mat2 = None 时：[[3]]。
    """
    self_, mat2 = self.saved_tensors
    raise NotImplementedError("step 4.5: your code goes here (see the chapter's exercise) / 第 4.5 步：在这里写你的代码（见本章的练习）")


# UnsqueezeBackward0 (ops/views.py): out = self.unsqueeze(dim): the same elements, a new axis of size 1 at dim.
def unsqueeze_backward(self, grad):
    """The gradient of ``unsqueeze(dim)``: ``grad`` without the axis that was added.

    ``unsqueeze(dim)`` 的梯度：去掉新加的那一维的 ``grad``。
    """
    (dim,) = self._saved
    raise NotImplementedError("step 4.8: your code goes here (see the chapter's exercise) / 第 4.8 步：在这里写你的代码（见本章的练习）")


# SqueezeBackward1 (ops/views.py): out = self.squeeze(dim): axis dim is gone if its size was 1, else nothing changed.
def squeeze_backward(self, grad):
    """The gradient of ``squeeze(dim)``, in the input's shape ``sizes``.

    ``squeeze(dim)`` 的梯度，形状为输入的形状 ``sizes``。
    """
    dim, sizes = self._saved
    raise NotImplementedError("step 4.8: your code goes here (see the chapter's exercise) / 第 4.8 步：在这里写你的代码（见本章的练习）")


# ExpandBackward0 (ops/views.py): out = self.expand(sizes): each element of self is read wherever it is copied to.
def expand_backward(self, grad):
    """The gradient of ``expand``, brought back to the input's shape ``sizes``.

    ``expand`` 的梯度，还原为输入的形状 ``sizes``。
    """
    (sizes,) = self._saved
    raise NotImplementedError("step 4.8: your code goes here (see the chapter's exercise) / 第 4.8 步：在这里写你的代码（见本章的练习）")


# PermuteBackward0 (ops/views.py): out = self.permute(dims): axis i of the result is axis dims[i] of the input.
def permute_backward(self, grad):
    """The gradient of ``permute(dims)``: ``grad`` with its axes put back where they came from.

    ``permute(dims)`` 的梯度：把 ``grad`` 的各维放回它们原来的位置。
    """
    (dims,) = self._saved
    raise NotImplementedError("step 4.8: your code goes here (see the chapter's exercise) / 第 4.8 步：在这里写你的代码（见本章的练习）")


# TransposeBackward0 (ops/views.py): out = self.transpose(dim0, dim1): two axes swapped.
def transpose_backward(self, grad):
    """The gradient of ``transpose(dim0, dim1)``.

    ``transpose(dim0, dim1)`` 的梯度。
    """
    dim0, dim1 = self._saved
    raise NotImplementedError("step 4.8: your code goes here (see the chapter's exercise) / 第 4.8 步：在这里写你的代码（见本章的练习）")


# Which node's method each rule is: ``rules/__init__.py`` sets them.
RULES = {
    (MulBackward0, "jvp"): mul_jvp,
    (DivBackward0, "jvp"): div_jvp,
    (PowBackward0, "jvp"): pow_jvp,
    (MmBackward0, "jvp"): mm_jvp,
    (UnsqueezeBackward0, "backward"): unsqueeze_backward,
    (SqueezeBackward1, "backward"): squeeze_backward,
    (ExpandBackward0, "backward"): expand_backward,
    (PermuteBackward0, "backward"): permute_backward,
    (TransposeBackward0, "backward"): transpose_backward,
}
