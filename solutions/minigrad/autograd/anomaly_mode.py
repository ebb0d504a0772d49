"""Anomaly detection: ``torch.autograd.detect_anomaly`` and ``set_detect_anomaly``.

PyTorch's error about in-place changes suggests turning it on. Here it checks, while
backward runs, that no node returns NaN gradients, and names the first one that does.
(PyTorch also prints where in the forward pass that node was made; minigrad does not
record forward tracebacks.) The check watches the engine through ``node_call.observers``,
so it costs nothing while it is off.
"""
import warnings

import numpy as np

from . import node_call
from .mode_decorators import DecoratorContext

_enabled = False
_check_nan = True


def is_anomaly_enabled():
    return _enabled


def is_anomaly_check_nan_enabled():
    return _check_nan


def _set(mode, check_nan):
    """Turn detection on or off, (un)registering the NaN check with the engine."""
    global _enabled, _check_nan
    if _enabled:
        node_call.observers.remove(_refuse_nan)
    _enabled, _check_nan = bool(mode), bool(check_nan)
    if _enabled:
        node_call.observers.append(_refuse_nan)


def _refuse_nan(node, grads_in, grads_out):
    """Raise PyTorch's error when ``node`` returned a gradient holding NaN."""
    if not _check_nan:
        return
    for index, grad in enumerate(grads_out):
        if grad is not None and np.isnan(getattr(grad, "_array", grad)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {index}th output.")


class detect_anomaly(DecoratorContext):
    """Turn anomaly detection on inside a block (or a decorated function)."""

    def __init__(self, check_nan=True):
        self._check_nan = check_nan

    def _clone(self):
        return detect_anomaly(self._check_nan)

    def __enter__(self):
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
            "enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )
        self._prev = (_enabled, _check_nan)
        _set(True, self._check_nan)

    def __exit__(self, *exc):
        _set(*self._prev)


class set_detect_anomaly(DecoratorContext):
    """Set anomaly detection now; used with ``with``, restore the previous setting on exit."""

    _bare_decorator = False

    def __init__(self, mode, check_nan=True):
        self._prev = (_enabled, _check_nan)
        self._mode, self._check_nan = mode, check_nan
        _set(mode, check_nan)

    def __call__(self, func):
        _set(*self._prev)  # as a decorator it must not change the setting now
        return super().__call__(func)

    def _clone(self):
        return set_detect_anomaly(self._mode, self._check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set(*self._prev)
