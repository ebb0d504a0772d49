"""Element-wise functions (exp, log, relu, sigmoid, ...) and their backward nodes.

A node saves either its input (``_saved_self``) or its result (``_saved_result``),
whichever its derivative is cheapest to write with: d exp(x) = exp(x), so
``ExpBackward0`` keeps the result.
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..tensor import Tensor


def _float(x):
    """Integer inputs give float results, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(np.float32)


def _on(x, numpy_fn, tensor_fn):
    """Apply a function to an array or to a tensor (when backward itself is recorded)."""
    return numpy_fn(x) if isinstance(x, (np.ndarray, np.generic)) else tensor_fn(x)


def _unary(node_type, input, value, keep=None):
    """Wrap ``value`` and record ``node_type``, saving the input or the result if asked."""
    out = Tensor._wrap(value)
    if should_record(input):
        if keep == "self":
            node = node_type(SavedTensor(input))
        elif keep == "result":
            node = node_type(SavedTensor(out, is_output=True))
        else:
            node = node_type()
        record(out, node, input)
    return out


class ExpBackward0(Node):
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad * result


class LogBackward0(Node):
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad / self_


class SqrtBackward0(Node):
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad / (2 * result)


class AbsBackward0(Node):
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * _on(self_, np.sign, sign)


class ReluBackward0(Node):
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad * (result > 0)


class SigmoidBackward0(Node):
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad * result * (1 - result)


class TanhBackward0(Node):
    saved_names = ("result",)

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad * (1 - result * result)


class SinBackward0(Node):
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * _on(self_, np.cos, cos)


class CosBackward0(Node):
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * -_on(self_, np.sin, sin)


class CloneBackward0(Node):
    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    """A dtype change: the gradient goes back in the input's dtype (the engine casts it)."""

    def backward(self, grad):
        return grad


class ClampBackward1(Node):
    __slots__ = ("low", "high")
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        inside = (self_ >= self.low) * (self_ <= self.high)
        return grad * inside


def exp(input):
    return _unary(ExpBackward0, input, np.exp(_float(input._array)), "result")


def log(input):
    with np.errstate(divide="ignore", invalid="ignore"):
        return _unary(LogBackward0, input, np.log(_float(input._array)), "self")


def sqrt(input):
    with np.errstate(invalid="ignore"):
        return _unary(SqrtBackward0, input, np.sqrt(_float(input._array)), "result")


def abs(input):  # noqa: A001 - PyTorch's name
    return _unary(AbsBackward0, input, np.abs(input._array), "self")


def sign(input):
    return Tensor._wrap(np.sign(input._array))


def relu(input):
    return _unary(ReluBackward0, input, np.maximum(input._array, 0, dtype=input._array.dtype), "result")


def sigmoid(input):
    """1 / (1 + exp(-x)), written with tanh so that no exp can overflow."""
    x = _float(input._array)
    return _unary(SigmoidBackward0, input, 0.5 + 0.5 * np.tanh(0.5 * x), "result")


def tanh(input):
    return _unary(TanhBackward0, input, np.tanh(_float(input._array)), "result")


def sin(input):
    return _unary(SinBackward0, input, np.sin(_float(input._array)), "self")


def cos(input):
    return _unary(CosBackward0, input, np.cos(_float(input._array)), "self")


def clone(input, *, memory_format=None):
    return _unary(CloneBackward0, input, input._array.copy())


def clamp(input, min=None, max=None):  # noqa: A002 - PyTorch's names
    low = -np.inf if min is None else min
    high = np.inf if max is None else max
    out = Tensor._wrap(np.clip(input._array, low, high).astype(input._array.dtype, copy=False))
    if should_record(input):
        node = ClampBackward1(SavedTensor(input))
        node.low, node.high = low, high
        record(out, node, input)
    return out


def to_dtype(input, dtype):
    """A copy in another dtype; gradients flow only between floating dtypes."""
    value = input._array.astype(dtype.numpy)
    if not dtype.is_floating_point:
        return Tensor._wrap(value)
    return _unary(ToCopyBackward0, input, value)
