"""Layer normalisation: ``F.layer_norm`` and ``nn.LayerNorm``.

One node, as PyTorch records it (``NativeLayerNormBackward0``), whose backward is the
closed form: PyTorch's graph has one node here, and composing mean, var, sub and div
would record eight and run several times slower.
"""
import numbers

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..creation import empty
from ..tensor import Tensor
from . import init
from ._loss_parts import _maybe_saved
from .module import Module
from .parameter import Parameter


class NativeLayerNormBackward0(Node):
    """out = (x - mean) · rstd · weight + bias, the statistics over the last dimensions.

    Saves the input, the statistics (``result1`` = mean, ``result2`` = 1/√(var + eps), PyTorch's
    names) and the affine parameters. Its ``backward`` is set by ``rules/__init__.py`` (exercise 7.2).
    """

    saved_names = ("input", "normalized_shape", "result1", "result2", "weight", "bias", "eps")

    def __init__(self, input, normalized_shape, mean, rstd, weight, bias, eps):
        self._saved = (SavedTensor(input), normalized_shape, SavedTensor(Tensor._wrap(mean)),
                       SavedTensor(Tensor._wrap(rstd)), _maybe_saved(weight), _maybe_saved(bias), eps)


def _mean(a, dims):
    """The mean over ``dims``, kept as dimensions of size 1 (arrays and tensors)."""
    return a.mean(dims, keepdim=True) if isinstance(a, Tensor) else a.mean(dims, keepdims=True)


def _sum(a, dims):
    """Summed over ``dims`` (the leading ones; none for an input of the normalised shape)."""
    return a.sum(dims) if dims else a


def _check_shapes(x, shape, weight, bias):
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and tuple(param.shape) != shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"{list(param.shape)} and normalized_shape = {list(shape)}"
            )
    if x.shape[x.ndim - len(shape):] != shape or x.ndim < len(shape):
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [*, {', '.join(map(str, shape))}], "
            f"but got input of size{list(x.shape)}"
        )


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the last ``len(normalized_shape)`` dimensions (mean 0, variance 1), then
    scale and shift. The statistics are computed in float64 and kept in the input's dtype."""
    shape = (normalized_shape,) if isinstance(normalized_shape, numbers.Integral) else tuple(normalized_shape)
    x = input._array
    _check_shapes(x, shape, weight, bias)
    dims = tuple(range(x.ndim - len(shape), x.ndim))
    wide = x.astype(np.float64)
    mean = wide.mean(dims, keepdims=True)
    rstd = 1 / np.sqrt(wide.var(dims, keepdims=True) + eps)
    value = (wide - mean) * rstd
    if weight is not None:
        value *= weight._array
    if bias is not None:
        value += bias._array
    mean, rstd = mean.astype(x.dtype), rstd.astype(x.dtype)
    out = Tensor._wrap(value.astype(x.dtype))
    return recorded(out, (input, weight, bias), NativeLayerNormBackward0, input, shape, mean, rstd, weight, bias, eps)


class LayerNorm(Module):
    """Normalise each sample over its last dimensions (``normalized_shape``), then scale by
    ``weight`` (ones) and shift by ``bias`` (zeros), both of that shape, when ``elementwise_affine``."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")
