"""Chapter 3's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "3.1": ("self._prev = is_grad_enabled()",),
    "3.2": ("out._version_counter = self._version_counter",),
    "3.3": ("self._requires_grad = bool(requires_grad)",),
    "3.4": ("self._prev = is_grad_enabled()",),
    "3.5": ("self._prev = is_grad_enabled()",),
    "C3": ('getattr(steps, method)(value)', "(yield result)", "except GeneratorExit"),
}
