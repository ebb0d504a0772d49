"""Every exercise step's checks, judged as ``minigrad.check`` judges them (``-m step_2_3``).

On the reference edition each step passes against the recorded reference observations;
on the learner edition (``MINIGRAD_EDITION=learner``) each stops at a stub.
"""
import pytest

from conftest import EDITION, step_marker
from minigrad import steps
from minigrad.steps import ids
from minigrad.steps.judge import judge

STEPS = [pytest.param(step, id=step, marks=getattr(pytest.mark, step_marker(step)))
         for step in sorted(steps.load_all(), key=ids.order)]


@pytest.mark.parametrize("step", STEPS)
def test_step(step):
    verdict = judge(step, steps.observe_step(step, 0), steps.expected_observations()[step], "en")
    if EDITION == "learner":
        assert verdict["status"] == "not_implemented", verdict
    else:
        assert verdict["status"] == "passed", verdict
