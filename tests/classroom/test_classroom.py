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
import shutil
import subprocess
import sys
import threading
import time
import warnings
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy

from conftest import ROOT
from support.submissions import (ASSIGNMENT, EXPECTED_HONEST, HIDDEN_MARKER, HONEST, MINE, add_hidden_test,
                                 answer_cells, graded_points, hand_in, solved_copy)
from support.database import postgres  # noqa: F401 - a fixture
from support.once import once
from tools import build, classroom, classwide, collect, editions, feedback_page, grading, grading_report, nbgraderapp
from tools import sandbox

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
    released = io.StringIO()
    classroom.release(root, ASSIGNMENT, to_exchange=True, out=released)
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
    key = answer_cells(root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    shutil.rmtree(hand_in(root, "no_package", HONEST["reference"], work / "scratch", answers=key) / "minigrad")
    command = [sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT, "--jobs", "2"]
    graded = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    returned = io.StringIO()
    classroom.feedback(root, ASSIGNMENT, jobs=2, to_exchange=True, out=returned)
    facts = {"collected": collected.getvalue(), "returncode": graded.returncode, "stdout": graded.stdout,
             "stderr": graded.stderr, "released": released.getvalue(), "returned": returned.getvalue()}
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
    # The last collect's summary: a line per student of the three, then the roster check.
    last = course.collected.splitlines()
    last = last[max(i for i, line in enumerate(last) if line.startswith(f"{ASSIGNMENT}: ")):]
    assert last[0] == f"{ASSIGNMENT}: 3 submissions"
    lines = dict(line.split(None, 1) for line in last[1:4])
    # Every file holding a graded step of the chapter; the one holding only its optional challenge stays as released.
    solved = [name for name in classroom.learner_files(2)
              if any(step in MINE for step, *_ in editions.regions((build.SOLUTIONS / name).read_text()))]
    everything = "changed: " + ", ".join(solved)
    assert lines[getpass.getuser()] == lines["alice"] == everything
    assert lines["bob"].startswith("changed: ") and lines["bob"] != everything  # only the two steps bob solved


@needs_sandbox
def test_release_says_what_went_where(course):
    assert course.released.splitlines() == [
        f"{ASSIGNMENT} released in {course.root / 'release' / ASSIGNMENT}: {ASSIGNMENT}.ipynb, and the package, of "
        f"which the student writes {len(classroom.learner_files(2))} files ({', '.join(classroom.learner_files(2))})",
        f"published to nbgrader's exchange ({course.root / 'exchange'}): every student of the course can fetch it "
        "now"]


@needs_sandbox
def test_the_command_line_grades_the_class_in_parallel_and_sums_up(course):
    assert course.returncode == 0, course.stdout + course.stderr
    assert "[  5/5]" in course.stdout and "5 submissions, 5 graded, 1 with notes, 0 failed" in course.stdout
    questions = sum(points for cell, points in graded_points(course.root / "source" / ASSIGNMENT /
                                                              f"{ASSIGNMENT}.ipynb").items() if cell.startswith("q"))
    assert questions > 0
    full = EXPECTED_HONEST["reference"]
    assert grades(course.root) == {getpass.getuser(): full, "alice": full, "bob": 2.0, "blank": 0.0,
                                   "no_package": float(questions)}


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
    # Moodle's grades out of the worksheet's Maximum Grade (6.00), as Moodle shows them.
    moodle = {student: f"{float(score[student]) / float(top) * 6:.2f}" for student in ("alice", "bob")}
    assert moodle["bob"] == "1.20"
    assert read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}.csv") == [
        ["Full name", "Email address", ASSIGNMENT], ["Smith, Alice", "alice@example.edu", moodle["alice"]],
        ["Bob Stone", "bob@example.edu", "1.20"], ["Wu, Carol", "carol@example.edu", ""]]
    worksheet = read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}-worksheet.csv")
    assert worksheet[0] == WORKSHEET.splitlines()[0].split(",")
    assert [(row[0], row[4]) for row in worksheet[1:]] == [("Participant 42", "1.20"), ("Participant 43", "")]
    assert len(written) == 3 and all(str(path) in out.getvalue() for path in written)
    left_out = ", ".join(sorted(["blank", "no_package", getpass.getuser()]))  # graded, not in the roster
    assert f"graded but not in the roster, so in no file for an LMS: {left_out}" in out.getvalue()


@needs_sandbox
def test_feedback_keeps_hidden_tests_hidden(course):
    root = course.root
    pages = glob.glob(str(root / "feedback" / "*" / ASSIGNMENT / "*.html"))
    assert len(pages) == 5
    assert all(HIDDEN_MARKER not in Path(page).read_text() for page in pages)
    assert HIDDEN_MARKER in (root / "autograded" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    assert list((root / "exchange" / "minigrad" / "feedback").iterdir())


@needs_sandbox
def test_feedback_returns_pages_only_and_says_where(course):
    """Only the pages go back (nbgrader would copy the package and the grading report too): in each student's
    folder, in the exchange, and in the chapter's zip for an LMS; the summary says where."""
    students = sorted(p.name for p in (course.root / "feedback").iterdir())
    for student in students:
        kept = {p.name for p in (course.root / "feedback" / student / ASSIGNMENT).rglob("*") if p.is_file()}
        assert kept - feedback_page.EXCHANGE_FILES == {f"{ASSIGNMENT}.html"}, (student, kept)
        assert f"  {student} " in course.returned and f"feedback/{student}/{ASSIGNMENT}/{ASSIGNMENT}.html" in \
            course.returned
    returned = [p for p in (course.root / "exchange" / "minigrad" / "feedback").rglob("*") if p.is_file()]
    assert returned and all(p.suffix == ".html" for p in returned)
    with zipfile.ZipFile(course.root / "feedback-bundles" / f"{ASSIGNMENT}.zip") as bundle:
        assert sorted(bundle.namelist()) == [f"{s}/{ASSIGNMENT}.html" for s in students]
    assert f"{ASSIGNMENT}: feedback for 5 of 5 students, 0 failed" in course.returned
    through_exchange = len(list((course.root / "feedback").glob(f"*/{ASSIGNMENT}/timestamp.txt")))
    assert f"returned through nbgrader's exchange to {through_exchange} students" in course.returned


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
    assert {r.student: (r.ok, r.score) for r in results} == {"reference": (True, EXPECTED_HONEST["reference"]),
                                                                       "blank": (True, 0.0)}
    assert summary.getvalue().count(sandbox.UNSANDBOXED) == 2
    assert '"sandbox": false' in (root / "autograded" / "blank" / ASSIGNMENT / grading_report.REPORT).read_text()


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


def test_collect_tells_an_untouched_release_from_a_changed_one(tmp_path):
    files = ["minigrad/autograd/engine.py", "minigrad/autograd/graph.py"]
    for folder in ("release/A", "submitted/same/A", "submitted/edited/A", "submitted/partly/A"):
        for name in files:
            (tmp_path / folder / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / folder / name).write_text("raise NotImplementedError\n")
    (tmp_path / "submitted/edited/A" / files[1]).write_text("return 42\n")
    (tmp_path / "submitted/partly/A" / files[0]).unlink()
    said = {who: classroom.handed_in(tmp_path, "A", who, files, "en") for who in ("same", "edited", "partly")}
    assert said == {"same": "no package file changed since the release",
                    "edited": "changed: minigrad/autograd/graph.py",
                    "partly": "no package file changed since the release; missing: minigrad/autograd/engine.py"}
    assert classroom.handed_in(tmp_path, "A", "partly", files, "zh") == \
        "包文件与发布时相比没有任何改动; 缺少：minigrad/autograd/engine.py"


def test_the_summary_has_no_empty_column_and_aligns_long_ids():
    results = [classwide.Result("al", True, 1.0, score=4.0, max_score=6.0),
               classwide.Result("a_student_id_far_longer_than_twenty_four", True, 1.0, score=6.0, max_score=6.0),
               classwide.Result("never_graded", True, 1.0)]
    summary = io.StringIO()
    classwide._summary(ASSIGNMENT, results, summary, "en")
    rows = summary.getvalue().splitlines()[2:]
    assert [row.split() for row in rows] == [["al", "4/6"], ["a_student_id_far_longer_than_twenty_four", "6/6"],
                                             ["never_graded", "-"]]
    assert len({len(row) for row in rows}) == 1  # every score ends in the same column


def test_a_hand_edited_notebook_gets_its_cell_ids_and_reads_without_warnings(tmp_path):
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_markdown_cell("#")])
    (tmp_path / "release" / "A").mkdir(parents=True)
    nbformat.write(notebook, tmp_path / "release" / "A" / "A.ipynb")
    edited = json.loads(nbformat.writes(notebook))
    for cell in edited["cells"]:
        del cell["id"]  # as a hand edit or an older tool leaves it
    submitted = tmp_path / "submitted" / "alice" / "A" / "A.ipynb"
    submitted.parent.mkdir(parents=True)
    submitted.write_text(json.dumps(edited))
    assert collect.make_gradable(tmp_path, "A", "alice") == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        normalised = nbformat.read(submitted, as_version=4)
    assert [cell.source for cell in normalised.cells] == ["x = 1", "#"] and all(c.id for c in normalised.cells)


def classroom_command(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tools.classroom", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, **(env or {})})


def test_init_checks_the_database_first_and_keeps_no_password(postgres, tmp_path):
    """A database that cannot be reached stops init before it writes anything, saying what to create; a URL with
    a password is refused; the password comes from PGPASSWORD (or ~/.pgpass), and nbgrader_config.py holds none."""
    missing = postgres.replace("/minigrad?", "/nosuchdb?")
    done = classroom_command("init", str(tmp_path / "a"), "--db", missing)
    assert done.returncode != 0 and not (tmp_path / "a").exists()
    assert 'database "nosuchdb" does not exist' in done.stderr
    assert "createuser --pwprompt grader\n  createdb --owner grader nosuchdb" in done.stderr
    with_password = postgres.replace("grader@", "grader:s3cret-pw@")
    done = classroom_command("init", str(tmp_path / "b"), "--db", with_password)
    assert done.returncode != 0 and not (tmp_path / "b").exists() and "~/.pgpass" in done.stderr
    done = classroom_command("init", str(tmp_path / "c"), "--db", postgres, env={"PGPASSWORD": "s3cret-pw"})
    assert done.returncode == 0, done.stderr
    assert f"gradebook: {postgres}" in done.stdout and "course root " in done.stdout
    assert "s3cret-pw" not in (tmp_path / "c" / "nbgrader_config.py").read_text()
    assert nbgraderapp.config(tmp_path / "c").CourseDirectory.db_url == postgres


def test_a_graded_snapshot_records_answers_and_self_study_still_checks_them(tmp_path):
    """In a class the notebook's check_answer only records the answer (its snapshot has no key to test guesses
    against); the self-study edition keeps its instant verdict."""
    from tools import build, editions

    editions.write_package(build.PACKAGE, tmp_path / "minigrad")
    classroom.without_key(tmp_path / "minigrad" / "steps" / "answers.py")

    def check(folder, answer):
        code = f"import minigrad\nminigrad.check_answer('q1.1', {answer})"
        return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(folder)})

    for answer in ("2", "3"):
        graded = check(tmp_path, answer)
        assert graded.returncode == 0 and "your answer is recorded" in graded.stdout, graded.stderr
    assert check(ROOT, "2").stdout.strip() == "✓ q1.1: right." and check(ROOT, "3").returncode != 0
    text = (tmp_path / "minigrad" / "steps" / "answers.py").read_text()
    assert "ANSWERS = {}\n" in text and not re.search(r'"[0-9a-f]{16}"', text)
