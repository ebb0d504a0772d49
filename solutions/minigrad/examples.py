"""Custom Functions the course's chapters use, each written from its maths (chapter 5).

``LegendrePolynomial3`` is PyTorch's own tutorial example: the Legendre polynomial of
degree three, P3(x) = (5x³ − 3x) / 2, whose derivative is P3'(x) = (15x² − 3) / 2.
Written as a Function, it records one node, whose backward is that derivative.
"""
from .autograd.function import Function


class LegendrePolynomial3(Function):
    """P3(x) = (5x³ − 3x) / 2, elementwise, with its derivative as the backward rule."""

    @staticmethod
    def forward(ctx, input):
        """P3 of each element of ``input``; keeps what backward needs on ``ctx``.

        对 ``input`` 的每个元素求 P3；把反向传播需要的东西留在 ``ctx`` 上。
        """
        # BEGIN SOLUTION 5.4
        ctx.save_for_backward(input)
        return (5 * input ** 3 - 3 * input) / 2
        # END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        """The gradient for ``input``: ``grad_output`` times P3' at each element (the chain rule).

        ``input`` 的梯度：``grad_output`` 乘以每个元素处的 P3'（链式法则）。
        """
        # BEGIN SOLUTION 5.4
        input = ctx.saved_tensors[0]
        return grad_output * (15 * input ** 2 - 3) / 2
        # END SOLUTION
