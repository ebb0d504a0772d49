"""Element-wise functions (exp, log, relu, sigmoid, ...) and their backward nodes.

A node saves either its input (``SavesInput``) or its result (``SavesResult``), whichever
its derivative is cheapest to write with; the node's class says which. An element-wise
function's Jacobian is diagonal, so each node's forward-mode rule (``jvp``) is its
``backward`` applied to the tangent.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import SavesInput, SavesResult
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from ._operands import promoted


class ExpBackward0(SavesResult):
    """out = exp(self), element by element; the node keeps the result."""

    __slots__ = ()

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


class LogBackward0(SavesInput):
    """out = log(self), the natural logarithm, element by element; the node keeps the input."""

    __slots__ = ()

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


class AbsBackward0(SavesInput):
    """out = |self|, element by element; the node keeps the input."""

    __slots__ = ()


class ClampBackward1(Node):
    """out = self limited to [min, max] (a bound not given is None); the node keeps the bounds and the input."""

    __slots__ = ()
    saved_names = ("min", "max", "self")

    def __init__(self, min, max, input):
        self._saved = (min, max, SavedTensor(input))


def _float(x):
    """Integer and bool inputs give results in the default float dtype, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(dtypes.get_default_dtype().numpy)


_wrap = Tensor._wrap  # bound once: looking ``Tensor._wrap`` up makes a new bound method each time


class SqrtBackward0(SavesResult):
    """out = sqrt(self), element by element; the node keeps the result."""

    __slots__ = ()


class ReluBackward0(SavesResult):
    __slots__ = ()


class SignBackward0(Node):
    """A step function: its derivative is 0 wherever it is defined."""

    __slots__ = ()

    def backward(self, grad):
        return grad * 0


class SigmoidBackward0(SavesResult):
    __slots__ = ()

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


class TanhBackward0(SavesResult):
    """out = tanh(self), element by element; the node keeps the result."""

    __slots__ = ()

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
    """1 / (1 + exp(-x)), PyTorch's formula: small results keep their digits (``0.5 + 0.5 tanh(x / 2)``
    would lose them), and where exp(-x) overflows the result is 0, as PyTorch's."""
    out = _wrap(stable_sigmoid(_float(input._array)))
    return recorded(out, (input,), SigmoidBackward0, out)


def stable_sigmoid(x):
    """The logistic function of the array ``x``, in its dtype: four passes, three of them in place."""
    out = np.negative(x, out=np.empty(np.shape(x), x.dtype))
    with np.errstate(over="ignore"):
        np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


@public("tanh", methods="tanh")
def tanh(input):
    out = _wrap(np.tanh(_float(input._array)))
    return recorded(out, (input,), TanhBackward0, out)


class Log10Backward0(LogBackward0):
    """out = log10(self) = log(self) / log(10): log's gradient, divided by log(10)."""

    __slots__ = ()

    def backward(self, grad):
        return LogBackward0.backward(self, grad) / 2.302585092994046


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




class RsqrtBackward0(SavesResult):
    """out = 1 / sqrt(self) = self^(-1/2), so d out / d self = -1/2 self^(-3/2) = -out^3 / 2: the node
    keeps the result, as PyTorch's does."""

    __slots__ = ()

    def backward(self, grad):
        (result,) = self.saved_tensors
        return grad * (result * result * result) * -0.5

    def jvp(self, tangent):
        """Forward mode: the Jacobian is diagonal, so a tangent is scaled as a gradient is."""
        return self.backward(tangent)


@public("rsqrt", methods="rsqrt")
def rsqrt(input):
    """The reciprocal of the square root, in one node (as PyTorch records it)."""
    out = _wrap(1 / np.sqrt(_float(input._array)))
    return recorded(out, (input,), RsqrtBackward0, out)
