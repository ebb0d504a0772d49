"""``**``: a tensor to a number, to a tensor, or a number to a tensor, each with its backward node.

As in ``arithmetic.py``, a node's ``backward`` returns one gradient per input, summed back to
each input's shape where broadcasting made it count several times.
"""
import operator

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import Operands
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from . import comparison
from ._operands import _ARRAYS, compute, promoted


class PowBackward0(Node):
    """out = self ** exponent, ``exponent`` a Python number."""

    __slots__ = ()
    saved_names = ("self", "exponent")

    def __init__(self, input, exponent):
        self._saved = (SavedTensor(input), exponent)


class PowBackward1(Node):
    """out = self ** exponent, both tensors (the shapes broadcast together)."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "exponent", "result")

    def __init__(self, input, exponent, result, x, e):
        self._saved = (SavedTensor(input), SavedTensor(exponent), SavedTensor(result, is_output=True))
        self.self_shape, self.other_shape = x.shape, e.shape


def zeros_where(condition, value):
    """``value`` with 0 where ``condition`` holds, for arrays and tensors alike: PyTorch's
    convention at the points where a formula says ``0 * inf`` (``nan``) but the function is
    flat. Not ``value * mask``: 0 times ``inf`` stays ``nan``.

    ``value`` 中 ``condition`` 成立之处换成 0，数组与张量都适用。
    """
    if isinstance(value, _ARRAYS):
        return np.where(condition, 0, value)
    return comparison.where(condition, 0, value)


def power(x, exponent):
    """``x ** exponent`` for an array or a tensor ``x`` and a number, rounded as PyTorch rounds it."""
    return _power(x, exponent) if isinstance(x, _ARRAYS) else x ** exponent


class PowBackward2(Node):
    """out = self ** exponent, ``self`` a Python number and ``exponent`` a tensor."""

    __slots__ = ()
    saved_names = ("self", "exponent", "result")  # the exponent is not needed, but PyTorch keeps it

    def __init__(self, number, exponent, result):
        self._saved = (number, SavedTensor(exponent), SavedTensor(result, is_output=True))

    def backward(self, grad):
        """The exponent's gradient, by step 1.7's rule for a tensor exponent (``PowBackward1``)."""
        number, exponent, result = self.saved_tensors
        base = np.asarray(number, dtype=getattr(result, "_array", result).dtype)  # the result's dtype, as an array
        operands = Operands((base, exponent, result), (False, True), ((), grad.shape))
        return PowBackward1.backward(operands, grad)[1]


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
        return recorded(out, (exponent,), PowBackward2, input, exponent, out)
    if isinstance(exponent, Tensor):
        return recorded(out, (input, exponent), PowBackward1, input, exponent, out, x, e)
    return recorded(out, (input,), PowBackward0, input, exponent)


@public("square", methods="square")
def square(input):
    """``x * x``, recorded as PyTorch records it: ``pow(x, 2)`` (``PowBackward0``)."""
    return pow(input, 2)


# ``2 ** x``: the reflected form.
@public(methods="__rpow__")
def rpow(self, other):
    return pow(other, self)
