"""``**``: a tensor to a number, to a tensor, or a number to a tensor, each with its backward node.

As in ``arithmetic.py``, a node's ``backward`` is the local chain rule, summed back to each
input's shape where broadcasting made it count several times.
"""
import operator

import numpy as np

from ..autograd.graph import Node, record, should_record
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor
from . import pointwise
from ._operands import compute, dispatch, promoted


class PowBackward0(Node):
    """out = self ** exponent (a number): d/d(self) = exponent * self ** (exponent - 1)."""

    __slots__ = ()
    saved_names = ("self", "exponent")

    def backward(self, grad):
        self_, exponent = self.saved_tensors
        if exponent == 0:
            return grad * 0
        lowered = dispatch(self_, lambda a: _power(a, exponent - 1), lambda t: t ** (exponent - 1))
        return grad * (exponent * lowered)  # grouped as PyTorch groups it: the same roundings

    def jvp(self, tangent):
        """Forward mode: d(x ** n) = n x ** (n - 1) dx, and 0 for n = 0 (even where x is 0).

        前向模式：d(x ** n) = n x ** (n - 1) dx；n = 0 时为 0（x 为 0 的地方也是）。
        """
        self_, exponent = self.saved_tensors
        # BEGIN SOLUTION 4.5
        if exponent == 0:
            return tangent * 0
        return tangent * (exponent * _power(self_, exponent - 1))
        # END SOLUTION


class PowBackward1(Node):
    """out = self ** exponent, both tensors: d/d(exponent) = out * log(self)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "exponent", "result")

    def backward(self, grad):
        self_, exponent, result = self.saved_tensors
        need_self, need_exponent = self.needs_input_grad
        grad_self = sum_to(grad * exponent * self_ ** (exponent - 1), self.self_shape) if need_self else None
        grad_exponent = None
        if need_exponent:
            log_self = dispatch(self_, np.log, pointwise.log)
            grad_exponent = sum_to(grad * result * log_self, self.other_shape)
        return grad_self, grad_exponent


class PowBackward2(Node):
    """out = self ** exponent, ``self`` a number: d/d(exponent) = out * log(self)."""

    __slots__ = ()
    saved_names = ("self", "exponent", "result")  # the exponent is not needed, but PyTorch keeps it

    def backward(self, grad):
        self_, _, result = self.saved_tensors
        return grad * result * float(np.log(self_))


# The powers PyTorch computes by multiplying, or with a square root, rather than with a
# general power: each rounds differently, so ``x ** 3`` is ``x * x * x`` here too.
_SPECIAL_POWERS = {
    2: lambda x: x * x,
    3: lambda x: x * x * x,
    -1: lambda x: 1 / x,
    -2: lambda x: 1 / (x * x),
    -0.5: lambda x: 1 / np.sqrt(x),
}


def _power(array, exponent):
    """``array ** exponent`` for a float array and a Python number, rounded as PyTorch rounds it."""
    special = _SPECIAL_POWERS.get(exponent)
    return special(array) if special is not None else array ** np.asarray(exponent, array.dtype)


@public("pow", methods="pow __pow__")
def pow(input, exponent):  # noqa: A001 - PyTorch's name
    """``input ** exponent``: a tensor to a number, a tensor, or a number to a tensor."""
    x, e = promoted(input, exponent)
    if isinstance(exponent, Tensor) and e.dtype.kind == "b":
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    if type(exponent) in (int, float) and x.dtype.kind == "f":
        out = Tensor._wrap(_power(x, exponent))
    else:
        out = Tensor._wrap(compute(operator.pow, x, e))
    if not isinstance(input, Tensor):
        if should_record(exponent):
            record(out, PowBackward2(input, SavedTensor(exponent), SavedTensor(out, is_output=True)), exponent)
    elif isinstance(exponent, Tensor):
        if should_record(input, exponent):
            node = PowBackward1(SavedTensor(input), SavedTensor(exponent), SavedTensor(out, is_output=True))
            node.self_shape, node.other_shape = x.shape, e.shape
            record(out, node, input, exponent)
    elif should_record(input):
        record(out, PowBackward0(SavedTensor(input), exponent), input)
    return out


@public("square", methods="square")
def square(input):
    """``x * x``, recorded as PyTorch records it: ``pow(x, 2)`` (``PowBackward0``)."""
    return pow(input, 2)


# ``2 ** x``: the reflected form.
@public(methods="__rpow__")
def rpow(self, other):
    return pow(other, self)
