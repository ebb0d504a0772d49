"""A class of hostile submissions beside honest ones, graded once, in parallel, in the sandbox.

Each hostile kind (see ``hostile/submissions.py``) must be graded right, leak nothing (hidden
tests, solutions, the gradebook, the grader's environment), write nothing outside its own
folder, reach no network, leave no process behind, and leave every other grade intact.
"""
import contextlib
import ctypes
import csv
import hashlib
import importlib.util
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from support.submissions import (ASSIGNMENT, EXPECTED_HONEST, HIDDEN_MARKER, HONEST, KINDS, MINE, TORCH_MM_BACKWARD,
                                 Context, add_hidden_test, graded_points, hand_in, replace_stub)
from support.once import once
from tools import build, classroom, classwide, editions, sandbox

pytestmark = [pytest.mark.grading,
              pytest.mark.skipif(not sandbox.bwrap_works("bwrap"),
                                 reason="bubblewrap cannot make a sandbox here (not installed, or no namespaces)")]

# Small limits, so that the attacks end quickly; honest notebooks need a fraction of them.
LIMITS = """
c.Limits.cpu_seconds = 4
c.Limits.notebook_seconds = 40
c.Limits.checks_seconds = 40
c.Limits.cell_seconds = 10
"""
SECRET, CANARY, ENV_CANARY = "secret-5e1f-outside-the-course", "canary-77c3-untouched", "grader-env-canary-91d0"
PR_SET_CHILD_SUBREAPER = 36  # prctl option: orphans below this process become its children
EXPECTED = {**EXPECTED_HONEST, **{kind.name: kind.score for kind in KINDS}}


def grade_the_class(folder):
    """Hand in, grade and give feedback to the class in ``folder``/course; keep what the tests need in facts.json."""
    root, outside = folder / "course", folder / "outside"
    classroom.init(root, "en")
    with open(root / "nbgrader_config.py", "a") as config:
        config.write(LIMITS)
    add_hidden_test(root)
    classroom.release(root, ASSIGNMENT)
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    (outside / "canary.txt").write_text(CANARY)
    with socket.create_server(("0.0.0.0", 0)) as listener:
        ctx = Context(root, "partial", outside / "secret.txt", outside / "canary.txt", listener.getsockname()[1],
                      ("127.0.0.1", own_address()))
        for student, solved in HONEST.items():
            hand_in(root, student, solved, folder / "work")
        for kind in KINDS:
            kind.attack(hand_in(root, kind.name, HONEST[kind.base], folder / "work"), ctx)
        before = manifest(root)
        summary = io.StringIO()
        with pytest.MonkeyPatch.context() as patch, adopting_orphans():
            patch.setenv("MINIGRAD_GRADER_CANARY", ENV_CANARY)
            results = classwide.autograde(root, ASSIGNMENT, jobs=2, out=summary)
            survivors = sandboxed_children()
        listener.setblocking(False)
        connections = 0
        with contextlib.suppress(BlockingIOError):
            while listener.accept():
                connections += 1
    classwide.feedback(root, ASSIGNMENT, jobs=2, out=io.StringIO())
    classroom.export(root, root / "grades.csv")
    facts = {"summary": summary.getvalue(), "before": before, "connections": connections, "survivors": survivors,
             "results": {r.student: {"ok": r.ok, "error": r.error, "notes": r.notes} for r in results}}
    (folder / "facts.json").write_text(json.dumps(facts))


@contextlib.contextmanager
def adopting_orphans():
    """Make this process the parent of whatever the grading leaves running (a fork bomb's children, say)."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
    finally:
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:  # bury the adopted dead
                pass


def sandboxed_children():
    """This process's live children running as a sandbox uid, once the dying have had a few seconds."""
    uids = range(sandbox.UID_BASE, sandbox.UID_BASE + sandbox.UID_SLOTS)
    for _ in range(50):
        found = []
        for status in Path("/proc").glob("[0-9]*/status"):
            with contextlib.suppress(OSError):
                fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
                if (int(fields["PPid"]) == os.getpid() and int(fields["Uid"].split()[0]) in uids
                        and not fields["State"].strip().startswith("Z")):
                    found.append(status.parent.name)
        if not found:
            break
        time.sleep(0.1)
    return found


def own_address():
    """This machine's address on its network (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
        except OSError:
            return "127.0.0.1"
        return probe.getsockname()[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = once(tmp_path_factory, "hostile-class", grade_the_class)
    facts = json.loads((folder / "facts.json").read_text())
    return SimpleNamespace(root=folder / "course", outside=folder / "outside", **facts)


def manifest(root):
    """A hash of every file the grading must leave alone (a repaired notebook is expected to change; the
    grader's own bytecode of the instructor's package is checked by ``bytecode_of_the_sources``)."""
    files = [root / "nbgrader_config.py", *root.glob("source/**/*"), *root.glob("release/**/*"),
             *root.glob("submitted/**/*")]
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files
            if p.is_file() and "malformed_json" not in p.parts
            and not (p.relative_to(root).parts[0] == "source" and "__pycache__" in p.parts)}


def bytecode_of_the_sources(root):
    """Whether every file in the instructor's ``__pycache__`` folders is the bytecode ``freshchecks.compiled``
    writes: a .pyc of a source beside it, checked by that source's hash (nothing else was written there)."""
    for pyc in root.glob("source/**/__pycache__/*"):
        source = pyc.parent.parent / (pyc.name.split(".")[0] + ".py")
        data = pyc.read_bytes()
        if not (pyc.suffix == ".pyc" and source.is_file() and int.from_bytes(data[4:8], "little") == 0b11
                and data[8:16] == importlib.util.source_hash(source.read_bytes())):
            return False
    return True


def grades(root):
    with open(root / "grades.csv") as handle:
        return {row["student_id"]: (float(row["score"]), float(row["max_score"])) for row in csv.DictReader(handle)}


def notebook(graded, student):
    return nbformat.read(graded.root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)


def outputs_text(graded, student):
    """Everything a student's graded notebook printed."""
    return "\n".join(str(output) for cell in notebook(graded, student).cells for output in cell.get("outputs", []))


def feedback_text(graded, student):
    return "\n".join(p.read_text() for p in (graded.root / "feedback" / student).rglob("*.html"))


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_each_submission_is_graded_right(graded, student):
    assert graded.results[student]["ok"], graded.results[student]["error"]
    # Nobody here answers the practice questions: the scores are the steps' points, out of the whole notebook's.
    total = float(sum(graded_points(graded.root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").values()))
    assert grades(graded.root)[student] == (EXPECTED[student], total)


@pytest.mark.parametrize("student, stopped", [
    ("infinite_loop", "the notebook was stopped at cell 2: (CPU|wall) time limit"),
    ("endless_sleep", "the notebook was stopped at cell 2: wall time limit"),
    ("os_exit", "the notebook was stopped at cell 2: the kernel exited with code 0"),
    ("output_flood", "the notebook was stopped at cell 2: .*limit|cell 2 hit the memory limit"),  # the first to hit
    ("memory_bomb", "cell 2 hit the memory limit"),
    ("fork_bomb", "cell 2 hit the process limit"),
    ("package_exit", "the checks of step 2.4 crashed without a verdict"),
    ("package_infinite_loop", "the checks of step 2.3 were stopped: (CPU|wall) time limit"),
    ("malformed_json", "02_gradients.ipynb was unreadable or missing"),
    ("missing_package_file", "minigrad/autograd/graph.py was not submitted"),
])
def test_the_summary_names_what_stopped_a_submission(graded, student, stopped):
    notes = graded.results[student]["notes"]
    assert any(re.match(stopped, note) for note in notes), notes
    assert re.search(f"{student} .*\n(      - .*\n)*      - (?:{stopped})", graded.summary)


@pytest.mark.parametrize("student, error", [("memory_bomb", "MemoryError"), ("fork_bomb", "BlockingIOError")])
def test_limits_raise_in_the_cell_that_hits_them(graded, student, error):
    assert error in outputs_text(graded, student)


def test_graded_cells_never_run_in_the_kernel(graded):
    """A partial submission's notebook: the checks of its two steps print, the other steps' raise, and the
    optional challenge's prints that it is not started (graded cells are judged elsewhere, never here)."""
    checks = [c for c in notebook(graded, "monkeypatch").cells if c.source.startswith("minigrad.check(")]
    assert [c.outputs[0].output_type for c in checks] == ["stream"] * 2 + ["error"] * (len(MINE) - 2) + ["stream"]


def leaks(graded):
    """Text a student must never see: hidden tests, solutions, the gradebook, the grader's secrets."""
    engine = (build.PACKAGE / "autograd" / "engine.py").read_text()
    body = next(region[3] for region in editions.regions(engine) if region[0] == "2.3")
    solution = [line.strip() for line in body if len(line.strip()) > 20 and not set(line) & set("<>&\"'")]
    return [HIDDEN_MARKER, SECRET, ENV_CANARY, "SQLite format 3", *solution]


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_nothing_leaks_into_outputs_or_feedback(graded, student):
    seen = outputs_text(graded, student) + feedback_text(graded, student)
    assert feedback_text(graded, student), "no feedback was written"
    for secret in leaks(graded):
        assert secret not in seen, f"{secret!r} leaked to {student}"
    assert HIDDEN_MARKER not in (graded.root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()


def test_hidden_tests_still_grade(graded):
    verdict = notebook(graded, "steals_hidden_test").cells
    cell = next(c for c in verdict if c.source.startswith('minigrad.check("2.1")'))
    assert cell.outputs[0].ename == "CheckFailed" and "further checks" in cell.outputs[0].evalue


def test_nothing_is_written_outside_a_submission(graded):
    assert manifest(graded.root) == graded.before
    assert bytecode_of_the_sources(graded.root)
    assert (graded.outside / "canary.txt").read_text() == CANARY
    assert not Path("/tmp/minigrad-hostile-was-here").exists()
    assert not (graded.root / "gradebook.db").read_bytes().endswith(b"pwned")
    written = {p.name for p in (graded.root / "autograded").rglob("*")}
    assert not {"sitecustomize.py", "pwned"} & written
    assert (graded.root / "autograded" / "deletes_own_package" / ASSIGNMENT / "minigrad").is_dir()


def test_no_network_reaches_the_grader(graded):
    assert graded.connections == 0
    assert "connected" not in outputs_text(graded, "network")


def test_no_sandboxed_process_outlives_the_grading(graded):
    assert graded.survivors == []


def test_the_torch_answer_is_right_where_torch_is_allowed(tmp_path):
    """The control for imports_torch: outside the sandbox its step passes, so only the sandbox stops it."""
    pytest.importorskip("torch")
    folder = tmp_path / "submission"
    editions.write_package(build.PACKAGE, folder / "minigrad", keep=HONEST["partial"])
    replace_stub(folder, "2.4", TORCH_MM_BACKWARD)
    done = subprocess.run([sys.executable, "-m", "minigrad.steps", "2.4"], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(folder)})
    assert '"status": "passed"' in done.stdout, done.stdout + done.stderr
