"""The grading round trip with nbgrader's own commands, on chapter 2, in both languages.

A throwaway course root gets the chapter as an assignment; three students submit: one the
reference solutions of the chapter's files, one the untouched learner edition, one only the
first step. Plain ``nbgrader autograde`` and ``nbgrader export`` (configured by ``classroom
init``: sandbox, fresh checks) must give full marks, zero, and that step's point alone.
"""
import csv

import pytest

from hostile.once import once
from hostile.submissions import ASSIGNMENT, CHAPTER, EARLIER, HONEST, hand_in
from tools import build, classroom, editions, nbgraderapp

pytestmark = pytest.mark.grading


def scores(root):
    nbgraderapp.command(root, "export", "--to", "grades.csv")
    with open(root / "grades.csv") as handle:
        return {row["student_id"]: (float(row["score"]), float(row["max_score"])) for row in csv.DictReader(handle)}


def grade_three_students(root, language):
    classroom.init(root, language)
    nbgraderapp.command(root, "generate_assignment", ASSIGNMENT, "--force")
    for student in ("reference", "blank"):
        hand_in(root, student, HONEST[student], root / "work")
    hand_in(root, "first_step_only", EARLIER | {"2.1"}, root / "work")
    nbgraderapp.command(root, "autograde", ASSIGNMENT, "--force")


@pytest.fixture(scope="module", params=["en", "zh"])
def course(request, tmp_path_factory):
    return once(tmp_path_factory, f"course-{request.param}", lambda root: grade_three_students(root, request.param))


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
