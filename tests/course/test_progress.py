"""``minigrad.progress()``: every step as passed, failing or not started, from one fresh process."""
import os
import subprocess
import sys

import pytest

from conftest import EDITION
from minigrad import messages, steps
from minigrad.steps import ids
from minigrad.check import progress_report
from tools import build, editions

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="builds its own editions from the reference")
STEPS = [s for s in sorted(steps.load_all(), key=ids.order) if not ids.is_challenge(s)]


def _progress_of(package_parent):
    done = subprocess.run([sys.executable, "-c", "import minigrad; minigrad.progress()"], cwd=package_parent,
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(package_parent)))
    return done.stdout


def test_a_half_done_course_shows_each_step_as_it_stands(tmp_path):
    solved = {"1.1", "1.2", "1.3", "1.4", "2.1", "2.2"}
    editions.write_package(build.PACKAGE, tmp_path / "minigrad", keep=solved)
    arithmetic = tmp_path / "minigrad" / "rules" / "chapter1.py"
    arithmetic.write_text(arithmetic.read_text().replace("sum_to(grad * self_, self.other_shape)", "grad * self_"))
    shown = _progress_of(tmp_path).splitlines()
    assert shown[0] == f"Progress: 5 of {len(STEPS)} steps passed, 1 failing, {len(STEPS) - 6} not started."
    assert shown[1].startswith("chapter 1:   ✓ 1.1   ✓ 1.2   ✓ 1.3   ✗ 1.4")
    assert shown[2].startswith("chapter 2:   ✓ 2.1   ✓ 2.2   · 2.3   · 2.4")
    assert shown[-1] == 'Failing: 1.4. Run minigrad.check("1.4") to see why.'


def test_the_reference_passes_every_step(package_env):
    assert _progress_of(package_env).splitlines()[0] == f"Progress: {len(STEPS)} of {len(STEPS)} steps passed, 0 failing, 0 not started."


def test_a_step_waiting_for_an_earlier_one_says_which(monkeypatch):
    monkeypatch.setattr(messages, "_language", "zh")
    verdicts = {"2.2": {"status": "passed"}, "2.3": {"status": "failed"},
                "4.4": {"status": "not_implemented", "missing": "2.3"}}
    assert progress_report(verdicts).splitlines() == [
        "进度：3 步中已通过 1 步，1 步未通过，1 步尚未开始。",
        "第 2 章：   ✓ 2.2   ✗ 2.3",
        "第 4 章：   · 4.4（需要先完成 2.3）",
        '未通过：2.3。运行 minigrad.check("2.3") 查看原因。',
    ]


def test_challenges_are_shown_apart_and_not_counted():
    verdicts = {"1.1": {"status": "passed"}, "C1": {"status": "not_implemented"}, "2.1": {"status": "passed"},
                "C2": {"status": "passed"}}
    assert progress_report(verdicts).splitlines() == [
        "Progress: 2 of 2 steps passed, 0 failing, 0 not started.",
        "chapter 1:   ✓ 1.1",
        "chapter 2:   ✓ 2.1",
        "optional challenges:   · C1   ✓ C2",
    ]
