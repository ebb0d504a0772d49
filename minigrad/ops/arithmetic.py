"""``+ - * / **`` and negation, each with its backward node.

Each node's ``backward`` is the local chain rule: the gradient of the output times
the derivative of the output with respect to each input. Broadcasting made an input
count several times, so its gradient is summed back to its shape (``sum_to``).

Node classes declare ``__slots__`` (their attributes, or none): a graph holds one node
per operation, and slots keep each node small and quick to make.
"""
import operator

import numpy as np

from ..autograd.graph import Node, record, should_record
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor
from . import pointwise
from ._operands import compute, dispatch, promoted, refuse_bool_subtraction, true_division_operands
from .division import rounded_div


class MulBackward0(Node):
    """out = self * other: d(out)/d(self) = other, d(out)/d(other) = self."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def backward(self, grad):
        self_, other = self.saved_tensors  # each kept only if the other input needs a gradient
        need_self, need_other = self.needs_input_grad
        raise NotImplementedError("step 1.4: your code goes here (see the chapter's exercise)")

    def jvp(self, tangent_self, tangent_other):
        """Forward mode: d(x y) = dx y + x dy (an input with no tangent contributes nothing)."""
        self_, other = self.saved_tensors
        out = 0
        if tangent_self is not None:
            out = out + tangent_self * other
        if tangent_other is not None:
            out = out + self_ * tangent_other
        return out


class AddBackward0(Node):
    """out = self + alpha * other."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        need_self, need_other = self.needs_input_grad
        grad_self = sum_to(grad, self.self_shape) if need_self else None
        grad_other = sum_to(grad if alpha == 1 else grad * alpha, self.other_shape) if need_other else None
        return grad_self, grad_other


class SubBackward0(Node):
    """out = self - alpha * other."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        need_self, need_other = self.needs_input_grad
        grad_self = sum_to(grad, self.self_shape) if need_self else None
        grad_other = sum_to(-grad if alpha == 1 else grad * -alpha, self.other_shape) if need_other else None
        return grad_self, grad_other


class RsubBackward1(Node):
    """out = other - alpha * self, for ``2 - x`` where only ``x`` is a tensor."""

    __slots__ = ()
    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        return -grad if alpha == 1 else grad * -alpha


class DivBackward0(Node):
    """out = self / other: d/d(self) = 1 / other, d/d(other) = -self / other**2."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def backward(self, grad):
        self_, other = self.saved_tensors
        need_self, need_other = self.needs_input_grad
        grad_self = sum_to(grad / other, self.self_shape) if need_self else None
        grad_other = sum_to(-grad * self_ / (other * other), self.other_shape) if need_other else None
        return grad_self, grad_other


class NegBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return -grad


class ReciprocalBackward0(Node):
    """out = 1 / self: d(out)/d(self) = -1 / self**2 = -out**2."""

    __slots__ = ()
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return -grad * result * result


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


_wrap = Tensor._wrap  # bound once: looking ``Tensor._wrap`` up makes a new bound method each time


def _requires_grad(x):
    return isinstance(x, Tensor) and x._requires_grad


def _saved(x, array):
    """What a node keeps of an operand (``array``: the operand as ``promoted`` made it): a
    SavedTensor, also for a Python number, which PyTorch wraps in a zero-dim tensor of its
    own type (``tensor(2)``, a float64 for ``2.5``); so backward frees it, and a second
    backward fails, as in PyTorch."""
    return SavedTensor(x) if isinstance(x, Tensor) else _saved_number(x, array)


_saved_number = SavedTensor.number  # bound once: ``SavedTensor.number`` makes a new bound method at each use


def _record(out, node, input, other, x, y):
    """Record a two-input node, with the shapes of the operands (``x`` and ``y``, from
    ``promoted``) that its backward sums broadcast gradients back to. (``add``, ``sub``
    and ``mul`` write these two lines out: one call less per operation.)"""
    node.self_shape, node.other_shape = x.shape, y.shape
    record(out, node, input, other)


@public("add", methods="add __add__ __radd__")
def add(input, other, *, alpha=1):
    x, y = promoted(input, other)
    out = _wrap(compute(operator.add, x, y if alpha == 1 else alpha * y))
    if should_record(input, other):
        node = AddBackward0(alpha)
        node.self_shape, node.other_shape = x.shape, y.shape
        record(out, node, input, other)
    return out


@public("sub subtract", methods="sub subtract __sub__")
def sub(input, other, *, alpha=1):
    x, y = promoted(input, other, refuse_bool_subtraction)
    out = _wrap(compute(operator.sub, x, y if alpha == 1 else alpha * y))
    if should_record(input, other):
        node = SubBackward0(alpha)
        node.self_shape, node.other_shape = x.shape, y.shape
        record(out, node, input, other)
    return out


@public("rsub", methods="__rsub__")
def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` where ``other`` is a number (``2 - x``)."""
    x, y = promoted(input, other, refuse_bool_subtraction)
    out = Tensor._wrap(y - x if alpha == 1 else y - alpha * x)
    if should_record(input):
        record(out, RsubBackward1(alpha), input)
    return out


@public("mul multiply", methods="mul multiply __mul__ __rmul__")
def mul(input, other):
    x, y = promoted(input, other)
    out = _wrap(compute(operator.mul, x, y))
    if should_record(input, other):
        # Each input is needed only for the gradient of the other one; PyTorch saves other first
        # (saved-tensor pack hooks see that order).
        saved_other = _saved(other, y) if isinstance(input, Tensor) and input._requires_grad else None
        saved_self = _saved(input, x) if isinstance(other, Tensor) and other._requires_grad else None
        node = MulBackward0(saved_self, saved_other)
        node.self_shape, node.other_shape = x.shape, y.shape
        record(out, node, input, other)
    return out


@public("div true_divide divide", methods="div divide true_divide __truediv__")
def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        return rounded_div(input, other, rounding_mode)
    x, y = true_division_operands(input, other)
    out = Tensor._wrap(compute(operator.truediv, x, y))
    if should_record(input, other):
        # self is needed only for the gradient of other; other for both gradients.
        saved_other = _saved(other, y)  # first, as PyTorch saves it
        saved_self = _saved(input, x) if _requires_grad(other) else None
        _record(out, DivBackward0(saved_self, saved_other), input, other, x, y)
    return out


@public("neg negative", methods="neg negative __neg__")
def neg(input):
    if input._array.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead."
        )
    out = Tensor._wrap(-input._array)
    if should_record(input):
        record(out, NegBackward0(), input)
    return out


@public("reciprocal", methods="reciprocal")
def reciprocal(input):
    x, one = true_division_operands(input, 1)
    out = Tensor._wrap(one / x)
    if should_record(input):
        record(out, ReciprocalBackward0(SavedTensor(out, is_output=True)), input)
    return out


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
            _record(out, node, input, exponent, x, e)
    elif should_record(input):
        record(out, PowBackward0(SavedTensor(input), exponent), input)
    return out


@public("square", methods="square")
def square(input):
    """``x * x``, recorded as PyTorch records it: ``pow(x, 2)`` (``PowBackward0``)."""
    return pow(input, 2)


# The reflected forms (``2 + x`` and ``2 * x`` are ``add`` and ``mul`` themselves):
# ``1 / x`` is ``reciprocal(x) * 1``, as in PyTorch.
@public(methods="__rtruediv__")
def rtruediv(self, other):
    return mul(reciprocal(self), other)


@public(methods="__rpow__")
def rpow(self, other):
    return pow(other, self)


@public(methods="__pos__")
def positive(input):
    """``+x`` is ``x`` itself, as in PyTorch."""
    return input
