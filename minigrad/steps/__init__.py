"""The checks behind each exercise step, shared by ``minigrad.check``, the grader and the tests.

Each check is a function registered for one step with ``@step("1.2")``. It receives
``see`` (``observe.Observations``), runs the learner's code on inputs it draws from
``see.rng`` or fixes itself, and reports what came back; it decides nothing. A check
uses only what its step and earlier steps provide, so a step can be checked as soon
as it is written. ``expected.json`` holds the reference solution's observations for the
inputs of seed 0, recorded by ``make build``.
"""
import importlib
import json
from pathlib import Path

from ..autograd import grad_mode
from .ids import order
from .observe import run_check

STEPS = {}  # "1.2" -> list of check functions
CHAPTERS = ("chapter1", "chapter1_rules", "chapter1_kinks", "chapter2", "chapter2_rules", "chapter2_challenge", "chapter3",
            "chapter4", "chapter4_forward", "chapter4_shapes", "chapter5", "chapter6")  # every module of checks
EXPECTED = Path(__file__).resolve().parent / "expected.json"


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


def observe_step(step_id, seed):
    """What each check of ``step_id`` saw, by check name, with inputs drawn from ``seed``."""
    return {check.__name__: run_check(check, seed) for check in load_all().get(step_id, [])}


def observe_steps(step_ids, seeds=(0,)):
    """What the checks of each step saw, step after step in this one process: yields ``(step, {seed: seen})``.

    Grad mode is switched back on before each step, as a fresh process would start: a
    ``no_grad`` that forgets to restore it is then blamed on step 3.1 alone."""
    for step_id in step_ids:
        grad_mode._set_enabled(True)
        yield step_id, {str(seed): observe_step(step_id, seed) for seed in seeds}


def observe_all():
    """What the checks of every step saw (seed 0), by step, in this one process."""
    return {step_id: seen["0"] for step_id, seen in observe_steps(sorted(load_all(), key=order))}


def expected_observations():
    """The reference's observations for seed 0, by step (empty before the first build)."""
    return json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
