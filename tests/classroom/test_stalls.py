"""No submission can stall a class: every stalling kind, three times over in one class run, beside honest students.

Each kind of ``support/stalls.py`` is handed in ``COPIES`` times; the class is graded once by the
instructor's command (``python -m tools.classroom autograde``), under the small limits of
``stalls.LIMITS``. The run must end within ``BOUND`` seconds (the test kills it past that), every
honest student and every stalling one must get the right grade, each stalling submission must be
named in the summary with what stopped it, none may take longer than the watchdog's budget, and
nothing a submission writes may reach the instructor's terminal; the feedback of one of each kind
must say where the grader stopped it. One more student's step 2.1 loops (``stalls.LOOPING``): that step
costs it one limit and its points, nothing more.
"""
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from nbgrader.api import Gradebook

from conftest import ROOT
from support import stalls
from support.once import once
from support.submissions import ASSIGNMENT, EXPECTED_HONEST, HONEST, hand_in
from tools import classroom, classwide, limits, nbgraderapp, sandbox, workers

pytestmark = [pytest.mark.grading,
              pytest.mark.skipif(not sandbox.bwrap_works("bwrap"),
                                 reason="bubblewrap cannot make a sandbox here (not installed, or no namespaces)")]

# Of each stalling kind, in the one class run: 15 stalling submissions for 4 workers, so every worker meets
# several of them, and stalled ones often hold all the workers at once.
COPIES = 3
JOBS = 4  # more workers than the 2 cores: a stalled submission waits, it does not compute
# Seconds the whole class run may take on this 2-core machine: about 65 on an idle one with five copies of each
# kind (less with three), several times that beside the rest of the suite; past the bound the run is killed and
# the test fails.
BOUND = 480
# A student's line in the summary autograde prints: name, outcome, seconds.
TOLD = re.compile(r"^\[\s*\d+/\s*\d+\] (\S+)\s+(ok|FAILED: .*) \(([\d.]+) s\)$", re.MULTILINE)


def grade_the_stalling_class(folder):
    """Hand in the honest students and COPIES of each stalling kind; grade them by the command line."""
    root = folder / "course"
    classroom.init(root, "en")
    stalls.limit(root)
    classroom.release(root, ASSIGNMENT)
    for student, solved in HONEST.items():
        hand_in(root, student, solved, folder / "work")
    for kind in stalls.KINDS:
        for copy in range(COPIES):
            kind.attack(hand_in(root, f"{kind.name}_{copy}", HONEST["partial"], folder / "work"), None)
    stalls.hand_in_looping(root, folder / "work")
    command = [sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT, "--jobs", str(JOBS)]
    start = time.monotonic()
    grading = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = grading.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(grading.pid, signal.SIGKILL)  # the grader and its workers (their sandboxes die with them)
        stdout, stderr = grading.communicate()
    seconds = time.monotonic() - start
    classwide.feedback(root, ASSIGNMENT, jobs=2, out=io.StringIO(),
                       students=[f"{kind.name}_0" for kind in stalls.KINDS] + [stalls.LOOPING])
    facts = {"seconds": seconds, "returncode": grading.returncode, "stdout": stdout, "stderr": stderr}
    (folder / "facts.json").write_text(json.dumps(facts))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = once(tmp_path_factory, "stalling-class", grade_the_stalling_class)
    facts = json.loads((folder / "facts.json").read_text())
    return SimpleNamespace(root=folder / "course", **facts)


def stalling_students():
    return [f"{kind.name}_{copy}" for kind in stalls.KINDS for copy in range(COPIES)]


def test_the_class_run_ends_within_its_bound(run):
    assert run.returncode is not None and run.returncode >= 0, "killed at the bound"
    assert run.seconds < BOUND, run.stdout[-3000:]
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def test_every_student_is_graded_right(run):
    expected = {**EXPECTED_HONEST, **{f"{kind.name}_{copy}": kind.score for kind in stalls.KINDS
                                      for copy in range(COPIES)}, stalls.LOOPING: 4.0}
    summary = run.stdout.rsplit(f"\n{ASSIGNMENT}: ", 1)[-1]
    graded = dict(re.findall(r"^  (\S+)\s+([\d.]+)/[\d.]+$", summary, re.MULTILINE))
    assert {student: float(score) for student, score in graded.items()} == expected
    assert f"{len(expected)} submissions, {len(expected)} graded" in summary


@pytest.mark.parametrize("kind", [kind.name for kind in stalls.KINDS])
def test_the_summary_says_what_stopped_each_stalling_submission(run, kind):
    summary = run.stdout.rsplit(f"\n{ASSIGNMENT}: ", 1)[-1]
    for copy in range(COPIES):
        notes = re.search(rf"^  {kind}_{copy}\s+\S+\n((?:      - .*\n)+)", summary, re.MULTILINE)
        assert notes and re.search(r"stopped|limit", notes[1]), (kind, copy, summary)


@pytest.mark.parametrize("kind", [kind.name for kind in stalls.KINDS])
def test_the_feedback_says_where_the_grader_stopped_a_stalling_submission(run, kind):
    pages = "".join(p.read_text() for p in (run.root / "feedback" / f"{kind}_0").rglob("*.html"))
    assert re.search(r"run was stopped here \(|the checks were stopped \(", pages), kind


def test_no_submission_outlives_its_budget(run):
    told = {student: float(seconds) for student, _, seconds in TOLD.findall(run.stdout)}
    assert set(stalling_students()) <= set(told)
    budget = limits.Limits(**stalls.LIMITS).watchdog_seconds()
    assert max(told.values()) < budget, sorted(told.items(), key=lambda item: -item[1])[:5]


def test_a_looping_step_costs_that_step_and_the_steps_that_run_its_code_only(run):
    """2.1 loops: 2.1 scores nothing, nor 2.3 (its engine runs 2.1's code); 2.2, 2.4 and both answers count."""
    coursedir = nbgraderapp.api(run.root).coursedir
    with Gradebook(coursedir.db_url, coursedir.course_id) as gradebook:
        graded = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, stalls.LOOPING).grades
        assert {grade.name: grade.score for grade in graded} == stalls.LOOPING_POINTS


def stopped_by(run):
    """The limit that stopped the looping step's checks: its CPU time, or the wall time on a busy machine."""
    summary = run.stdout.rsplit(f"\n{ASSIGNMENT}: ", 1)[-1]
    found = re.search(rf"^  {stalls.LOOPING}\s+4/10\n      - the checks of step 2\.1 were stopped: (.*)\n", summary,
                      re.MULTILINE)
    assert found and found[1] in ("CPU time limit", "wall time limit"), summary
    return found[1]


def test_the_summary_names_the_looping_step(run):
    summary = run.stdout.rsplit(f"\n{ASSIGNMENT}: ", 1)[-1]
    notes = re.search(rf"^  {stalls.LOOPING} +4/10\n((?:      - .*\n)+)", summary, re.MULTILINE)
    assert notes and notes[1] == (
        f"      - the checks of step 2.1 were stopped: {stopped_by(run)}\n"
        "      - the notebook ran with the stub of step 2.1 in place of its code, which stalled or crashed its "
        "checks\n"), summary


def test_the_feedback_of_the_looping_student_names_the_stalled_step_and_grades_the_answers(run):
    page = (run.root / "feedback" / stalls.LOOPING / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    verdicts = re.findall(r"[✓✗] (?:Step |q)2\.\d[^<\n]*", page)
    assert verdicts == [f"✗ Step 2.1: the checks were stopped ({stopped_by(run)}).",
                        "✓ Step 2.2 passed (3 checks).",
                        "✗ Step 2.3: its checks use the code of step 2.1, which was stopped; fix step 2.1 first.",
                        "✓ Step 2.4 passed (5 checks).", "✓ q2.1: right.", "✓ q2.2: right."]
    assert "the notebook ran with the stub of step 2.1 in place of its code, which stalled or crashed its checks" \
        in page


def test_nothing_a_submission_writes_reaches_the_instructors_terminal(run):
    assert "from the student's package" not in run.stdout + run.stderr
    assert "flood flood" not in run.stdout + run.stderr


@pytest.fixture
def small_sandbox(tmp_path):
    """A sandbox whose runs may take 3 s each, running Python in ``tmp_path``."""
    box = sandbox.Sandbox()
    box.limits.checks_seconds, box.limits.output_mb = 3, 1
    return lambda code, **kwargs: box.run([sys.executable, "-c", code], [(tmp_path, False)], tmp_path, **kwargs)


def test_a_check_that_floods_its_pipe_is_stopped_at_the_output_limit(small_sandbox):
    outcome = small_sandbox("while True:\n    print('x' * 100_000)")
    assert outcome.stopped == "output limit"
    assert len(outcome.stdout) <= 1 << 20


def test_a_check_that_closes_its_pipes_and_sleeps_is_stopped_at_its_time_limit(small_sandbox):
    start = time.monotonic()
    outcome = small_sandbox("import os, time\nos.close(1)\nos.close(2)\ntime.sleep(100)")
    assert outcome.stopped == "wall time limit" and time.monotonic() - start < 10


def test_a_check_past_the_submissions_deadline_is_stopped_there(tmp_path):
    box = sandbox.Sandbox()
    box.deadline = time.monotonic() + 1
    start = time.monotonic()
    outcome = box.run([sys.executable, "-c", "import time; time.sleep(100)"], [(tmp_path, False)], tmp_path)
    assert outcome.stopped == "submission time limit" and time.monotonic() - start < 10


def test_a_check_inherits_no_descriptor_of_the_grader(small_sandbox, tmp_path):
    with open(tmp_path / "grader-only", "w") as handle:
        os.set_inheritable(handle.fileno(), True)  # even one marked inheritable stays with the grader
        outcome = small_sandbox("import os; print(sorted(os.listdir('/proc/self/fd')))")
    assert outcome.stdout.strip() in ("['0', '1', '2', '3']", "['0', '1', '2']"), outcome  # 3: the listing itself


def test_a_workers_answer_is_read_as_json_never_unpickled():
    for garbage in (b"\x80\x04\x95garbage", b"[1, 2]", b"null", b"{"):
        with pytest.raises(ValueError):
            workers._decode(garbage)
    assert str(workers._decode(b'{"raised": "boom"}')) == "the grading failed: boom"
