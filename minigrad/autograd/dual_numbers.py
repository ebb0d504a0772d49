"""Dual numbers: forward mode in a few lines, for chapter 4's optional challenge C4.

A dual number ``Dual(value, tangent)`` stands for ``value + tangent·ε`` with ``ε² = 0``:
multiplying two of them drops the ε² term, which leaves exactly the product rule. So
evaluating a function on ``Dual(x, t)`` gives ``Dual(f(x), J·t)``, the same Jacobian-vector
product that ``forward_ad`` computes for tensors. Values and tangents are numbers or numpy
arrays.
"""
import numpy as np


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
