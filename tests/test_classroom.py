"""The instructor's workflow with real nbgrader: init, release, collect (exchange and LMS zip),
parallel autograde, feedback without hidden tests, export; a PostgreSQL gradebook graded by
parallel workers; and grading that goes on, loudly, where there is no sandbox."""
import csv
import getpass
import glob
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy

from conftest import ROOT
from hostile.submissions import (ASSIGNMENT, EXPECTED_HONEST, HIDDEN_MARKER, HONEST, add_hidden_test, graded_points,
                                 hand_in, solved_copy)
from hostile.database import postgres  # noqa: F401 - a fixture
from hostile.once import once
from tools import classroom, classwide, grading, nbgraderapp, sandbox

pytestmark = pytest.mark.grading
needs_sandbox = pytest.mark.skipif(not sandbox.bwrap_works("bwrap"),
                                   reason="bubblewrap cannot make a sandbox here (not installed, or no namespaces)")


def grades(root):
    classroom.export(root, root / "grades.csv")
    with open(root / "grades.csv") as handle:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(handle)}


def student_nbgrader(home, *args):
    """A student's own nbgrader command (fetch, submit), run from their home folder."""
    env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--course", "minigrad"], cwd=home, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


ROSTER = """student_id,name,email,canvas_id,sis_user_id,sis_login_id,section
alice,"Smith, Alice",alice@example.edu,1001,S1001,asmith,A
bob,Bob Stone,bob@example.edu,,S1002,bstone,B
carol,"Wu, Carol",carol@example.edu,1003,S1003,cwu,B
"""
# Moodle's grading worksheet of the assignment: its participant ids are the assignment's own.
WORKSHEET = """Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,Feedback comments
Participant 42,Bob Stone,bob@example.edu,Submitted for grading,,6.00,Yes,
Participant 43,"Wu, Carol",carol@example.edu,No submission,,6.00,Yes,
"""


def canvas_download(path, student, folder):
    """A Canvas download: the zip of the assignment folder ``student`` uploaded, late, named as Canvas names it."""
    upload = io.BytesIO()
    with zipfile.ZipFile(upload, "w") as inner:
        for file in folder.rglob("*"):
            inner.write(file, f"{ASSIGNMENT}/{file.relative_to(folder)}")
    with zipfile.ZipFile(path, "w") as download:
        download.writestr(f"{student}_late_1001_88001_{ASSIGNMENT}.zip", upload.getvalue())


def moodle_download(path, student, folder):
    """A Moodle download as folders: the files ``student`` uploaded, at their paths."""
    with zipfile.ZipFile(path, "w") as download:
        for file in folder.rglob("*"):
            download.write(file, f"{student}_42_assignsubmission_file/{file.relative_to(folder)}")


def run_the_class(folder):
    """A class collected both ways and graded by the command line: the user running the tests through the
    exchange, alice from a Canvas download, bob from a Moodle one (both mapped by the roster), blank handed
    in directly."""
    root, work = folder / "course", folder / "students"
    classroom.init(root, "en")
    (root / "roster.csv").write_text(ROSTER)
    add_hidden_test(root)
    classroom.release(root, ASSIGNMENT, to_exchange=True)
    exchange = f"--Exchange.root={root / 'exchange'}"
    work.mkdir()
    student_nbgrader(work, "fetch_assignment", ASSIGNMENT, exchange)
    solved_copy(root, work / ASSIGNMENT, HONEST["reference"], work / "scratch")
    student_nbgrader(work, "submit", ASSIGNMENT, exchange)
    classroom.collect_submissions(root, ASSIGNMENT, out=io.StringIO())
    alice = solved_copy(root, work / "alice", HONEST["reference"], work / "scratch")
    bob = solved_copy(root, work / "bob", HONEST["partial"], work / "scratch")
    canvas_download(work / "canvas.zip", "smithalice", alice)
    moodle_download(work / "moodle.zip", "Bob Stone", bob)
    (work / "worksheet.csv").write_text(WORKSHEET)
    collected = io.StringIO()
    classroom.collect_submissions(root, ASSIGNMENT, work / "canvas.zip", out=collected)
    classroom.collect_submissions(root, ASSIGNMENT, work / "moodle.zip", worksheet=work / "worksheet.csv",
                                  out=collected)
    hand_in(root, "blank", HONEST["blank"], work / "scratch")
    command = [sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT, "--jobs", "2"]
    graded = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    classroom.feedback(root, ASSIGNMENT, jobs=2, to_exchange=True, out=io.StringIO())
    facts = {"collected": collected.getvalue(), "returncode": graded.returncode, "stdout": graded.stdout,
             "stderr": graded.stderr}
    (folder / "facts.json").write_text(json.dumps(facts))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    folder = once(tmp_path_factory, "classroom", run_the_class)
    return SimpleNamespace(root=folder / "course", **json.loads((folder / "facts.json").read_text()))


def test_init_writes_the_grading_config(tmp_path):
    classroom.init(tmp_path, "zh")
    config = nbgraderapp.config(tmp_path)
    assert config.Autograde.exclude_overwriting[ASSIGNMENT] == classroom.learner_files(2)
    assert grading.SandboxedExecute in config.Autograde.autograde_preprocessors
    assert "Execute" not in [p.__name__ for p in config.Autograde.autograde_preprocessors]
    assert "ClearHiddenTests" in [p.__name__ for p in config.GenerateFeedback.preprocessors]
    assert config.SandboxedExecute.language == "zh"
    assert config.ClearSolutions.code_stub == {"python": ""}  # a released answer cell keeps "answer_qN_M = None"
    assert config.CourseDirectory.db_url.startswith("sqlite:///")


@needs_sandbox
def test_both_ways_in_are_collected_with_their_package_files(course):
    root = course.root
    assert {getpass.getuser(), "alice", "bob"} <= set(os.listdir(root / "submitted"))
    for student in (getpass.getuser(), "alice", "bob"):
        for name in classroom.learner_files(2):
            assert (root / "submitted" / student / ASSIGNMENT / name).is_file(), (student, name)
    assert "alice" in course.collected and "all package files" in course.collected


@needs_sandbox
def test_the_command_line_grades_the_class_in_parallel_and_sums_up(course):
    assert course.returncode == 0, course.stdout + course.stderr
    assert "[  4/4]" in course.stdout and "4 submissions, 4 graded, 0 with notes, 0 failed" in course.stdout
    assert grades(course.root) == {getpass.getuser(): 4.0, "alice": 4.0, "bob": 2.0, "blank": 0.0}


@needs_sandbox
def test_lms_downloads_are_mapped_by_the_roster_and_checked(course):
    assert "alice" in course.collected and "bob" in course.collected and "smithalice" not in course.collected
    check = course.collected.split("roster: 3 students, ")[-1].splitlines()
    assert check[0] == "2 with a submission"
    assert check[1:3] == ["  missing (in the roster, no submission): 1", "    carol"]
    assert check[3:5] == ["  unknown (submitted, not in the roster): 1", f"    {getpass.getuser()}"]
    assert "  late (as the LMS marks it): 1\n    alice" in course.collected


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@needs_sandbox
def test_grades_export_in_the_layouts_canvas_and_moodle_import(course, tmp_path):
    out = io.StringIO()
    written = classroom.export(course.root, tmp_path / "grades.csv", out=out)
    with open(tmp_path / "grades.csv") as handle:
        nbgrader = {row["student_id"]: row for row in csv.DictReader(handle) if row["assignment"] == ASSIGNMENT}
    top = f"{float(nbgrader['alice']['max_score']):g}"
    score = {student: f"{float(nbgrader[student]['score']):g}" if student in nbgrader else ""
             for student in ("alice", "bob", "carol")}
    assert score["carol"] == "" and score["bob"] == "2"
    canvas = read_csv(tmp_path / "canvas" / f"{ASSIGNMENT}.csv")
    assert canvas == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", ASSIGNMENT],
                      ["    Points Possible", "", "", "", "", top],
                      ["Smith, Alice", "1001", "S1001", "asmith", "A", score["alice"]],
                      ["Bob Stone", "", "S1002", "bstone", "B", score["bob"]],
                      ["Wu, Carol", "1003", "S1003", "cwu", "B", ""]]
    assert read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}.csv") == [
        ["Full name", "Email address", ASSIGNMENT], ["Smith, Alice", "alice@example.edu", score["alice"]],
        ["Bob Stone", "bob@example.edu", score["bob"]], ["Wu, Carol", "carol@example.edu", ""]]
    worksheet = read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}-worksheet.csv")
    assert worksheet[0] == WORKSHEET.splitlines()[0].split(",")
    assert [(row[0], row[4]) for row in worksheet[1:]] == [("Participant 42", score["bob"]), ("Participant 43", "")]
    assert len(written) == 3 and all(str(path) in out.getvalue() for path in written)
    left_out = ", ".join(sorted(["blank", getpass.getuser()]))  # graded, not in the roster
    assert f"graded but not in the roster, so in no file for an LMS: {left_out}" in out.getvalue()


@needs_sandbox
def test_feedback_keeps_hidden_tests_hidden(course):
    root = course.root
    pages = glob.glob(str(root / "feedback" / "*" / ASSIGNMENT / "*.html"))
    assert len(pages) == 4
    assert all(HIDDEN_MARKER not in Path(page).read_text() for page in pages)
    assert HIDDEN_MARKER in (root / "autograded" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    assert list((root / "exchange" / "minigrad" / "feedback").iterdir())


@needs_sandbox
def test_a_postgresql_gradebook_takes_parallel_graders(postgres, tmp_path):
    root = tmp_path / "course"
    classroom.init(root, "en", db_url=postgres)
    classroom.release(root, ASSIGNMENT)
    for student, solved in HONEST.items():
        hand_in(root, student, solved, tmp_path / "work")
    results = classwide.autograde(root, ASSIGNMENT, jobs=3, out=io.StringIO())
    assert {r.student: (r.ok, r.score) for r in results} == {s: (True, g) for s, g in EXPECTED_HONEST.items()}
    assert not (root / "gradebook.db").exists()
    with sqlalchemy.create_engine(postgres).connect() as db:  # the grades really are in PostgreSQL
        graded_cells = len(graded_points(root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"))
        assert db.execute(sqlalchemy.text("SELECT count(*) FROM grade")).scalar() == graded_cells * len(EXPECTED_HONEST)


def test_without_a_sandbox_the_class_is_still_graded_loudly(tmp_path):
    root = tmp_path / "course"
    classroom.init(root, "en")
    with open(root / "nbgrader_config.py", "a") as config:
        config.write('c.Sandbox.bwrap = "/nonexistent/bwrap"\n')
    classroom.release(root, ASSIGNMENT)
    for student in ("reference", "blank"):
        hand_in(root, student, HONEST[student], tmp_path / "work")
    summary = io.StringIO()
    results = classwide.autograde(root, ASSIGNMENT, jobs=2, out=summary)
    assert {r.student: (r.ok, r.score) for r in results} == {"reference": (True, 4.0), "blank": (True, 0.0)}
    assert summary.getvalue().count(sandbox.UNSANDBOXED) == 2
    assert '"sandbox": false' in (root / "autograded" / "blank" / ASSIGNMENT / grading.REPORT).read_text()


def grading_that_fails_on_mallory(assignment, student):
    """A stand-in for grading one student, which goes wrong for mallory the way the student's name says."""
    if student == "mallory":
        os._exit(1)
    if student == "mallory_hangs":
        threading.Event().wait()  # a wait without a deadline, as a stuck kernel client's
    if student == "mallory_garbles":
        return {"ok": "yes", "seconds": None}
    if student == "mallory_raises":
        raise RuntimeError("a bug in grading mallory_raises")
    return {"ok": True, "seconds": 0.0, "notes": [], "error": ""}


@pytest.mark.parametrize("mallory, why", [
    ("mallory", r"its grading process died \(exit code 1\)"),
    ("mallory_hangs", r"the watchdog stopped its grading after 10 s"),
    ("mallory_garbles", r"its grading process answered garbage"),
    ("mallory_raises", r"the grading failed: RuntimeError\('a bug in grading mallory_raises'\)"),
])
def test_a_worker_that_dies_hangs_or_garbles_fails_only_its_student(tmp_path, mallory, why):
    classroom.init(tmp_path, "en")
    with open(tmp_path / "nbgrader_config.py", "a") as config:
        # Short, but long enough for a worker started afresh on a busy machine to grade a stand-in.
        config.write("c.Limits.submission_seconds = 8\nc.Limits.grace_seconds = 2\n")
    progress = io.StringIO()
    start = time.monotonic()
    results = classwide._in_parallel(tmp_path, grading_that_fails_on_mallory,
                                     [(ASSIGNMENT, s) for s in ["alice", "bob", mallory, "carol", "dave"]], 2,
                                     progress)
    assert time.monotonic() - start < 60  # five stand-ins, a watchdog of 10 s, and workers started afresh
    assert [(r.student, r.ok) for r in results] == [("alice", True), ("bob", True), ("carol", True),
                                                    ("dave", True), (mallory, False)]
    assert re.match(why, results[-1].error), results[-1].error
    assert re.search(rf"\[  \d/5\] {mallory} +FAILED: {why}", progress.getvalue()), progress.getvalue()
