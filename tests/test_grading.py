"""The grading round trip with the real nbgrader commands, on chapter 2.

A throwaway course root gets the chapter as an assignment; two students submit: one
the reference solutions of the chapter's files, one the untouched learner edition.
Autograde and export must give full marks and zero, grading the submitted package files.
"""
import csv
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from tools import build, classroom, editions

pytestmark = pytest.mark.grading
ASSIGNMENT = "02_gradients"
CHAPTER = 2


def nbgrader(root, *args):
    """Run one nbgrader command in the course root, as an instructor would."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # kernels import the submission's package
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])  # nbgrader runs alembic
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def submit(root, student, solved_steps):
    """Hand in the released assignment with the chapter's files solved for ``solved_steps``."""
    release = root / "release" / ASSIGNMENT
    target = root / "submitted" / student / ASSIGNMENT
    shutil.copytree(release, target)
    if solved_steps:
        package = editions.write_package(build.PACKAGE, root / "work" / student / "minigrad", keep=solved_steps)
        for name in classroom.learner_files(CHAPTER):
            shutil.copyfile(package.parent / name, target / name)


def scores(root):
    nbgrader(root, "export", "--to", "grades.csv")
    with open(root / "grades.csv") as handle:
        return {row["student_id"]: (float(row["score"]), float(row["max_score"])) for row in csv.DictReader(handle)}


@pytest.fixture(scope="module", params=["en", "zh"])
def course(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"course-{request.param}")
    classroom.init(root, request.param)
    nbgrader(root, "generate_assignment", ASSIGNMENT, "--force")
    all_steps = set(editions.steps_in(build.PACKAGE))
    submit(root, "reference", {s for s in all_steps if classroom.chapter_of(s) <= CHAPTER})
    submit(root, "blank", set())
    submit(root, "first_step_only", {s for s in all_steps if classroom.chapter_of(s) < CHAPTER} | {"2.1"})
    nbgrader(root, "autograde", ASSIGNMENT, "--force")
    return root


def test_reference_gets_full_marks_and_blank_gets_zero(course):
    grades = scores(course)
    assert grades["reference"] == (4.0, 4.0)
    assert grades["blank"] == (0.0, 4.0)


def test_a_step_earns_its_own_point(course):
    assert scores(course)["first_step_only"] == (1.0, 4.0)


def test_the_released_assignment_holds_no_solution(course):
    release = course / "release" / ASSIGNMENT
    texts = {p: p.read_text() for p in release.rglob("*") if p.suffix in (".py", ".ipynb")}
    for path, text in texts.items():
        assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text, path
    for path in build.PACKAGE.rglob("*.py"):
        released = release / "minigrad" / path.relative_to(build.PACKAGE)
        for step, _, _, body, _ in editions.regions(path.read_text()):
            if classroom.chapter_of(step) >= CHAPTER:
                assert "".join(body) not in released.read_text(), f"step {step} leaked into {released}"


def test_earlier_chapters_are_solved_in_the_snapshot(course):
    graph = (course / "release" / ASSIGNMENT / "minigrad" / "autograd" / "graph.py").read_text()
    assert 'raise NotImplementedError("step 1.' not in graph
    assert 'raise NotImplementedError("step 2.2' in graph
