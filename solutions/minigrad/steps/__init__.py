"""The checks behind each exercise step, shared by ``minigrad.check``, the grader and the tests.

Each check is a function registered for one step with ``@step("1.2")``. It receives
``see`` (``observe.Observations``), runs the learner's code on inputs it draws from
``see.rng`` or fixes itself, and reports what came back; it decides nothing. A check
uses only what its step and earlier steps provide, so a step can be checked as soon
as it is written.

Everything about a chapter's steps lives in its folder, ``chapterN/``: the modules of checks, the hints
(``hints.py``), the reference solution's observations for the inputs of seed 0 (``expected.json``, recorded
by ``make build``), the usual mistakes each named by a check (``mistakes.py``: ``MUTANTS`` maps a mistake's name
to ``(step, [(file, the reference's text, the learner's version)], the sentence naming it)``, which
``tests/course/test_mistakes.py`` proves; kept out of the learner edition, since the mutants hold the solution's
lines) and the Chinese of every sentence written there (``zh.po``).

Two more files hold answers and stay out of the learner edition. ``guarded.py`` lists, by step, the expressions
its answer is made of: ``tests/course/test_answer_leaks.py`` finds none of them (nor a computing line of the
step's solution) in anything a learner reads before solving. ``last_hints.py`` holds each step's last hint,
its answer in words, in both languages: ``make build`` seals them into ``last_hints.dat`` (``sealed.py``),
which ``minigrad.hint`` opens. A learner's package has each chapter's checks and observations sealed too.
"""
import importlib
import json
import sys
from pathlib import Path

from ..autograd import grad_mode
from .ids import chapter_of, order
from .observe import run_check
from .sealed import SealedChecks, sealed_checks

STEPS = {}  # "1.2" -> list of check functions
CHAPTERS = (  # every module of checks, each in its chapter's folder
    "chapter1.checks", "chapter1.rules", "chapter1.kinks", "chapter2.checks", "chapter2.rules", "chapter2.challenge",
    "chapter3.checks", "chapter4.checks", "chapter4.forward", "chapter4.shapes", "chapter5.checks", "chapter6.checks",
    "chapter7.checks",
)
HERE = Path(__file__).resolve().parent
EXPECTED = "expected.json"  # in each chapter's folder: the reference's observations of its steps (seed 0)
# A learner's package has each chapter's check modules and observations sealed (``sealed.py``): found here.
sys.meta_path.append(SealedChecks(__name__, HERE))


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


def loop_causes(step_id):
    """The usual mistakes that make ``step_id``'s code loop forever: its chapter's ``LOOPS`` (in ``checks.py``)."""
    checks = importlib.import_module(f"{__name__}.chapter{chapter_of(step_id)}.checks")
    return getattr(checks, "LOOPS", {}).get(step_id, ())


def expected_observations():
    """The reference's observations for seed 0, by step (empty before the first build): each chapter's
    ``expected.json`` in the reference, sealed with its checks in a learner's package."""
    found = {}
    for folder in sorted(HERE.glob("chapter*")):
        plain = folder / EXPECTED
        found.update(json.loads(plain.read_text()) if plain.exists() else sealed_checks(folder).get("expected", {}))
    return found
