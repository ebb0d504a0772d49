"""``+ - * /`` and negation, each with its backward node (powers: ``powers.py``).

Each node's ``backward`` receives the gradient of the output and returns one gradient per
input, each of its input's shape: broadcasting made an input count several times, so its
gradient is summed back to its shape (``sum_to``).

Node classes declare ``__slots__`` (their attributes, or none): a graph holds one node
per operation, and slots keep each node small and quick to make.
"""
import operator


from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import Operands, SavesResult
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from ._operands import compute, promoted, refuse_bool_subtraction, true_division_operands
from .division import rounded_div


class MulBackward0(Node):
    """out = self * other, element by element (the shapes broadcast together)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("other", "self")  # PyTorch's order: saved hooks pack and unpack other first

    def __init__(self, input, other, x, y):
        # Each input is needed only for the gradient of the other one.
        self._saved = (
            _saved(other, y) if isinstance(input, Tensor) and input._requires_grad else None,
            _saved(input, x) if isinstance(other, Tensor) and other._requires_grad else None,
        )
        self.self_shape, self.other_shape = x.shape, y.shape


class AddBackward0(Node):
    """out = self + alpha * other, element by element (``alpha``: a number, 1 unless given)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def __init__(self, alpha, x, y):
        self._saved = (alpha,)
        self.self_shape, self.other_shape = x.shape, y.shape


class SubBackward0(Node):
    """out = self - alpha * other, element by element (``alpha``: a number, 1 unless given)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("alpha",)

    def __init__(self, alpha, x, y):
        self._saved = (alpha,)
        self.self_shape, self.other_shape = x.shape, y.shape


class DivBackward0(Node):
    """out = self / other, element by element (the shapes broadcast together)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def __init__(self, input, other, x, y):
        saved_other = _saved(other, y)  # first, as PyTorch saves it
        self._saved = (_saved(input, x) if _requires_grad(other) else None, saved_other)  # self serves other's gradient only
        self.self_shape, self.other_shape = x.shape, y.shape


class RsubBackward1(Node):
    """out = other - alpha * self, for ``2 - x`` where only ``x`` is a tensor: a subtraction whose
    second operand is ``self``, so its gradient is step 1.5's for that operand."""

    __slots__ = ()
    saved_names = ("alpha",)

    def backward(self, grad):
        shapes = ((), grad.shape)
        return SubBackward0.backward(Operands(self._saved, (False, True), shapes), grad)[1]


class NegBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return -grad


class ReciprocalBackward0(SavesResult):
    """out = 1 / self (``1 / x``, and ``reciprocal``): its backward is written with the result."""

    __slots__ = ()

    def backward(self, grad):
        (result,) = self.saved_tensors
        return -grad * result * result


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


@public("add", methods="add __add__ __radd__")
def add(input, other, *, alpha=1):
    x, y = promoted(input, other)
    out = _wrap(compute(operator.add, x, y if alpha == 1 else alpha * y))
    return recorded(out, (input, other), AddBackward0, alpha, x, y)


@public("sub subtract", methods="sub subtract __sub__")
def sub(input, other, *, alpha=1):
    x, y = promoted(input, other, refuse_bool_subtraction)
    out = _wrap(compute(operator.sub, x, y if alpha == 1 else alpha * y))
    return recorded(out, (input, other), SubBackward0, alpha, x, y)


@public("rsub", methods="__rsub__")
def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` where ``other`` is a number (``2 - x``)."""
    x, y = promoted(input, other, refuse_bool_subtraction)
    out = Tensor._wrap(y - x if alpha == 1 else y - alpha * x)
    return recorded(out, (input,), RsubBackward1, alpha)


@public("mul multiply", methods="mul multiply __mul__ __rmul__")
def mul(input, other):
    x, y = promoted(input, other)
    out = _wrap(compute(operator.mul, x, y))
    return recorded(out, (input, other), MulBackward0, input, other, x, y)


@public("div true_divide divide", methods="div divide true_divide __truediv__")
def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        return rounded_div(input, other, rounding_mode)
    x, y = true_division_operands(input, other)
    out = Tensor._wrap(compute(operator.truediv, x, y))
    return recorded(out, (input, other), DivBackward0, input, other, x, y)


@public("neg negative", methods="neg negative __neg__")
def neg(input):
    if input._array.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead."
        )
    return recorded(Tensor._wrap(-input._array), (input,), NegBackward0)


@public("reciprocal", methods="reciprocal")
def reciprocal(input):
    x, one = true_division_operands(input, 1)
    out = Tensor._wrap(one / x)
    return recorded(out, (input,), ReciprocalBackward0, out)


# The reflected form of ``/`` (``2 + x`` and ``2 * x`` are ``add`` and ``mul`` themselves):
# ``1 / x`` is ``reciprocal(x) * 1``, as in PyTorch.
@public(methods="__rtruediv__")
def rtruediv(self, other):
    return mul(reciprocal(self), other)


@public(methods="__pos__")
def positive(input):
    """``+x`` is ``x`` itself, as in PyTorch."""
    return input
