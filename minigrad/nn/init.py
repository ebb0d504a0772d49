"""``torch.nn.init``: filling weights with the random numbers a layer starts from.

Each function fills its tensor in place and returns it. The random draws come from
``minigrad.random``, which reproduces PyTorch's generator bit for bit, so
``manual_seed(0); nn.Linear(7, 5)`` starts from PyTorch's exact weights. Every bound is
computed with the same float operations, in the same order, as PyTorch's code.
"""
import math
import warnings

from .. import random
from ..autograd.grad_mode import no_grad


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
    "calculate_gain", "constant_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_", "uniform_",
    "xavier_normal_", "xavier_uniform_", "zeros_",
]
