"""Element-wise functions (exp, log, relu, sigmoid, ...) and their backward nodes.

A node saves either its input (``_saved_self``) or its result (``_saved_result``),
whichever its derivative is cheapest to write with: d exp(x) = exp(x), so
``ExpBackward0`` keeps the result.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, SavesInput, SavesResult, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from ._operands import dispatch, promoted


class ExpBackward0(SavesResult):
    """out = exp(self): d(out)/d(self) = exp(self), the result itself, which is what it saves."""

    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``exp(self)``: the result is its own derivative.

        ``exp(self)`` 的梯度：结果本身就是它的导数。
        """
        (result,) = self.saved_tensors
        # BEGIN SOLUTION 1.8
        return grad * result
        # END SOLUTION

    def jvp(self, tangent):
        """Forward mode: d exp(x) = exp(x) dx (``autograd/forward_ad.py`` calls this)."""
        (result,) = self.saved_tensors
        return tangent * result


class LogBackward0(SavesInput):
    """out = log(self): d(out)/d(self) = 1 / self, written with the input, which is what it saves."""

    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``log(self)``: the incoming gradient divided by the input.

        ``log(self)`` 的梯度：传入的梯度除以输入。
        """
        (self_,) = self.saved_tensors
        # BEGIN SOLUTION 1.8
        return grad / self_
        # END SOLUTION

    def jvp(self, tangent):
        (self_,) = self.saved_tensors
        return tangent / self_


class AbsBackward0(SavesInput):
    """out = |self|: the gradient keeps its sign where self > 0, flips it where self < 0, and
    is 0 at the kink, where PyTorch takes sign(0) = 0."""

    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``abs(self)``, 0 at 0 as in PyTorch.

        ``abs(self)`` 的梯度，在 0 处为 0，与 PyTorch 相同。
        """
        (self_,) = self.saved_tensors
        # BEGIN SOLUTION C1
        return grad * dispatch(self_, np.sign, sign)
        # END SOLUTION


class ClampBackward1(Node):
    """The gradient passes where the input was inside [min, max], bounds included."""

    __slots__ = ()
    saved_names = ("min", "max", "self")

    def __init__(self, min, max, input):
        self._saved = (min, max, SavedTensor(input))

    def backward(self, grad):
        """The gradient of ``clamp(self, min, max)``: it passes inside the bounds, which count as inside.

        ``clamp(self, min, max)`` 的梯度：在界限之内（包括界限本身）原样通过。
        """
        low, high, self_ = self.saved_tensors  # a bound not given is None
        # BEGIN SOLUTION C1
        inside = (self_ >= (-np.inf if low is None else low)) * (self_ <= (np.inf if high is None else high))
        return grad * inside
        # END SOLUTION


def _float(x):
    """Integer and bool inputs give results in the default float dtype, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(dtypes.get_default_dtype().numpy)


_wrap = Tensor._wrap  # bound once: looking ``Tensor._wrap`` up makes a new bound method each time


class SqrtBackward0(SavesResult):
    """out = sqrt(self): its derivative 1 / (2 sqrt(self)) is written with the result, which is what it saves."""

    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``sqrt(self)``, from the saved result ``sqrt(self)``.

        由保存的结果 ``sqrt(self)`` 求 ``sqrt(self)`` 的梯度。
        """
        (result,) = self.saved_tensors
        # BEGIN SOLUTION 1.8
        return grad / (2 * result)
        # END SOLUTION


class ReluBackward0(SavesResult):
    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``relu(x)`` for ``x``, from the saved result ``relu(x)``.

        由保存的结果 ``relu(x)`` 求 ``relu(x)`` 对 ``x`` 的梯度。
        """
        (result,) = self.saved_tensors
        # BEGIN SOLUTION 2.7
        # sign(result) is the mask result > 0 (relu's result is never negative); as a recorded
        # operation it keeps a double backward connected to the input, with derivative 0.
        return grad * dispatch(result, np.sign, sign)
        # END SOLUTION


class SignBackward0(Node):
    """A step function: its derivative is 0 wherever it is defined."""

    __slots__ = ()

    def backward(self, grad):
        return grad * 0


class SigmoidBackward0(SavesResult):
    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``sigmoid(x)`` for ``x``, from the saved result ``sigmoid(x)``.

        由保存的结果 ``sigmoid(x)`` 求 ``sigmoid(x)`` 对 ``x`` 的梯度。
        """
        (result,) = self.saved_tensors
        # BEGIN SOLUTION 2.7
        return grad * result * (1 - result)
        # END SOLUTION

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


class TanhBackward0(SavesResult):
    """out = tanh(self): its derivative 1 - tanh(self)² is written with the result, which is what it saves."""

    __slots__ = ()

    def backward(self, grad):
        """The gradient of ``tanh(self)``, from the saved result ``tanh(self)``.

        由保存的结果 ``tanh(self)`` 求 ``tanh(self)`` 的梯度。
        """
        (result,) = self.saved_tensors
        # BEGIN SOLUTION 1.8
        return grad * (1 - result * result)
        # END SOLUTION

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


@public("exp", methods="exp")
def exp(input):
    out = _wrap(np.exp(_float(input._array)))
    return recorded(out, (input,), ExpBackward0, out)


@public("log", methods="log")
def log(input):
    return recorded(_wrap(np.log(_float(input._array))), (input,), LogBackward0, input)


@public("sqrt", methods="sqrt")
def sqrt(input):
    out = _wrap(np.sqrt(_float(input._array)))
    return recorded(out, (input,), SqrtBackward0, out)


@public("abs", methods="abs __abs__")
def abs(input):  # noqa: A001 - PyTorch's name
    return recorded(_wrap(np.abs(input._array)), (input,), AbsBackward0, input)


@public("sign", methods="sign")
def sign(input):
    return recorded(_wrap(np.sign(input._array)), (input,), SignBackward0)


@public("relu", methods="relu")
def relu(input):
    out = _wrap(np.maximum(input._array, 0))
    return recorded(out, (input,), ReluBackward0, out)


@public("sigmoid", methods="sigmoid")
def sigmoid(input):
    """1 / (1 + exp(-x)), as exp(-|x|) / (1 + exp(-|x|)) below 0: no exp can overflow, and small
    results keep their digits (``0.5 + 0.5 tanh(x / 2)`` would lose them)."""
    out = _wrap(stable_sigmoid(_float(input._array)))
    return recorded(out, (input,), SigmoidBackward0, out)


def stable_sigmoid(x):
    """The logistic function of the array ``x``, in its dtype."""
    small = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + small), small / (1 + small))


@public("tanh", methods="tanh")
def tanh(input):
    out = _wrap(np.tanh(_float(input._array)))
    return recorded(out, (input,), TanhBackward0, out)


class Log10Backward0(SavesInput):
    __slots__ = ()

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad / (self_ * 2.302585092994046)  # d log10(x) = 1 / (x ln 10)


@public("log10", methods="log10")
def log10(input):
    return recorded(_wrap(np.log10(_float(input._array))), (input,), Log10Backward0, input)


@public("clamp", methods="clamp clip")
def clamp(input, min=None, max=None):  # noqa: A002 - PyTorch's names
    """Limit each element to [min, max]; a ``min`` above ``max`` makes every element ``max``."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        raise NotImplementedError("minigrad's clamp takes numbers as bounds: use maximum and minimum for tensors")
    out = input
    for bound, numpy_fn in ((min, np.maximum), (max, np.minimum)):
        if bound is not None:
            out = Tensor._wrap(numpy_fn(*promoted(out, bound)))
    return recorded(out, (input,), ClampBackward1, min, max, input)


