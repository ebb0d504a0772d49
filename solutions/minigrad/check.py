"""``minigrad.check("1.2")``: run one exercise step's checks and say what happened.

The checks run in a fresh Python process that imports minigrad from the same folder
as this one, so they always see the files as they are on disk now (not the copy this
kernel imported before your last edit). That process only reports what your code
returned, as plain data in a file; the verdict is taken here, by comparing it with the
reference solution's results (``steps/expected.json``), in the notebook's language.
"""
import json
import os
import subprocess
import sys
import tempfile


from .messages import N_, language, say
from .steps import expected_observations
from .steps.answers import GRADED, is_right
from .steps.judge import judge

TIMEOUT = N_("✗ Step {step}: the checks did not finish in {seconds} s (an endless loop?)")
CRASHED = N_("✗ Step {step}: the checks could not run:\n{tail}")
UNANSWERED = N_("question {question} is not answered yet: set the variable above and run both cells again.")
WRONG_ANSWER = N_("✗ {question}: {answer} is not the answer. Read the section again and retry.")
RIGHT_ANSWER = N_("✓ {question}: right.")
JUDGED_AT_GRADING = N_("✓ {question}: your answer is recorded; your instructor's grading judges it.")
MAX_REPORT = 4 << 20  # bytes of observations read back: far more than any step writes


class StepNotImplemented(NotImplementedError):
    """A step (or a step it builds on) is still a stub."""


class CheckFailed(AssertionError):
    """A step runs but gives a wrong answer."""


def check(step, *, timeout=120):
    """Run the checks of ``step`` ("1.2") in a fresh interpreter; raise if they fail."""
    verdict = judge(step, _observe(step, timeout), expected_observations().get(step, {}), language())
    if verdict["status"] == "passed":
        print(verdict["message"])
        return None
    error = StepNotImplemented if verdict["status"] == "not_implemented" else CheckFailed
    raise error(verdict["message"]) from None


def _observe(step, timeout):
    """What the checks of ``step`` saw of the package on disk (seed 0), from a fresh process."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "seen.json")
        command = [sys.executable, "-m", "minigrad.steps", "observe", step, "--out", report]
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, cwd=package_root)
        except subprocess.TimeoutExpired:
            raise CheckFailed(say(TIMEOUT, step=step, seconds=timeout)) from None
        if not os.path.exists(report) or os.path.getsize(report) > MAX_REPORT:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
            raise CheckFailed(say(CRASHED, step=step, tail=tail)) from None
        with open(report) as file:
            return json.load(file).get("0", {})


def check_answer(question, answer):
    """Check the answer to a practice question ("q3.1"); raise if it is missing or wrong."""
    if answer is None:
        raise StepNotImplemented(say(UNANSWERED, question=question)) from None
    if GRADED:
        print(say(JUDGED_AT_GRADING, question=question))
        return
    if not is_right(question, answer):
        raise CheckFailed(say(WRONG_ANSWER, question=question, answer=repr(answer))) from None
    print(say(RIGHT_ANSWER, question=question))
