"""``%`` and ``//``: the remainder and the floored quotient, as PyTorch computes them
(the sign of the remainder follows the divisor, as in Python).

Only ``tensor % other`` has a derivative in PyTorch: ``d(a % b)/da = 1`` and, for a
tensor ``b``, ``d(a % b)/db = -floor(a / b)``, where both are defined. ``//``, and a number ``% tensor``,
record a node that refuses backward with PyTorch's words, so that the graph still says
the result was computed from a tensor that requires grad.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor
from ._operands import compute, promoted


class RemainderBackward0(Node):
    """``tensor % number``: the remainder moves one for one with the tensor."""

    __slots__ = ()

    def backward(self, grad):
        return grad


class RemainderBackward1(Node):
    """``tensor % tensor``. The engine sums broadcast gradients back to each input's shape."""

    __slots__ = ()
    saved_names = ("self", "other")

    def __init__(self, input, other):
        self._saved = (SavedTensor(input), SavedTensor(other))

    def backward(self, grad):
        self_, other = self.saved_tensors
        needs = self.needs_input_grad
        quotient = self_ / other
        floored = np.floor(getattr(quotient, "_array", quotient))  # a constant: floor's derivative is 0
        return (grad if needs[0] else None), (-grad * floored if needs[1] else None)


class NotImplemented(Node):  # noqa: A001 - PyTorch's own name for a node with no derivative
    __slots__ = ("op",)

    def __init__(self, op):
        self._saved = ()
        self.op = op

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")


@public("remainder", methods="remainder __mod__")
def remainder(input, other):
    x, y = promoted(input, other)
    out = Tensor._wrap(compute(np.remainder, x, y))
    if isinstance(other, Tensor):
        return recorded(out, (input, other), RemainderBackward1, input, other)
    return recorded(out, (input,), RemainderBackward0)


@public(methods="__rmod__")
def rremainder(input, other):
    """``other % input`` for a number ``other``: no derivative in PyTorch."""
    return _without_derivative(np.remainder, "remainder", other, input)


@public("floor_divide", methods="floor_divide __floordiv__")
def floor_divide(input, other):
    return _without_derivative(np.floor_divide, "floor_divide", input, other)


@public(methods="__rfloordiv__")
def rfloor_divide(input, other):
    return _without_derivative(np.floor_divide, "floor_divide", other, input)


def _without_derivative(numpy_fn, op, a, b):
    return recorded(Tensor._wrap(compute(numpy_fn, *promoted(a, b))), (a, b), NotImplemented, op)


# ---------------------------------------------------------------- div(..., rounding_mode=...)


class DivBackward2(Node):
    """Rounded division is a step function: its gradient is zero almost everywhere."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("rounding_mode",)

    def __init__(self, rounding_mode, x, y):
        self._saved = (rounding_mode,)
        self.self_shape, self.other_shape = x.shape, y.shape

    def backward(self, grad):
        return sum_to(grad * 0, self.self_shape), sum_to(grad * 0, self.other_shape)


_ROUNDINGS = {"floor": np.floor, "trunc": np.trunc}


def rounded_div(input, other, rounding_mode):
    """``div(..., rounding_mode="floor" | "trunc")``: the quotient rounded, in the operands' dtype."""
    if rounding_mode not in _ROUNDINGS:
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
        )
    x, y = promoted(input, other)
    dtype = np.result_type(x, y)
    out = Tensor._wrap(_ROUNDINGS[rounding_mode](compute(np.true_divide, x, y)).astype(dtype, copy=False))
    if dtype.kind != "f":  # an integer result has no gradient
        return out
    return recorded(out, (input, other), DivBackward2, rounding_mode, x, y)
