"""GELU, SiLU, LeakyReLU and Hardtanh: each a fused element-wise node, as PyTorch records it.

Each function computes with numpy and records one node that keeps the input (PyTorch's
``GeluBackward0``, ``SiluBackward0``, ...). A backward is written with operators and
``dispatch``, so that it also runs on tensors when ``create_graph`` records it.
With ``inplace``, the result is written into the input (``inplace_history.apply``).
"""
import math

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor, release_saved
from ..ops import comparison, pointwise, special
from ..ops._operands import dispatch
from ..ops.inplace_history import apply
from ..ops.pointwise import _float, stable_sigmoid
from ..tensor import Tensor
from .module import Module

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_TANH_SCALE = math.sqrt(2 / math.pi)  # GELU's tanh approximation: tanh(√(2/π) (x + 0.044715 x³))
_TANH_CUBE = 0.044715


def _where(condition, a, b):
    """``np.where`` on arrays, ``torch.where`` when a tensor is among them (under create_graph)."""
    if any(isinstance(v, Tensor) for v in (condition, a, b)):
        condition = condition if isinstance(condition, Tensor) else Tensor._wrap(np.asarray(condition))
        return comparison.where(condition, a, b)
    return np.where(condition, a, b)


def _in_place_or_not(input, inplace, function, *args):
    return apply(input, function, *args) if inplace else function(input, *args)


# ---------------------------------------------------------------- GELU


class GeluBackward0(Node):
    """out = x Φ(x), Φ the standard normal's distribution function (or its tanh approximation).
    Its ``backward`` is set by ``rules/__init__.py`` (exercise 7.4)."""

    saved_names = ("approximate", "self")

    def __init__(self, approximate, input, cdf=None):
        # _saved's third item, unnamed: the forward's Φ(x) (an array), so that backward need not compute erf again
        self._saved = (approximate, SavedTensor(input), cdf)

    def _release(self):
        release_saved(self)
        self._saved = self._saved[:2] + (None,)


def _gelu_array(x, approximate):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(_TANH_SCALE * (x + _TANH_CUBE * x * x * x))), None
    cdf = special.erf_array(x * x.dtype.type(_SQRT_HALF))
    cdf += 1
    cdf *= 0.5
    return x * cdf, cdf


def gelu(input, approximate="none"):
    """x Φ(x): ReLU smoothed by the normal distribution (transformers' activation)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    array, cdf = _gelu_array(_float(input._array), approximate)
    return recorded(Tensor._wrap(array), (input,), GeluBackward0, approximate, input, cdf)


# ---------------------------------------------------------------- SiLU


class SiluBackward0(Node):
    """out = x σ(x), from the saved input."""

    saved_names = ("self",)

    def __init__(self, input):
        self._saved = (SavedTensor(input),)

    def backward(self, grad):
        (x,) = self.saved_tensors
        s = dispatch(x, stable_sigmoid, pointwise.sigmoid)
        return grad * (s * (1 + x * (1 - s)))


def _silu(input):
    x = _float(input._array)
    return recorded(Tensor._wrap(x * stable_sigmoid(x)), (input,), SiluBackward0, input)


def silu(input, inplace=False):
    """x σ(x), also called swish."""
    return _in_place_or_not(input, inplace, _silu)


# ---------------------------------------------------------------- LeakyReLU


class LeakyReluBackward0(Node):
    """out = x where x > 0, else negative_slope · x."""

    saved_names = ("negative_slope", "self")

    def __init__(self, negative_slope, input):
        self._saved = (negative_slope, SavedTensor(input))

    def backward(self, grad):
        negative_slope, x = self.saved_tensors
        return _where(x > 0, grad, grad * negative_slope)


def _leaky_relu(input, negative_slope):
    x = input._array
    out = Tensor._wrap(np.where(x > 0, x, x * x.dtype.type(negative_slope)))
    return recorded(out, (input,), LeakyReluBackward0, negative_slope, input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """ReLU that lets a little through below 0: negative_slope · x there."""
    return _in_place_or_not(input, inplace, _leaky_relu, negative_slope)


# ---------------------------------------------------------------- Hardtanh


class HardtanhBackward0(Node):
    """out = x limited to [min_val, max_val]; the gradient passes strictly inside only."""

    saved_names = ("self", "min_val", "max_val")

    def __init__(self, input, min_val, max_val):
        self._saved = (SavedTensor(input), min_val, max_val)

    def backward(self, grad):
        x, min_val, max_val = self.saved_tensors
        return _where((x > min_val) & (x < max_val), grad, grad * 0)


def _hardtanh(input, min_val, max_val):
    x = input._array
    out = Tensor._wrap(np.minimum(np.maximum(x, x.dtype.type(min_val)), x.dtype.type(max_val)))
    return recorded(out, (input,), HardtanhBackward0, input, min_val, max_val)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clipped to [min_val, max_val] (a linear piece between two flat ones)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _in_place_or_not(input, inplace, _hardtanh, min_val, max_val)


# ---------------------------------------------------------------- the modules


class GELU(Module):
    """``F.gelu`` as a layer; ``approximate='tanh'`` for the faster approximation."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """``F.silu`` as a layer."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``F.leaky_relu`` as a layer."""

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    """``F.hardtanh`` as a layer."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if not max_val > min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")  # PyTorch's
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")
