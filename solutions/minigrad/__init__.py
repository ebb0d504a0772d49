"""minigrad: PyTorch's autograd, rebuilt on numpy, one piece at a time.

``import minigrad as torch`` runs code written for PyTorch's autograd tutorials and
prints what PyTorch prints.
"""
from . import autograd, nn
from . import optim
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import is_inference_mode_enabled
from .creation import (
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace, ones, ones_like, tensor,
    zeros, zeros_like,
)
from .device import accelerator, cuda, device, get_default_device, mps, set_default_device
from .dtypes import (
    bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int, int8, int16, int32, int64,
    long, set_default_dtype, short, uint8,
)
from .ops.arithmetic import add, div, mul, neg, pow, reciprocal, rsub, square, sub
from .ops.comparison import (
    allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, eq, equal, ge, gt, isclose, le, logical_not, lt,
    maximum, minimum, ne, where,
)
from .ops.division import floor_divide, remainder
from .ops.inplace import (  # ``torch.sin_(x)`` is ``x.sin_()``
    abs_, clamp_, clip_, cos_, exp_, fill_, log_, neg_, reciprocal_, relu_, sigmoid_, sin_, sqrt_, square_, tanh_,
    zero_,
)
from .ops.joining import cat, chunk, split, stack
from .ops.linalg import bmm, dot, matmul, mm, mv, outer
from .ops.pointwise import abs, clamp, clone, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tanh
from .ops.reductions import argmax, argmin, max, mean, min, norm, prod, std, sum, var
from .ops.scans import cumsum
from .ops.selection import gather, masked_fill
from .ops.views import flatten, permute, reshape, squeeze, t, transpose, unsqueeze
from .random import (
    Generator, bernoulli, get_rng_state, initial_seed, manual_seed, normal, rand, rand_like, randint, randn,
    randn_like, randperm, seed, set_rng_state,
)
from .nn.functional import log_softmax, softmax
from .shape import Size
from .tensor import Tensor, legacy_tensor
from . import _methods  # noqa: F401,E402 - gives Tensor its operator methods
from .check import check, check_answer, set_language  # noqa: E402
from .autograd import functional, gradcheck as _gradcheck, profiler  # noqa: E402,F401 - built on the operations

autograd.gradcheck, autograd.gradgradcheck = _gradcheck.gradcheck, _gradcheck.gradgradcheck  # as in PyTorch

true_divide = divide = div
concat = concatenate = cat
multiply = mul
subtract = sub
negative = neg
ger = outer


def is_tensor(obj):
    """Whether ``obj`` is a tensor (a ``Parameter`` is one too)."""
    return isinstance(obj, Tensor)


def _legacy(name, numpy_dtype):
    """``torch.LongTensor([1, 2])`` and its kin: the legacy constructor of one dtype."""
    make = lambda *args: legacy_tensor(numpy_dtype, args)  # noqa: E731
    make.__name__ = make.__qualname__ = name
    return make


FloatTensor = _legacy("FloatTensor", "float32")
DoubleTensor = _legacy("DoubleTensor", "float64")
LongTensor = _legacy("LongTensor", "int64")
IntTensor = _legacy("IntTensor", "int32")
BoolTensor = _legacy("BoolTensor", "bool")

__version__ = "0.1.0"
