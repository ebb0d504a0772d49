"""Gradient clipping: keep one step of training from being thrown far by a huge gradient.

Both work in place on the ``.grad`` of each parameter, outside the graph (``no_grad``).
"""
import math

import numpy as np

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor


def _with_grads(parameters):
    """The parameters (one tensor or an iterable of them) that have a gradient."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p for p in parameters if p.grad is not None]


def _norm(arrays, norm_type):
    """The p-norm of all the arrays' elements taken together (the norm of their norms)."""
    if norm_type == math.inf:
        return max(float(np.abs(a).max()) if a.size else 0.0 for a in arrays)
    return float(sum(np.sum(np.abs(a.astype(np.float64)) ** norm_type) for a in arrays) ** (1 / norm_type))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale every gradient by max_norm / total_norm when the total norm of all of them, taken as
    one vector, exceeds ``max_norm``. Returns that total norm (a 0-dim tensor), before clipping."""
    params = _with_grads(parameters)
    norm_type = float(norm_type)
    if not params:
        return Tensor._wrap(np.zeros((), np.float32))
    arrays = [p.grad._array for p in params]
    total = _norm(arrays, norm_type)
    if error_if_nonfinite and not math.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    coefficient = min(max_norm / (total + 1e-6), 1.0)
    with no_grad():
        for p in params:
            p.grad.mul_(coefficient)  # also when 1.0, as PyTorch does: a nan norm makes every gradient nan
    return Tensor._wrap(np.asarray(total, arrays[0].dtype))


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Limit every gradient element to [-clip_value, clip_value], in place. Returns None."""
    clip_value = float(clip_value)
    with no_grad():
        for p in _with_grads(parameters):
            p.grad.clamp_(-clip_value, clip_value)
