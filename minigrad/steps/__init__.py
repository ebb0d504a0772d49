"""The checks behind each exercise step, shared by ``minigrad.check`` and the test suite.

Each check is a plain function registered for one step with ``@step("1.2")``. A check
uses only what its step and earlier steps provide, so a step can be checked as soon
as it is written. Failures raise ``Mismatch`` with a message in both languages.
"""
import importlib

STEPS = {}  # "1.2" -> list of check functions
CHAPTERS = ("chapter1", "chapter2", "chapter3", "chapter4", "chapter5", "chapter6")


def step(step_id):
    """Register the decorated function as one check of ``step_id``."""

    def register(check):
        STEPS.setdefault(step_id, []).append(check)
        check.step = step_id
        return check

    return register


def load_all():
    """Import every chapter's checks, filling ``STEPS``."""
    for name in CHAPTERS:
        importlib.import_module(f"{__name__}.{name}")
    return STEPS
