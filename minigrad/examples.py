"""Custom Functions the course's chapters use, each written from its maths (chapter 5).

``LegendrePolynomial3`` is PyTorch's own tutorial example: the Legendre polynomial of
degree three, P3(x) = (5x³ − 3x) / 2. Written as a Function, it records one node, whose
backward is its derivative, worked out by hand.

``MaxWithIndex`` returns the largest element and where it is: the index is marked
non-differentiable, and the backward, which writes into a tensor of zeros, is marked
``@once_differentiable``.

``Hypot``, the length √(x² + y²), is the chapter's optional challenge: a Function with
both a backward rule (reverse mode) and a ``jvp`` rule (forward mode, ``forward_ad``).
"""
from .autograd.function import Function, once_differentiable
from .creation import zeros


class LegendrePolynomial3(Function):
    """P3(x) = (5x³ − 3x) / 2, elementwise, with its derivative as the backward rule."""

    @staticmethod
    def forward(ctx, input):
        """P3 of each element of ``input``; keeps what backward needs on ``ctx``.

        对 ``input`` 的每个元素求 P3；把反向传播需要的东西留在 ``ctx`` 上。
        """
        raise NotImplementedError("step 5.4: your code goes here (see the chapter's exercise) / 第 5.4 步：在这里写你的代码（见本章的练习）")

    @staticmethod
    def backward(ctx, grad_output):
        """The gradient for ``input``: ``grad_output`` times P3' at each element (the chain rule).

        ``input`` 的梯度：``grad_output`` 乘以每个元素处的 P3'（链式法则）。
        """
        raise NotImplementedError("step 5.4: your code goes here (see the chapter's exercise) / 第 5.4 步：在这里写你的代码（见本章的练习）")


class MaxWithIndex(Function):
    """The largest element of ``input`` and its index in the flattened input (the first, on ties)."""

    @staticmethod
    def forward(ctx, input):
        """``(largest element, its index)``; the index takes no part in differentiation.

        返回 ``(最大元素, 它的索引)``；索引不参与求导。
        """
        raise NotImplementedError("step 5.7: your code goes here (see the chapter's exercise) / 第 5.7 步：在这里写你的代码（见本章的练习）")

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_value, grad_index):
        """The gradient for ``input``: ``grad_value`` at the largest element, zeros elsewhere.

        ``input`` 的梯度：最大元素处为 ``grad_value``，其他位置为零。
        """
        raise NotImplementedError("step 5.7: your code goes here (see the chapter's exercise) / 第 5.7 步：在这里写你的代码（见本章的练习）")


class Hypot(Function):
    """The length r = √(x² + y²), elementwise, in both modes: backward (reverse) and jvp (forward).

    The challenge of chapter 5. With x = 3 and y = 4 (r = 5): a gradient 1 of r gives (0.6, 0.8),
    and the tangents (1, 0) of the inputs give the tangent 0.6 of r.
    """

    @staticmethod
    def forward(ctx, x, y):
        """√(x² + y²); keeps what backward and jvp need, each on its own side of ``ctx``.

        计算 √(x² + y²)；把 backward 和 jvp 需要的东西分别留在 ``ctx`` 上。
        """
        raise NotImplementedError("step C5: your code goes here (see the chapter's exercise) / 第 C5 步：在这里写你的代码（见本章的练习）")

    @staticmethod
    def backward(ctx, grad_output):
        """One gradient per argument: ``grad_output`` times ∂r/∂x, then times ∂r/∂y.

        每个参数一个梯度：``grad_output`` 乘以 ∂r/∂x，再是乘以 ∂r/∂y。
        """
        raise NotImplementedError("step C5: your code goes here (see the chapter's exercise) / 第 C5 步：在这里写你的代码（见本章的练习）")

    @staticmethod
    def jvp(ctx, x_tangent, y_tangent):
        """The tangent of r, from the tangents of x and y (zeros for an input that has none).

        由 x 和 y 的切向量（tangent）得到 r 的切向量（没有切向量的输入给的是全零）。
        """
        raise NotImplementedError("step C5: your code goes here (see the chapter's exercise) / 第 C5 步：在这里写你的代码（见本章的练习）")
