"""``torch.nn.init``: filling weights with the random numbers a layer starts from.

Each function fills its tensor in place and returns it. The random draws come from
``minigrad.random``, which reproduces PyTorch's generator bit for bit, so
``manual_seed(0); nn.Linear(7, 5)`` starts from PyTorch's exact weights. Every bound is
computed with the same float operations, in the same order, as PyTorch's code.
"""
import math
import warnings

import numpy as np

from .. import creation, random
from ..autograd.grad_mode import no_grad
from ..ops.comparison import where


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' variance steady through ``nonlinearity`` (√2 for relu)."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif isinstance(param, float) or (isinstance(param, int) and not isinstance(param, bool)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """How many inputs feed each output (fan_in) and how many outputs each input feeds.

    A Linear weight is (out_features, in_features): fan_in = in_features.
    """
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with numbers drawn uniformly from [a, b)."""
    with no_grad():
        return random.uniform_(tensor, a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with numbers drawn from the normal distribution N(mean, std²)."""
    with no_grad():
        return random.normal_(tensor, mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with normals N(mean, std²) cut to [a, b], drawn the way PyTorch 2.13 draws them.

    When [a, b] holds more than 30% of the normal, whole tensors of normals are drawn and each value
    outside is replaced from the next draw, until none is left; when it holds less, so that most
    normals would miss, uniforms on [a, b] are accepted with probability pdf(x) / pdf(peak) instead.
    Both consume PyTorch's random numbers in PyTorch's order, so a seed gives PyTorch's values.
    """
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        if _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std) > 0.3:
            return _trunc_normal_by_redrawing(tensor, mean, std, a, b, generator)
        return _trunc_normal_by_acceptance(tensor, mean, std, a, b, generator)


def _normal_cdf(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _trunc_normal_by_redrawing(tensor, mean, std, a, b, generator):
    """Normals, the ones outside [a, b] redrawn (a whole tensor per round, as PyTorch draws them).

    The bounds are compared in the tensor's dtype, as PyTorch rounds them to it first.
    """
    low, high = (tensor._array.dtype.type(bound).item() for bound in (a, b))
    result = random.normal_(tensor, mean, std, generator=generator)
    while True:
        outside = (result < low) | (result > high)
        if not outside.any():
            break
        result = where(outside, random.normal_(creation.empty_like(result), mean, std, generator=generator), result)
    if result is not tensor:
        tensor.copy_(result)
    return tensor


def _trunc_normal_by_acceptance(tensor, mean, std, a, b, generator):
    """Uniforms on [a, b], each kept when log(u) <= its log density below the peak, the others redrawn."""
    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
    accept = creation.empty_like(tensor)

    def log_density(values):
        """-0.5 ((x - mean) / std)² - log_peak, in PyTorch's order of float32 operations."""
        return values.sub(mean).div(std).pow(2).mul(-0.5).sub(log_peak)

    random.uniform_(tensor, a, b, generator=generator)
    pending = random.uniform_(accept, generator=generator).log().gt(log_density(tensor))
    result = tensor
    while pending.any():
        candidates = random.uniform_(creation.empty_like(tensor), a, b, generator=generator)
        result = where(pending, candidates, result)
        pending = where(pending, random.uniform_(accept, generator=generator).log().gt(log_density(candidates)),
                        pending)
    if result is not tensor:
        tensor.copy_(result)
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """Fill with a (semi-)orthogonal matrix (the trailing dimensions flattened), times ``gain``.

    The Q of a QR factorisation of a matrix of standard normals, each column multiplied by the
    sign of R's diagonal: that makes Q unique (whatever sign convention the QR routine has) and
    uniformly distributed. numpy factorises in float64 where PyTorch's LAPACK call works in float32,
    so the values agree with PyTorch's to float32 rounding (about 1e-6), not bit for bit.
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    normals = random.normal_(creation.empty((rows, cols), dtype=tensor.dtype), 0, 1, generator=generator)._array
    matrix = normals.T if rows < cols else normals
    q, r = np.linalg.qr(matrix.astype(np.float64))
    q = (q * np.sign(np.diagonal(r))).astype(normals.dtype)
    q = q.T if rows < cols else q
    with no_grad():
        tensor.copy_(creation.tensor(q.reshape(tensor.shape)))
        return tensor.mul_(gain)


def constant_(tensor, val):
    """Fill with ``val``."""
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def ones_(tensor):
    with no_grad():
        return tensor.fill_(1.0)


def eye_(tensor):
    """The identity matrix (ones on the main diagonal of a 2-D tensor): layers that start as the identity map."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor.copy_(creation.eye(*tensor.shape, dtype=tensor.dtype))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation: uniform in ±gain·√(3 / fan), so ReLU layers keep their variance.

    ``nn.Linear`` calls it with a=√5, which works out to ±1/√fan_in.
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation from a normal distribution: N(0, (gain / √fan)²)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot initialisation: uniform in ±gain·√(6 / (fan_in + fan_out)), for tanh and sigmoid layers."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot initialisation from a normal distribution: N(0, gain² · 2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


__all__ = [
    "calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_", "orthogonal_",
    "trunc_normal_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_",
]
