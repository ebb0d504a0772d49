"""Grading that survives faults: an autograde killed halfway resumes, and graders on two machines share a class.

- The instructor's command is killed with SIGKILL once two students are graded. No worker grades on
  behind it; run again, it keeps the grades of those graded to the end (their graded notebooks are
  left untouched), grades the others, and each student is in the gradebook once. ``--regrade`` grades
  a kept student again.
- Two course roots (two machines), each holding the submissions of its share of the class, share one
  PostgreSQL gradebook (a real server); ``--shard 1/2`` and ``--shard 2/2``, run at the same time,
  grade disjoint shares that together are the class, each student once, and either machine exports
  the whole class's grades.
"""
import contextlib
import csv
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy

from conftest import ROOT
from support.database import new_database, postgres  # noqa: F401 - a fixture
from support.submissions import ASSIGNMENT, EXPECTED_HONEST, HONEST, hand_in
from tools import classroom, ledger, sandbox

pytestmark = [pytest.mark.grading,
              pytest.mark.skipif(not sandbox.bwrap_works("bwrap"),
                                 reason="bubblewrap cannot make a sandbox here (not installed, or no namespaces)")]

CLASS = {f"s{number}_{kind}": kind for number, kind in enumerate(sorted(HONEST) * 2)}  # six students
SECONDS = 600  # the most one command may take here: six honest students, two workers


def a_class(root, scratch, db_url=None, students=CLASS):
    classroom.init(root, "en", db_url=db_url)
    classroom.release(root, ASSIGNMENT)
    for student in students:
        hand_in(root, student, HONEST[CLASS[student]], scratch)


def autograde(root, *options):
    return [sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT, "--jobs", "2", *options]


def finished(command):
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=SECONDS)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def grades(root):
    classroom.export(root, root / "grades.csv")
    with open(root / "grades.csv") as handle:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(handle)}


def right_grades(students):
    return {student: EXPECTED_HONEST[CLASS[student]] for student in students}


def submissions_per_student(db_url):
    with sqlalchemy.create_engine(db_url).connect() as db:
        rows = db.execute(sqlalchemy.text("SELECT student_id, count(*) FROM submitted_assignment GROUP BY student_id"))
        return dict(rows.all())


def descendants(pid):
    """The pids of every process below ``pid``."""
    parents = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError):
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
            parents.setdefault(int(fields["PPid"]), []).append(int(status.parent.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def alive(pids):
    """Those of ``pids`` still running (not yet dead or a zombie)."""
    living = []
    for pid in pids:
        with contextlib.suppress(OSError):
            if "State:\tZ" not in Path(f"/proc/{pid}/status").read_text():
                living.append(pid)
    return living


def kill_after_two(root):
    """Start the class's autograde and SIGKILL it once two students are graded; return who it reported graded."""
    grading = subprocess.Popen(autograde(root), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    bound = threading.Timer(SECONDS, grading.kill)  # a grader that never reports ends all the same
    bound.start()
    reported = []
    for line in grading.stdout:
        told = re.match(r"^\[\s*\d+/\s*\d+\] (\S+)\s+ok ", line)
        reported += [told[1]] if told else []
        if len(reported) == 2:
            break
    below = descendants(grading.pid)
    grading.send_signal(signal.SIGKILL)
    grading.wait()
    bound.cancel()
    grading.stdout.close()
    return reported, below


def test_an_autograde_killed_halfway_resumes(tmp_path):
    root = tmp_path / "course"
    a_class(root, tmp_path / "work")
    reported, below = kill_after_two(root)
    assert len(reported) == 2
    deadline = time.monotonic() + 60  # generous: on a loaded machine a dying sandbox takes its time
    while alive(below) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert alive(below) == [], "a worker or its sandbox outlived the killed autograde"

    kept = sorted(s for s in CLASS if ledger.is_graded(root, ASSIGNMENT, s))
    assert set(reported) <= set(kept) and len(kept) < len(CLASS)
    notebooks = {s: root / "autograded" / s / ASSIGNMENT / f"{ASSIGNMENT}.ipynb" for s in kept}
    stamps = {s: path.stat().st_mtime_ns for s, path in notebooks.items()}
    summary = finished(autograde(root))
    assert f"{len(kept)} submissions graded by an earlier run keep their grades" in summary
    assert f"{len(CLASS)} submissions, {len(CLASS)} graded" in summary
    assert {s: path.stat().st_mtime_ns for s, path in notebooks.items()} == stamps  # not graded again
    assert grades(root) == right_grades(CLASS)
    gradebook = f"sqlite:///{root / 'gradebook.db'}"
    assert submissions_per_student(gradebook) == {s: 1 for s in CLASS}

    again = kept[0]
    finished(autograde(root, "--student", again, "--regrade"))
    assert notebooks[again].stat().st_mtime_ns != stamps[again]
    assert grades(root) == right_grades(CLASS) and submissions_per_student(gradebook) == {s: 1 for s in CLASS}


def test_two_graders_sharing_a_postgresql_gradebook_grade_the_class_once(postgres, tmp_path):  # noqa: F811
    db_url = new_database(postgres, "shards")
    roots = [tmp_path / "machine1" / "course", tmp_path / "machine2" / "course"]
    shares = [sorted(s for s in CLASS if ledger.in_shard(s, (k, 2))) for k in (1, 2)]
    assert all(shares) and sorted(shares[0] + shares[1]) == sorted(CLASS)
    for root, share in zip(roots, shares):  # each machine holds the submissions of its share only
        a_class(root, tmp_path / root.parent.name / "work", db_url, share)
    graders = [subprocess.Popen(autograde(root, "--shard", f"{k}/2"), cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for k, root in zip((1, 2), roots)]
    outputs = [grader.communicate(timeout=SECONDS) for grader in graders]
    for grader, (stdout, stderr) in zip(graders, outputs):
        assert grader.returncode == 0, stdout[-3000:] + stderr[-3000:]
    for root, share, (stdout, _) in zip(roots, shares, outputs):
        graded = sorted(re.findall(r"^\[\s*\d+/\s*\d+\] (\S+)\s+ok ", stdout, re.MULTILINE))
        assert graded == share
        assert sorted(p.parent.name for p in (root / "autograded").glob(f"*/{ASSIGNMENT}")) == share
    assert submissions_per_student(db_url) == {s: 1 for s in CLASS}
    assert grades(roots[0]) == grades(roots[1]) == right_grades(CLASS)


def test_a_shard_is_k_of_n():
    assert ledger.parse_shard("2/3") == (2, 3)
    for wrong in ("0/2", "3/2", "half", "1/2/3"):
        with pytest.raises(ValueError):
            ledger.parse_shard(wrong)
    students = [f"student{n}" for n in range(200)]
    shares = [{s for s in students if ledger.in_shard(s, (k, 3))} for k in (1, 2, 3)]
    assert set().union(*shares) == set(students) and sum(map(len, shares)) == len(students)
    assert all(len(share) > 40 for share in shares)
