"""The expressions chapter 3's answers are made of, by step: nothing a learner reads before solving a step may
show them (the notebooks, the package around the stub, the first two hints, the checks' messages), in either
language. ``tests/course/test_answer_leaks.py`` searches for each with every space removed, together with the
lines of the step's solution region that compute something. Reference only (``tools/editions.py``): the
expressions are the answers.
"""

GUARDED = {
    "3.1": ("self._prev = is_grad_enabled()",),
    "3.2": ("out._version_counter = self._version_counter",),
    "3.3": ("self._requires_grad = bool(requires_grad)",),
    "3.4": ("self._prev = is_grad_enabled()",),
    "3.5": ("self._prev = is_grad_enabled()",),
    "C3": ('getattr(steps, method)(value)', "(yield result)", "except GeneratorExit"),
}
