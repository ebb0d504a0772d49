"""Grad mode: whether operations record the graph (``torch.no_grad`` and friends).

Every operation reads one flag, ``_enabled``, before it records a node. The engine
turns it off while it runs backward (on again for ``create_graph=True``), so the
backward formulas themselves are not recorded.

Each context also works as a decorator (``@no_grad()``): that part is ``mode_decorators.py``.
"""
from .mode_decorators import DecoratorContext

_enabled = True


def is_grad_enabled():
    """True when new operations record the graph."""
    return _enabled


def _set_enabled(mode):
    """Switch recording on or off: the one primitive every context below builds on."""
    global _enabled
    _enabled = bool(mode)


class no_grad(DecoratorContext):
    """Run a block without recording: results never require grad."""

    def __enter__(self):
        raise NotImplementedError("step 3.1: your code goes here (see the chapter's exercise)")

    def __exit__(self, *exc):
        raise NotImplementedError("step 3.1: your code goes here (see the chapter's exercise)")


class enable_grad(DecoratorContext):
    """Record again inside a ``no_grad`` block."""

    def __enter__(self):
        self._prev = _enabled
        _set_enabled(True)

    def __exit__(self, *exc):
        _set_enabled(self._prev)


class set_grad_enabled(DecoratorContext):
    """Set the mode now; used with ``with``, restore the previous mode on exit."""

    _bare_decorator = False

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self._prev = _enabled
        self._mode = mode
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
