"""Grad mode: whether operations record the graph (``torch.no_grad`` and friends).

Every operation reads one flag, ``_enabled``, before it records a node. The engine
turns it off while it runs backward (on again for ``create_graph=True``), so the
backward formulas themselves are not recorded.

Each context also works as a decorator, as PyTorch's do: ``@no_grad()``, and without
parentheses ``@no_grad``; a decorated generator runs in the mode each time it resumes.
"""
import functools
import inspect

_enabled = True
_inference = False  # inside inference_mode (which, here, is no_grad under another name)


def is_grad_enabled():
    """True when new operations record the graph."""
    return _enabled


def is_inference_mode_enabled():
    return _inference


def _set_enabled(mode):
    """Switch recording on or off: the one primitive every context below builds on."""
    global _enabled
    _enabled = bool(mode)


class _GradModeContext:
    """A context manager that also works as a decorator."""

    def __new__(cls, *args, **kwargs):
        """``@no_grad`` without parentheses: Python passes the function to the class."""
        if len(args) == 1 and not kwargs and callable(args[0]) and cls._bare_decorator:
            return cls()(args[0])
        return super().__new__(cls)

    _bare_decorator = True

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            with self._clone():
                return func(*args, **kwargs)

        return run_in_mode

    def _wrap_generator(self, func):
        """Each step of the generator runs in the mode; the caller's mode returns in between."""

        @functools.wraps(func)
        def generate(*args, **kwargs):
            with self._clone():
                steps = func(*args, **kwargs)
            return (yield from _in_mode(steps, self._clone))

        return generate

    def _clone(self):
        return type(self)()


def _in_mode(steps, context):
    """Drive the generator ``steps``, entering a fresh ``context()`` around each resumption."""
    method, value = "send", None
    while True:
        try:
            with context():
                result = getattr(steps, method)(value)
        except StopIteration as stop:
            return stop.value
        try:
            method, value = "send", (yield result)
        except GeneratorExit:
            with context():
                steps.close()
            raise
        except BaseException as error:  # thrown into us: pass it on to the generator
            method, value = "throw", error


class no_grad(_GradModeContext):
    """Run a block without recording: results never require grad."""

    def __enter__(self):
        raise NotImplementedError("step 3.1: your code goes here (see the chapter's exercise)")

    def __exit__(self, *exc):
        raise NotImplementedError("step 3.1: your code goes here (see the chapter's exercise)")


class enable_grad(_GradModeContext):
    """Record again inside a ``no_grad`` block."""

    def __enter__(self):
        self._prev = _enabled
        _set_enabled(True)

    def __exit__(self, *exc):
        _set_enabled(self._prev)


class set_grad_enabled(_GradModeContext):
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


class inference_mode(_GradModeContext):
    """Like ``no_grad`` here (``inference_mode(False)`` like ``enable_grad``): minigrad has
    no inference tensors, and ``enable_grad`` inside it does record again."""

    def __init__(self, mode=True):
        self._mode = mode

    def _clone(self):
        return inference_mode(self._mode)

    def __enter__(self):
        global _inference
        self._prev, self._prev_inference = _enabled, _inference
        _set_enabled(not self._mode)
        _inference = bool(self._mode)

    def __exit__(self, *exc):
        global _inference
        _set_enabled(self._prev)
        _inference = self._prev_inference
