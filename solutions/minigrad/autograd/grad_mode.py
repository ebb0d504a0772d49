"""Grad mode: whether operations record the graph (``torch.no_grad`` and friends).

Every operation reads one flag, ``_enabled``, before it records a node. The engine
turns it off while it runs backward (on again for ``create_graph=True``), so the
backward formulas themselves are not recorded.
"""
import functools

_enabled = True


def is_grad_enabled():
    """True when new operations record the graph."""
    return _enabled


def _set_enabled(mode):
    """Switch recording on or off: the one primitive every context below builds on."""
    global _enabled
    _enabled = bool(mode)


class _GradModeContext:
    """A context manager that also works as a decorator, as PyTorch's do."""

    def __call__(self, func):
        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            with self._clone():
                return func(*args, **kwargs)

        return run_in_mode

    def _clone(self):
        return type(self)()


class no_grad(_GradModeContext):
    """Run a block without recording: results never require grad."""

    def __enter__(self):
        self._prev = _enabled
        _set_enabled(False)

    def __exit__(self, *exc):
        _set_enabled(self._prev)


class enable_grad(_GradModeContext):
    """Record again inside a ``no_grad`` block."""

    def __enter__(self):
        self._prev = _enabled
        _set_enabled(True)

    def __exit__(self, *exc):
        _set_enabled(self._prev)


class set_grad_enabled(_GradModeContext):
    """Set the mode now; used with ``with``, restore the previous mode on exit."""

    def __init__(self, mode):
        self._prev = _enabled
        self._mode = bool(mode)
        _set_enabled(mode)

    def __call__(self, func):
        _set_enabled(self._prev)  # as a decorator it must not change the mode now
        return super().__call__(func)

    def _clone(self):
        return set_grad_enabled(self._mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set_enabled(self._prev)


class inference_mode(_GradModeContext):
    """Like ``no_grad`` here: minigrad has no separate inference tensors."""

    def __init__(self, mode=True):
        self._mode = mode

    def _clone(self):
        return inference_mode(self._mode)

    def __enter__(self):
        self._prev = _enabled
        if self._mode:
            _set_enabled(False)

    def __exit__(self, *exc):
        _set_enabled(self._prev)
