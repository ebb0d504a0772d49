"""How the grader runs a notebook's step checks: together in one sandboxed interpreter, and a step
that does not pass there again in one of its own (``tools/freshchecks.py``).

The sandbox here is a stand-in that answers with prepared reports, so each case says exactly what
the checks' processes printed; the reference's observations are the real ones.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import freshchecks
from tools.sandbox import Outcome

STEPS = ["1.1", "1.2", "1.3"]
SEEDS = (0, *freshchecks.HIDDEN_SEEDS)
RIGHT = freshchecks.reference_observations(STEPS, SEEDS)  # the reference's own, whichever edition is tested


def wrong(step):
    """A report of ``step`` whose every check crashed."""
    crash = [{"end": "crash", "error": "ValueError: operands could not be broadcast together", "where": ""}]
    return {seed: {name: crash for name in seen} for seed, seen in RIGHT[step].items()}


def unwritten(step, missing=None):
    """A report of ``step`` whose every check met the stub of ``missing`` (by default, its own)."""
    return {seed: {name: [{"end": "stub", "step": missing or step}] for name in seen}
            for seed, seen in RIGHT[step].items()}


class Checks:
    """Stands in for the sandbox: ``answers`` maps the steps of a run (a tuple) to (reports, limit hit)."""

    def __init__(self, answers):
        self.answers, self.runs = answers, []

    def run(self, argv, binds, cwd, stdin=""):
        observed = tuple(argv[argv.index("observe") + 1:argv.index("--out")])
        self.runs.append(observed)
        reports, stopped = self.answers[observed]
        printed = "".join(f"\n{json.dumps({'step': step, 'seen': seen})}\n" for step, seen in reports.items())
        return Outcome(-9 if stopped else 0, "a line the learner's code printed\n" + printed, "", stopped)


def verdicts(checks):
    found = freshchecks.check_steps(checks, "unused", STEPS, "en", hidden={})
    return {step: verdict.kind for step, verdict in found.items()}


def test_a_notebook_that_passes_is_judged_from_one_process():
    checks = Checks({tuple(STEPS): (RIGHT, None)})
    assert verdicts(checks) == dict.fromkeys(STEPS, "passed")
    assert checks.runs == [tuple(STEPS)]


def test_a_step_that_fails_beside_the_others_is_judged_again_alone():
    """Its failure may be an earlier step's doing (state left behind in the shared process)."""
    checks = Checks({tuple(STEPS): ({**RIGHT, "1.2": wrong("1.2")}, None), ("1.2",): ({"1.2": RIGHT["1.2"]}, None)})
    assert verdicts(checks) == dict.fromkeys(STEPS, "passed")
    assert checks.runs == [tuple(STEPS), ("1.2",)]


def test_a_step_that_fails_alone_too_fails():
    checks = Checks({tuple(STEPS): ({**RIGHT, "1.2": wrong("1.2")}, None), ("1.2",): ({"1.2": wrong("1.2")}, None)})
    assert verdicts(checks) == {"1.1": "passed", "1.2": "failed", "1.3": "passed"}


def test_an_untouched_step_is_judged_from_the_shared_process():
    checks = Checks({tuple(STEPS): ({**RIGHT, "1.3": unwritten("1.3")}, None)})
    assert verdicts(checks) == {"1.1": "passed", "1.2": "passed", "1.3": "not_implemented"}
    assert checks.runs == [tuple(STEPS)]


def test_a_stalled_step_costs_one_limit_and_the_steps_after_it_run_on_with_its_stub():
    """Run alone, 1.2 would stall a second time; its stub in place, the steps after it run together again."""
    checks = Checks({tuple(STEPS): ({"1.1": RIGHT["1.1"]}, "wall time limit"), ("1.3",): ({"1.3": RIGHT["1.3"]}, None)})
    stubbed = []
    found = freshchecks.check_steps(checks, "unused", STEPS, "en", hidden={}, stub_out=stubbed.append)
    assert {step: verdict.kind for step, verdict in found.items()} == {"1.1": "passed", "1.2": "stopped",
                                                                       "1.3": "passed"}
    assert found["1.2"].stopped == "wall time limit"
    assert found["1.2"].message == "✗ Step 1.2: the checks were stopped (wall time limit)."
    assert checks.runs == [tuple(STEPS), ("1.3",)] and stubbed == ["1.2"]


def test_a_step_that_reaches_a_stalled_steps_stub_is_told_so_and_not_run_again():
    checks = Checks({tuple(STEPS): ({}, "CPU time limit"), ("1.2", "1.3"): ({"1.2": unwritten("1.2", "1.1"),
                                                                             "1.3": RIGHT["1.3"]}, None)})
    found = freshchecks.check_steps(checks, "unused", STEPS, "en", hidden={})
    assert {step: verdict.kind for step, verdict in found.items()} == {"1.1": "stopped", "1.2": "after_stopped",
                                                                       "1.3": "passed"}
    assert found["1.2"].message == ("✗ Step 1.2: its checks use the code of step 1.1, which was stopped; "
                                    "fix step 1.1 first.")
    assert checks.runs == [tuple(STEPS), ("1.2", "1.3")]


def test_a_crash_is_judged_alone_and_the_steps_after_it_run_together():
    checks = Checks({tuple(STEPS): ({"1.1": RIGHT["1.1"]}, None), ("1.2",): ({}, None),
                     ("1.3",): ({"1.3": RIGHT["1.3"]}, None)})
    assert verdicts(checks) == {"1.1": "passed", "1.2": "no_verdict", "1.3": "passed"}
    assert checks.runs == [tuple(STEPS), ("1.2",), ("1.3",)]


@pytest.mark.parametrize("forged", [{"step": "1.2", "seen": "passed"}, {"step": "1.2"}, ["1.2"]])
def test_a_line_that_is_no_report_is_no_report(forged):
    printed = "\n".join([json.dumps({"step": "1.1", "seen": RIGHT["1.1"]}), json.dumps(forged)])
    assert list(freshchecks._reports(printed, SEEDS)) == ["1.1"]


def test_the_instructors_bytecode_serves_unchanged_copies_and_never_a_changed_file(tmp_path):
    """``compiled`` writes bytecode checked by each source's hash: a copy of the package imports it whatever
    the copy's file times, and a file the learner changed is compiled from what they wrote."""
    package = tmp_path / "instructor" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "kept.py").write_text("WHO = 'instructor'\n")
    (package / "learner.py").write_text("def step():\n    raise NotImplementedError('step 9.9')\n")
    freshchecks.compiled(package)
    pycs = sorted((package / "__pycache__").glob("*.pyc"))
    assert [p.name.split(".")[0] for p in pycs] == ["__init__", "kept", "learner"]
    assert all(int.from_bytes(p.read_bytes()[4:8], "little") == 0b11 for p in pycs)  # checked hash-based
    copy = tmp_path / "submission" / "pkg"
    shutil.copytree(package, copy)  # as fresh_package copies it, __pycache__ included
    (copy / "learner.py").write_text("def step():\n    return 'mine'\n")
    for path in copy.glob("*.py"):
        os.utime(path, (1, 1))  # the copy's times say nothing
    done = subprocess.run([sys.executable, "-B", "-v", "-c", "import pkg.kept, pkg.learner; "
                           "print(pkg.kept.WHO, pkg.learner.step())"], cwd=copy.parent, capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["instructor", "mine"]
    used = [Path(line.split()[-1]) for line in done.stderr.splitlines() if " matches " in line]
    assert sorted(path.name for path in used if path.parent == copy) == ["__init__.py", "kept.py"]  # not learner.py
