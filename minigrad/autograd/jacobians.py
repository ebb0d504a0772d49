"""A whole Jacobian, one product at a time: exercises 4.6 (rows) and 4.7 (columns); dual numbers (C4).

Autograd never builds J, but it can give any row or any column of it. A backward pass
seeded with the one-hot vector e_i returns e_iᵀ·J, row i; a forward pass with the tangent
e_j returns J·e_j, column j. So m backward passes or n forward passes give the whole
m × n matrix: reverse mode wins when there are few outputs, forward mode when there are
few inputs. Both return J in PyTorch's layout (``torch.autograd.functional.jacobian``):
the output's shape, then the input's, so ``J[i..., j...]`` is d y[i...] / d x[j...].

``torch.autograd.functional.jacobian`` (``functional.py``) does the same for tuples of
inputs and outputs, with its options; these two keep to one tensor in, one tensor out.

Dual numbers, at the end, are forward mode in a few lines (chapter 4's optional challenge C4).

A dual number ``Dual(value, tangent)`` stands for ``value + tangent·ε`` with ``ε² = 0``:
multiplying two of them drops the ε² term, which leaves exactly the product rule. So
evaluating a function on ``Dual(x, t)`` gives ``Dual(f(x), J·t)``, the same Jacobian-vector
product that ``forward_ad`` computes for tensors. Values and tangents are numbers or numpy
arrays.
"""
import numpy as np

from ..creation import zeros_like
from ..ops.joining import stack
from . import forward_ad, grad


def jacobian_reverse(f, x):
    """The Jacobian of ``f`` at ``x``, row by row: one vector-Jacobian product per element of ``f(x)``.

    ``x`` and its ``.grad`` are left as they were, and the result carries no history.

    ``f`` 在 ``x`` 处的雅可比矩阵，逐行求出：``f(x)`` 的每个元素做一次向量-雅可比积。
    ``x`` 和它的 ``.grad`` 保持原样，结果不带计算历史。
    """
    raise NotImplementedError("step 4.6: your code goes here (see the chapter's exercise) / 第 4.6 步：在这里写你的代码（见本章的练习）")


def jacobian_forward(f, x):
    """The Jacobian of ``f`` at ``x``, column by column: one Jacobian-vector product per element of ``x``.

    ``x`` is left as it was, and the result carries no history.

    ``f`` 在 ``x`` 处的雅可比矩阵，逐列求出：``x`` 的每个元素做一次雅可比-向量积。
    ``x`` 保持原样，结果不带计算历史。
    """
    raise NotImplementedError("step 4.7: your code goes here (see the chapter's exercise) / 第 4.7 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- dual numbers (challenge C4)


class Dual:
    """A value and its tangent (how fast the value moves)."""

    __slots__ = ("value", "tangent")

    def __init__(self, value, tangent=0.0):
        self.value, self.tangent = value, tangent

    def __repr__(self):
        return f"Dual({self.value!r}, {self.tangent!r})"

    def __add__(self, other):
        """The value and the tangent of ``self + other``.

        ``self + other`` 的值和切向量。
        """
        other = as_dual(other)
        raise NotImplementedError("step C4: your code goes here (see the chapter's exercise) / 第 C4 步：在这里写你的代码（见本章的练习）")

    __radd__ = __add__

    def __mul__(self, other):
        """The value and the tangent of ``self * other``.

        ``self * other`` 的值和切向量。
        """
        other = as_dual(other)
        raise NotImplementedError("step C4: your code goes here (see the chapter's exercise) / 第 C4 步：在这里写你的代码（见本章的练习）")

    __rmul__ = __mul__

    def sin(self):
        """The value and the tangent of ``sin(self)``.

        ``sin(self)`` 的值和切向量。
        """
        raise NotImplementedError("step C4: your code goes here (see the chapter's exercise) / 第 C4 步：在这里写你的代码（见本章的练习）")

    def exp(self):
        """The value and the tangent of ``exp(self)``.

        ``exp(self)`` 的值和切向量。
        """
        raise NotImplementedError("step C4: your code goes here (see the chapter's exercise) / 第 C4 步：在这里写你的代码（见本章的练习）")


def as_dual(x):
    """A plain number is a constant: its tangent is 0."""
    return x if isinstance(x, Dual) else Dual(x, 0.0)
