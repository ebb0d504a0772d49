"""``+ - * / **`` and negation, each with its backward node.

Each node's ``backward`` is the local chain rule: the gradient of the output times
the derivative of the output with respect to each input. Broadcasting made an input
count several times, so its gradient is summed back to its shape (``sum_to``).
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..shape import sum_to
from ..tensor import Tensor
from ._operands import promoted


def _saved(x):
    """What a node keeps of an operand: a SavedTensor for a tensor, a number as it is."""
    return SavedTensor(x) if isinstance(x, Tensor) else x


def _shape(x):
    return x.shape if type(x) is np.ndarray else ()


class AddBackward0(Node):
    """out = self + alpha * other."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        return sum_to(grad, self.self_shape), sum_to(grad if alpha == 1 else grad * alpha, self.other_shape)


class SubBackward0(Node):
    """out = self - alpha * other."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        return sum_to(grad, self.self_shape), sum_to(-grad if alpha == 1 else grad * -alpha, self.other_shape)


class RsubBackward1(Node):
    """out = other - alpha * self, for ``2 - x`` where only ``x`` is a tensor."""

    saved_names = ("alpha",)

    def backward(self, grad):
        (alpha,) = self._saved
        return -grad if alpha == 1 else grad * -alpha


class MulBackward0(Node):
    """out = self * other: d(out)/d(self) = other, d(out)/d(other) = self."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def backward(self, grad):
        self_, other = self.saved_tensors  # each kept only if the other input needs a gradient
        need_self, need_other = self.needs_input_grad
        raise NotImplementedError("step 1.4: your code goes here (see the chapter's exercise)")


class DivBackward0(Node):
    """out = self / other: d/d(self) = 1 / other, d/d(other) = -self / other**2."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def backward(self, grad):
        self_, other = self.saved_tensors
        return sum_to(grad / other, self.self_shape), sum_to(-grad * self_ / (other * other), self.other_shape)


class NegBackward0(Node):
    def backward(self, grad):
        return -grad


class ReciprocalBackward0(Node):
    """out = 1 / self: d(out)/d(self) = -out**2."""

    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return -grad * result * result


class PowBackward0(Node):
    """out = self ** exponent (a number): d/d(self) = exponent * self ** (exponent - 1)."""

    saved_names = ("self", "exponent")

    def backward(self, grad):
        self_, exponent = self.saved_tensors
        if exponent == 0:
            return grad * 0
        return grad * exponent * self_ ** (exponent - 1)


class PowBackward1(Node):
    """out = self ** exponent, both tensors: d/d(exponent) = out * log(self)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "exponent", "result")

    def backward(self, grad):
        self_, exponent, result = self.saved_tensors
        from .pointwise import log

        log_self = np.log(self_) if isinstance(self_, (np.ndarray, np.generic)) else log(self_)
        return (
            sum_to(grad * exponent * self_ ** (exponent - 1), self.self_shape),
            sum_to(grad * result * log_self, self.other_shape),
        )


class PowBackward2(Node):
    """out = self ** exponent, ``self`` a number: d/d(exponent) = out * log(self)."""

    saved_names = ("self", "result")

    def backward(self, grad):
        self_, result = self.saved_tensors
        return grad * result * float(np.log(self_))


def _binary(node_type, input, other, value, x, y, *saved):
    """Wrap ``value`` as the result and, when gradients flow, record ``node_type``."""
    out = Tensor._wrap(value)
    if should_record(input, other):
        node = node_type(*saved)
        node.self_shape, node.other_shape = _shape(x), _shape(y)
        record(out, node, input, other)
    return out


def add(input, other, *, alpha=1):
    x, y = promoted(input, other)
    return _binary(AddBackward0, input, other, x + y if alpha == 1 else x + alpha * y, x, y, alpha)


def sub(input, other, *, alpha=1):
    x, y = promoted(input, other)
    return _binary(SubBackward0, input, other, x - y if alpha == 1 else x - alpha * y, x, y, alpha)


def mul(input, other):
    x, y = promoted(input, other)
    saved_self = _saved(input) if getattr(other, "requires_grad", False) else None
    saved_other = _saved(other) if getattr(input, "requires_grad", False) else None
    return _binary(MulBackward0, input, other, x * y, x, y, saved_self, saved_other)


def div(input, other, *, rounding_mode=None):
    x, y = promoted(input, other)
    if np.result_type(x, y).kind != "f" and rounding_mode is None:
        x = np.asarray(x, dtype=np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = x / y
    if rounding_mode == "floor":
        return Tensor._wrap(np.floor(value).astype(np.result_type(x, y)))
    if rounding_mode == "trunc":
        return Tensor._wrap(np.trunc(value).astype(np.result_type(x, y)))
    return _binary(DivBackward0, input, other, value, x, y, _saved(input), _saved(other))


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` where ``other`` is a number (``2 - x``)."""
    x, y = promoted(input, other)
    out = Tensor._wrap(y - x if alpha == 1 else y - alpha * x)
    if should_record(input):
        record(out, RsubBackward1(alpha), input)
    return out


def neg(input):
    out = Tensor._wrap(-input._array)
    if should_record(input):
        record(out, NegBackward0(), input)
    return out


def reciprocal(input):
    x = input._array if input._array.dtype.kind == "f" else input._array.astype(np.float32)
    with np.errstate(divide="ignore"):
        out = Tensor._wrap(1 / x)
    if should_record(input):
        record(out, ReciprocalBackward0(SavedTensor(out, is_output=True)), input)
    return out


def pow(input, exponent):
    if isinstance(exponent, Tensor) and isinstance(input, Tensor):
        return _pow_tensors(input, exponent)
    if isinstance(exponent, Tensor):
        return _pow_number_base(input, exponent)
    x, e = promoted(input, exponent)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = Tensor._wrap(x**e)
    if should_record(input):
        record(out, PowBackward0(SavedTensor(input), exponent), input)
    return out


def _pow_tensors(input, exponent):
    x, y = promoted(input, exponent)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = Tensor._wrap(x**y)
    if should_record(input, exponent):
        node = PowBackward1(SavedTensor(input), SavedTensor(exponent), SavedTensor(out, is_output=True))
        node.self_shape, node.other_shape = x.shape, y.shape
        record(out, node, input, exponent)
    return out


def _pow_number_base(base, exponent):
    x, y = promoted(base, exponent)
    out = Tensor._wrap(x**y)
    if should_record(exponent):
        record(out, PowBackward2(base, SavedTensor(out, is_output=True)), exponent)
    return out


# The reflected forms: ``2 * x`` is ``x * 2``; ``1 / x`` is ``reciprocal(x) * 1``, as in PyTorch.
def radd(self, other):
    return add(self, other)


def rmul(self, other):
    return mul(self, other)


def rtruediv(self, other):
    return mul(reciprocal(self), other)


def rpow(self, other):
    return pow(other, self)
