"""A class on a real JupyterHub: chapter 2 released, done, submitted, graded and returned, in Chromium.

One instructor and three students, each a system account with JupyterLab started by the hub
(``LocalProcessSpawner``, PAM login), as on The Littlest JupyterHub. The instructor teaches two
sections, one per language: a course root each (``tools.classroom init --lang``), with its own
nbgrader exchange. Alice and Bob are in the English section; Chen is in the Chinese one and uses
JupyterLab's Chinese interface. Alice solves every step of the chapter and answers its questions,
Chen solves the first half of its steps, Bob hands in the released files untouched.

Which package files hold the chapter and what its steps are come from the tools (the solution
regions of ``solutions/minigrad``), so the test follows exercises that move between files.
"""
import time

import pytest

from conftest import step_marker
from support.submissions import answer_cells, graded_points, steps_before, steps_of
from hub.fixtures import HUB_ARTIFACTS, class_folder, instructor_checkout, make_account, start_hub  # noqa: F401
from hub.people import Instructor, Student, language_setting, score_of
from hub.server import CLASS_BIN
from tools import build, classroom, editions

from .conftest import VIEWPORT

pytestmark = [pytest.mark.browser, pytest.mark.hub]
CHAPTER = 2
ASSIGNMENT = next(name for name, number, _ in classroom.assignments() if number == CHAPTER)
NOTEBOOK = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
# (who, section, how much of the chapter they do)
STUDENTS = [("alice", "en", "everything"), ("bob", "en", "nothing"), ("chen", "zh", "half")]
CLASSROOM = f"{CLASS_BIN / 'python'} -m tools.classroom"  # as the instructor types it, in their checkout
CHINESE_FILE_MENU = "文件"  # "File" in the Chinese language pack


def solved_steps(work):
    steps = steps_of(CHAPTER)
    return {"everything": steps, "half": steps[: len(steps) // 2], "nothing": []}[work]


def learner_files(steps, scratch):
    """The chapter's package files (path in a student's home -> text) with ``steps`` solved, the rest stubs."""
    package = editions.write_package(build.PACKAGE, scratch / "minigrad", keep=steps_before(CHAPTER) | set(steps))
    return {f"{ASSIGNMENT}/{name}": (package.parent / name).read_text() for name in classroom.learner_files(CHAPTER)}


def expected_score(source_notebook, work):
    """What the work earns: its steps' points, and with everything done the answers' too (the maximum)."""
    points = graded_points(source_notebook)
    if work == "everything":
        return sum(points.values())
    return sum(points[step_marker(step)] for step in solved_steps(work))


def nbgrader_config(exchange):
    return f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\nc.CourseDirectory.course_id = 'minigrad'\n"


@pytest.fixture(scope="module")
def section_exchanges(class_folder):
    """One nbgrader exchange per section, writable by all, as nbgrader's own exchange is."""
    exchanges = {}
    for language in ("en", "zh"):
        exchanges[language] = class_folder / f"exchange-{language}"
        exchanges[language].mkdir()
        exchanges[language].chmod(0o777)
    return exchanges


def prepare_sections(teacher, exchanges, checkout):
    """The instructor makes one course root per section, each with its section's exchange."""
    roots = {}
    for language, exchange in exchanges.items():
        roots[language] = teacher.home / f"class-{language}"
        done = teacher.run([str(CLASS_BIN / "python"), "-m", "tools.classroom", "init", str(roots[language]),
                            "--lang", language, "--exchange", str(exchange)], cwd=checkout)
        assert done.returncode == 0, done.stdout + done.stderr
    return roots


def do_the_work(student, language, work, roots, scratch):
    """Fetch the chapter, write the package files (and answers), and press Validate (not waiting for it)."""
    student.wait_for_lab()
    if language == "zh":
        assert CHINESE_FILE_MENU in student.menu_titles(), student.menu_titles()
        student.screenshot(HUB_ARTIFACTS / "hub-student-zh-jupyterlab.png")
    student.fetch(ASSIGNMENT)
    if work != "nothing":
        student.save_files(learner_files(solved_steps(work), scratch))
    if work == "everything":
        student.answer(NOTEBOOK, answer_cells(roots[language] / "source" / NOTEBOOK))
    student.start_validating(NOTEBOOK)


def check_validation(student, source_notebook, work):
    """The Validate dialog names exactly the graded cells the work leaves failing."""
    verdict = student.validation()
    failing = 0 if work == "everything" else len(graded_points(source_notebook)) - len(solved_steps(work))
    assert verdict.count("The following cell failed:") == failing, (student.name, verdict)
    assert ("Success!" in verdict) == (work == "everything"), (student.name, verdict)


def check_feedback(student, language, source_notebook, work):
    """The feedback page the student opens shows what the work earns, in the section's language."""
    feedback = student.fetch_feedback(ASSIGNMENT)
    student.screenshot(HUB_ARTIFACTS / f"hub-feedback-{student.role}-{language}.png")
    maximum = sum(graded_points(source_notebook).values())
    assert score_of(feedback) == (expected_score(source_notebook, work), maximum), student.name
    if language == "zh":
        assert any("\u4e00" <= ch <= "\u9fff" for ch in feedback), "the Chinese section's feedback is Chinese"


def test_a_class_on_jupyterhub(make_account, start_hub, section_exchanges, instructor_checkout, browser, tmp_path):
    timings, started = {}, time.monotonic()

    def lap(name):
        timings[name] = round(time.monotonic() - started, 1)

    teacher = make_account("teacher")
    students = {who: make_account(who) for who, _, _ in STUDENTS}
    roots = prepare_sections(teacher, section_exchanges, instructor_checkout)
    students["chen"].write(*language_setting(students["chen"].home, "zh_CN"))  # Chen chose Chinese for JupyterLab
    configs = {students[who].name: nbgrader_config(section_exchanges[language]) for who, language, _ in STUDENTS}
    hub = start_hub(users=[teacher.name, *configs], admins=[teacher.name], configs=configs)
    lap("hub started")

    instructor = Instructor(browser, hub, teacher, VIEWPORT)
    people = {who: Student(browser, hub, students[who], VIEWPORT) for who, _, _ in STUDENTS}
    try:
        for person in [instructor, *people.values()]:  # everyone logs in; the hub starts their servers side by side
            person.log_in()
        instructor.wait_for_lab()
        instructor.open_terminal()
        lap("logged in, terminal open")
        released = instructor.run([f"{CLASSROOM} release {root} {ASSIGNMENT} --to-exchange" for root in roots.values()],
                                  instructor_checkout)
        assert [code for code, _ in released] == [0, 0], released
        lap("released")

        for who, language, work in STUDENTS:
            do_the_work(people[who], language, work, roots, tmp_path / who)
        for who, language, work in STUDENTS:
            check_validation(people[who], roots[language] / "source" / NOTEBOOK, work)
            people[who].submit(ASSIGNMENT)
        lap("fetched, worked, validated and submitted")

        graded = instructor.run([f"{CLASSROOM} collect {root} {ASSIGNMENT} && {CLASSROOM} autograde {root} {ASSIGNMENT}"
                                 f" && {CLASSROOM} feedback {root} {ASSIGNMENT} --to-exchange" for root in roots.values()],
                                instructor_checkout)
        assert [code for code, _ in graded] == [0, 0], graded
        lap("collected, autograded, feedback returned")

        for who, language, work in STUDENTS:
            check_feedback(people[who], language, roots[language] / "source" / NOTEBOOK, work)
        lap("feedback seen")
    except Exception:
        for person in [instructor, *people.values()]:
            person.screenshot(HUB_ARTIFACTS / f"failed-hub-{person.role}.png")
        raise
    finally:
        for person in [instructor, *people.values()]:
            person.close()
    print("hub test timings (s since start):", timings)
    print("".join(output for _, output in graded))  # each section's autograde summary
