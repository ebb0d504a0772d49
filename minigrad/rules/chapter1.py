"""Chapter 1's backward rules: ``* + - /``, powers, ``exp``, ``log``, ``sqrt``, ``tanh`` (steps 1.4-1.8), and the
kinks of ``abs`` and ``clamp`` (challenge C1).

Each rule is a node's ``backward``: it receives the node (``self``: what the forward saved, which inputs need a
gradient, the inputs' shapes) and the gradient of the output, and returns one gradient per input, of that
input's shape. The forward function and the node class are in the ``ops/`` module named above each rule;
``RULES``, at the end, tells ``rules/__init__.py`` which node each rule belongs to.

第 1 章的反向传播规则：``* + - /``、幂、``exp``、``log``、``sqrt``、``tanh``（第 1.4–1.8 步），以及 ``abs`` 和
``clamp`` 在尖点处的导数（挑战 C1）。

每条规则都是一个节点的 ``backward``：它接收节点（``self``：前向保存的值、哪些输入需要梯度、各输入的形状）和输出的
梯度，为每个输入返回一个与该输入形状相同的梯度。前向函数和节点类在每条规则上方注明的 ``ops/`` 模块里；文件末尾的
``RULES`` 告诉 ``rules/__init__.py`` 每条规则属于哪个节点。
"""
import numpy as np

from ..ops import pointwise
from ..ops._operands import dispatch
from ..ops.arithmetic import AddBackward0, DivBackward0, MulBackward0, SubBackward0
from ..ops.pointwise import AbsBackward0, ClampBackward1, ExpBackward0, LogBackward0, SqrtBackward0, TanhBackward0, sign
from ..ops.powers import PowBackward0, PowBackward1, power, zeros_where
from ..shape import sum_to


# MulBackward0 (ops/arithmetic.py): out = self * other, element by element (the shapes broadcast together).
def mul_backward(self, grad):
    """``(grad_self, grad_other)`` for ``grad`` of out's shape: each of its input's shape, or None for an
    input that needs no gradient (``needs_input_grad``). With self = [1, 2], other = [3, 4] and
    grad = [1, -2]: ([3, -8], [1, -4]).

    对形状与 out 相同的 ``grad``，返回 ``(grad_self, grad_other)``：各自是对应输入的形状；不需要梯度的输入
    （``needs_input_grad``）得到 None。self = [1, 2]、other = [3, 4]、grad = [1, -2] 时：([3, -8], [1, -4])。
    """
    other, self_ = self.saved_tensors  # each kept only if the other input needs a gradient
    need_self, need_other = self.needs_input_grad
    raise NotImplementedError("step 1.4: your code goes here (see the chapter's exercise) / 第 1.4 步：在这里写你的代码（见本章的练习）")


# AddBackward0 (ops/arithmetic.py): out = self + alpha * other, element by element (alpha: 1 unless given).
def add_backward(self, grad):
    """``(grad_self, grad_other)``, each of its input's shape or None, as for ``*``. With self of shape
    (2, 3), other of shape (3,), alpha = 2 and grad = ones (2, 3): (ones (2, 3), [4, 4, 4]).

    ``(grad_self, grad_other)``，与 ``*`` 一样各自是对应输入的形状或 None。self 形状为 (2, 3)、other 形状为
    (3,)、alpha = 2、grad 为全 1 的 (2, 3) 时：(全 1 的 (2, 3), [4, 4, 4])。
    """
    raise NotImplementedError("step 1.5: your code goes here (see the chapter's exercise) / 第 1.5 步：在这里写你的代码（见本章的练习）")


# SubBackward0 (ops/arithmetic.py): out = self - alpha * other, element by element (alpha: 1 unless given).
def sub_backward(self, grad):
    """``(grad_self, grad_other)``, each of its input's shape or None, as for ``*``. With self and
    other of shape (2,), alpha = 3 and grad = [1, 2]: ([1, 2], [-3, -6]).

    ``(grad_self, grad_other)``，与 ``*`` 一样各自是对应输入的形状或 None。self 和 other 形状为 (2,)、
    alpha = 3、grad = [1, 2] 时：([1, 2], [-3, -6])。
    """
    raise NotImplementedError("step 1.5: your code goes here (see the chapter's exercise) / 第 1.5 步：在这里写你的代码（见本章的练习）")


# DivBackward0 (ops/arithmetic.py): out = self / other, element by element (the shapes broadcast together).
def div_backward(self, grad):
    """``(grad_self, grad_other)``, each of its input's shape or None, as for ``*``. With self = [3],
    other = [2] and grad = [1]: ([0.5], [-0.75]).

    ``(grad_self, grad_other)``，与 ``*`` 一样各自是对应输入的形状或 None。self = [3]、other = [2]、
    grad = [1] 时：([0.5], [-0.75])。
    """
    raise NotImplementedError("step 1.6: your code goes here (see the chapter's exercise) / 第 1.6 步：在这里写你的代码（见本章的练习）")


# PowBackward0 (ops/powers.py): out = self ** exponent, ``exponent`` a Python number.
def pow_backward(self, grad):
    """The gradient for ``self``, of its shape. With self = [2, 3], exponent = 3 and grad = [1, 1]:
    [12, 27]. With exponent 0 it is 0 everywhere, as in PyTorch, even where self is 0.

    ``self`` 的梯度，形状与它相同。self = [2, 3]、exponent = 3、grad = [1, 1] 时：[12, 27]。
    exponent 为 0 时处处为 0（与 PyTorch 相同），self 为 0 的地方也是。
    """
    raise NotImplementedError("step 1.7: your code goes here (see the chapter's exercise) / 第 1.7 步：在这里写你的代码（见本章的练习）")


# PowBackward1 (ops/powers.py): out = self ** exponent, both tensors (the shapes broadcast together).
def pow_tensor_backward(self, grad):
    """``(grad_self, grad_exponent)``, each of its input's shape or None. With self = [2],
    exponent = [3] and grad = [1]: ([12], [5.5452]) (8 times log 2). Where the function is flat
    but a formula would say 0 * inf (self 0 with exponent 0; exponent's gradient where self is 0
    and exponent >= 0) the gradient is 0, as in PyTorch.

    ``(grad_self, grad_exponent)``，各自是对应输入的形状或 None。self = [2]、exponent = [3]、grad = [1] 时：
    ([12], [5.5452])（即 8 乘以 log 2）。函数平坦、公式却会得出 0 * inf 的地方（self 为 0 且 exponent 为 0；
    self 为 0 且 exponent >= 0 处 exponent 的梯度），梯度为 0，与 PyTorch 相同。
    """
    raise NotImplementedError("step 1.7: your code goes here (see the chapter's exercise) / 第 1.7 步：在这里写你的代码（见本章的练习）")


# ExpBackward0 (ops/pointwise.py): out = exp(self), element by element; the node keeps the result.
def exp_backward(self, grad):
    """The gradient for ``self``, of its shape. With self = [0, 1] and grad = [2, 1]: [2, 2.7183].

    ``self`` 的梯度，形状与它相同。self = [0, 1]、grad = [2, 1] 时：[2, 2.7183]。
    """
    (result,) = self.saved_tensors
    raise NotImplementedError("step 1.8: your code goes here (see the chapter's exercise) / 第 1.8 步：在这里写你的代码（见本章的练习）")


# LogBackward0 (ops/pointwise.py): out = log(self), the natural logarithm; the node keeps the input.
def log_backward(self, grad):
    """The gradient for ``self``, of its shape. With self = [1, 4] and grad = [1, 2]: [1, 0.5].

    ``self`` 的梯度，形状与它相同。self = [1, 4]、grad = [1, 2] 时：[1, 0.5]。
    """
    (self_,) = self.saved_tensors
    raise NotImplementedError("step 1.8: your code goes here (see the chapter's exercise) / 第 1.8 步：在这里写你的代码（见本章的练习）")


# SqrtBackward0 (ops/pointwise.py): out = sqrt(self), element by element; the node keeps the result.
def sqrt_backward(self, grad):
    """The gradient for ``self``, of its shape, from the saved result. With self = [4, 9] (result
    [2, 3]) and grad = [1, 1]: [0.25, 0.1667].

    ``self`` 的梯度，形状与它相同，由保存的结果求出。self = [4, 9]（结果为 [2, 3]）、grad = [1, 1] 时：
    [0.25, 0.1667]。
    """
    (result,) = self.saved_tensors
    raise NotImplementedError("step 1.8: your code goes here (see the chapter's exercise) / 第 1.8 步：在这里写你的代码（见本章的练习）")


# TanhBackward0 (ops/pointwise.py): out = tanh(self), element by element; the node keeps the result.
def tanh_backward(self, grad):
    """The gradient for ``self``, of its shape, from the saved result. With self = [0, 0.5493]
    (result [0, 0.5]) and grad = [1, 1]: [1, 0.75].

    ``self`` 的梯度，形状与它相同，由保存的结果求出。self = [0, 0.5493]（结果为 [0, 0.5]）、
    grad = [1, 1] 时：[1, 0.75]。
    """
    (result,) = self.saved_tensors
    raise NotImplementedError("step 1.8: your code goes here (see the chapter's exercise) / 第 1.8 步：在这里写你的代码（见本章的练习）")


# AbsBackward0 (ops/pointwise.py): out = |self|, element by element; the node keeps the input.
def abs_backward(self, grad):
    """The gradient for ``self``, of its shape; at the kink (self = 0) it is 0, as in PyTorch. With
    self = [-2, 0, 3] and grad = [1, 1, 1]: [-1, 0, 1].

    ``self`` 的梯度，形状与它相同；在尖点（self = 0）处为 0，与 PyTorch 相同。self = [-2, 0, 3]、
    grad = [1, 1, 1] 时：[-1, 0, 1]。
    """
    (self_,) = self.saved_tensors
    raise NotImplementedError("step C1: your code goes here (see the chapter's exercise) / 第 C1 步：在这里写你的代码（见本章的练习）")


# ClampBackward1 (ops/pointwise.py): out = self limited to [min, max] (a bound not given is None); the node
# keeps the bounds and the input.
def clamp_backward(self, grad):
    """The gradient for ``self``, of its shape. With self = [-1, 0, 0.5, 2], min = 0, max = 1 and
    grad = [1, 1, 1, 1]: [0, 1, 1, 0] (a value on a bound counts as inside, as in PyTorch).

    ``self`` 的梯度，形状与它相同。self = [-1, 0, 0.5, 2]、min = 0、max = 1、grad = [1, 1, 1, 1] 时：
    [0, 1, 1, 0]（恰在界限上的值算作在界限之内，与 PyTorch 相同）。
    """
    low, high, self_ = self.saved_tensors  # a bound not given is None
    raise NotImplementedError("step C1: your code goes here (see the chapter's exercise) / 第 C1 步：在这里写你的代码（见本章的练习）")


# Which node's method each rule is: ``rules/__init__.py`` sets them.
RULES = {
    (MulBackward0, "backward"): mul_backward,
    (AddBackward0, "backward"): add_backward,
    (SubBackward0, "backward"): sub_backward,
    (DivBackward0, "backward"): div_backward,
    (PowBackward0, "backward"): pow_backward,
    (PowBackward1, "backward"): pow_tensor_backward,
    (ExpBackward0, "backward"): exp_backward,
    (LogBackward0, "backward"): log_backward,
    (SqrtBackward0, "backward"): sqrt_backward,
    (TanhBackward0, "backward"): tanh_backward,
    (AbsBackward0, "backward"): abs_backward,
    (ClampBackward1, "backward"): clamp_backward,
}
