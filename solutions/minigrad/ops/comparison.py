"""Comparisons and selections. Comparisons give bool tensors and record nothing:
a step function has no useful gradient. ``where``, ``maximum`` and ``minimum`` pick
elements, and send each element's gradient to the input it was picked from.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor
from ._operands import compute, numpy_error, promoted


def _elementwise(numpy_fn, name, doc, floats=True):
    """An element-wise function of two operands (promoted first) that records nothing.
    ``floats=False``: a float operand is refused, as PyTorch refuses it for bitwise ops."""

    def apply(input, other):
        x, y = promoted(input, other)
        if not floats and (x.dtype.kind == "f" or y.dtype.kind == "f"):
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'Float\'')
        return Tensor._wrap(compute(numpy_fn, x, y))

    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = doc
    return apply


def _comparison(numpy_fn, name):
    return _elementwise(numpy_fn, name, f"Element-wise ``{numpy_fn.__name__}`` as a bool tensor.")


eq = public("eq", methods="eq __eq__")(_comparison(np.equal, "eq"))
ne = public("ne", methods="ne __ne__")(_comparison(np.not_equal, "ne"))
lt = public("lt", methods="lt __lt__")(_comparison(np.less, "lt"))
le = public("le", methods="le __le__")(_comparison(np.less_equal, "le"))
gt = public("gt", methods="gt __gt__")(_comparison(np.greater, "gt"))
ge = public("ge", methods="ge __ge__")(_comparison(np.greater_equal, "ge"))


@public("logical_not", methods="logical_not")
def logical_not(input):
    return Tensor._wrap(np.logical_not(input._array))


@public("bitwise_not", methods="bitwise_not __invert__")
def bitwise_not(input):
    """``~x``: logical not for bools, bitwise not for integers, an error for floats."""
    if input._array.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return Tensor._wrap(np.invert(input._array))


def _bitwise(numpy_fn, name):
    return _elementwise(numpy_fn, name, f"``{name}``: logical for bool tensors, bit by bit for integers, refused "
                        "for floats.", floats=False)


bitwise_and = public("bitwise_and", methods="bitwise_and __and__ __rand__")(_bitwise(np.bitwise_and, "bitwise_and"))
bitwise_or = public("bitwise_or", methods="bitwise_or __or__ __ror__")(_bitwise(np.bitwise_or, "bitwise_or"))
bitwise_xor = public("bitwise_xor", methods="bitwise_xor __xor__ __rxor__")(_bitwise(np.bitwise_xor, "bitwise_xor"))


@public("equal", methods="equal")
def equal(input, other):
    """True when both have the same shape and the same values."""
    return input._array.shape == other._array.shape and bool(np.array_equal(input._array, other._array))


def _truth(numpy_fn, input, dim, keepdim):
    """``all`` or ``any``: a bool tensor (uint8 stays uint8, as in PyTorch)."""
    array = input._array
    value = numpy_fn(array, axis=dim, keepdims=keepdim)
    return Tensor._wrap(np.asarray(value, dtype=np.uint8 if array.dtype == np.uint8 else np.bool_))


@public("all", methods="all")
def all(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """Whether every element (along ``dim``) is nonzero."""
    return _truth(np.all, input, dim, keepdim)


@public("any", methods="any")
def any(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """Whether some element (along ``dim``) is nonzero."""
    return _truth(np.any, input, dim, keepdim)


@public("nonzero", methods="nonzero")
def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements: one row each (int64), or one tensor per dimension."""
    indices = np.nonzero(input._array) if input._array.ndim else np.nonzero(input._array.reshape(1))
    if as_tuple:
        return tuple(Tensor._wrap(index.astype(np.int64)) for index in indices)
    return Tensor._wrap(np.stack(indices, axis=1).astype(np.int64) if indices else np.zeros((0, 0), np.int64))


def _same_dtype(input, other):
    """``isclose`` and ``allclose`` compare tensors of one dtype only."""
    a, b = input._array.dtype, other._array.dtype
    if a != b:
        raise RuntimeError(f"{dtypes.scalar_type_name(a)} did not match {dtypes.scalar_type_name(b)}")


@public("isclose", methods="isclose")
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, element by element."""
    _same_dtype(input, other)
    close = lambda x, y: np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)  # noqa: E731
    return Tensor._wrap(compute(close, input._array, other._array))


@public("allclose", methods="allclose")
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close (see ``isclose``): one Python bool."""
    return bool(isclose(input, other, rtol, atol, equal_nan)._array.all())


def _to_both(node, grad, to_self, to_other):
    """``grad`` where ``to_self`` holds goes to self, where ``to_other`` holds to other,
    each summed back to its input's shape; both masks are bool (or 0.5 for a shared tie)."""
    return sum_to(grad * to_self, node.self_shape), sum_to(grad * to_other, node.other_shape)


class WhereBackward0(Node):
    """The gradient goes to whichever input each element was taken from."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("condition",)

    def __init__(self, condition, mask, x, y):
        self._saved = (SavedTensor(condition) if isinstance(condition, Tensor) else mask,)
        self.self_shape, self.other_shape = np.shape(x), np.shape(y)

    def backward(self, grad):
        (condition,) = self.saved_tensors
        return _to_both(self, grad, condition, ~condition)


@public("where")
def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other`` (either may be a number).
    With the condition alone: the indices where it holds, one int64 tensor per dimension."""
    mask = condition._array if isinstance(condition, Tensor) else np.asarray(condition)
    if input is None and other is None:
        return tuple(Tensor._wrap(index.astype(np.int64)) for index in np.nonzero(mask))
    if mask.dtype.kind != "b":
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{dtypes.scalar_type_name(mask.dtype)}"
        )
    x, y = promoted(input, other)
    try:  # three operands: ``compute`` takes two
        value = np.where(mask, x, y)
    except ValueError as error:
        raise numpy_error(error, mask, x, y) from None
    return recorded(Tensor._wrap(value), (input, other), WhereBackward0, condition, mask, x, y)


class MaximumBackward0(Node):
    """The larger input gets the gradient; on a tie each gets half, as in PyTorch."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def __init__(self, input, other, x, y):
        self._saved = (SavedTensor(input), SavedTensor(other))
        self.self_shape, self.other_shape = x.shape, y.shape

    def backward(self, grad):
        self_, other = self.saved_tensors
        half_tie = (self_ == other) * 0.5
        return _to_both(self, grad, (self_ > other) + half_tie, (self_ < other) + half_tie)


class MinimumBackward0(MaximumBackward0):
    """The smaller input gets the gradient; on a tie each gets half."""

    __slots__ = ()

    def backward(self, grad):
        self_, other = self.saved_tensors
        half_tie = (self_ == other) * 0.5
        return _to_both(self, grad, (self_ < other) + half_tie, (self_ > other) + half_tie)


def _pick(numpy_fn, node_type, input, other):
    """``maximum``/``minimum`` of two tensors, element by element."""
    if not isinstance(other, Tensor):
        raise TypeError(
            f"{numpy_fn.__name__}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )
    x, y = promoted(input, other)
    return recorded(Tensor._wrap(compute(numpy_fn, x, y)), (input, other), node_type, input, other, x, y)


@public("maximum", methods="maximum")
def maximum(input, other):
    return _pick(np.maximum, MaximumBackward0, input, other)


@public("minimum", methods="minimum")
def minimum(input, other):
    return _pick(np.minimum, MinimumBackward0, input, other)
