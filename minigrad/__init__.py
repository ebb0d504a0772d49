"""minigrad: PyTorch's autograd, rebuilt on numpy, one piece at a time.

``import minigrad as torch`` runs code written for PyTorch's autograd tutorials and
prints what PyTorch prints.
"""
import math

from . import autograd, nn, notebook, ops, optim, public_names, rules  # noqa: F401 - rules: set on their nodes
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .autograd import functional, gradcheck as _gradcheck, profiler  # noqa: F401 - built on the operations
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.inference_mode import is_inference_mode_enabled
from . import func  # noqa: E402 - the transforms, built on the operations
from .check import check, check_answer, progress
from .hints import hint
from .messages import set_language
from .creation import (
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace, ones, ones_like, tensor,
    zeros, zeros_like,
)
from .device import accelerator, cuda, device, get_default_device, mps, set_default_device
from .dtypes import (
    bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int, int8, int16, int32, int64,
    long, set_default_dtype, short, uint8,
)
from .random import (
    Generator, bernoulli, get_rng_state, initial_seed, manual_seed, normal, rand, rand_like, randint, randn,
    randn_like, randperm, seed, set_rng_state,
)
from . import distributions, sampling, utils  # noqa: F401 - sampling: torch.multinomial, declared with @public
from . import linalg  # noqa: F401 - torch.linalg; torch.det and torch.inverse are declared with @public
from . import numpy_bridge  # noqa: F401 - Tensor.numpy, declared with @public
from .legacy import (  # Tensor.type and torch.result_type are declared with @public
    BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor, ShortTensor,
)
from .serialization import load, save
from .shape import Size
from .tensor import Tensor
from . import tensor_attributes

tensor_attributes.install()

# The operations: ``torch.exp`` and ``Tensor.exp``, as each operation declares them (``public_names``).
globals().update(public_names.TORCH)
public_names.attach(Tensor)
autograd.gradcheck, autograd.gradgradcheck = _gradcheck.gradcheck, _gradcheck.gradgradcheck  # as in PyTorch
notebook.show_as_sentences_in_ipython()


def is_tensor(obj):
    """Whether ``obj`` is a tensor (a ``Parameter`` is one too)."""
    return isinstance(obj, Tensor)


e, pi, inf, nan = math.e, math.pi, math.inf, math.nan
vmap = func.vmap

__version__ = "0.1.0"
