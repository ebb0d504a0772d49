"""The grading round trip with nbgrader's own commands, in both languages.

One throwaway course root per language holds all the chapters as assignments, released at once
(``nbgrader generate_assignment "*"``). Three students submit: the reference (the chapter's steps
solved, its practice questions answered as the instructor's source notebook answers them), the
untouched release, and only the chapter's first step solved (practice answers left blank). The reference
hands in every chapter of the English course, the other two its first, its last and the one with formulas;
in the Chinese course all three hand in two chapters (``HANDED_IN``). They must get full marks, zero, and
that step's points alone, as ``nbgrader export`` reports them.

Both courses are configured by ``classroom init`` (sandbox, fresh checks), and graded two ways:
the English one by the class-wide command, every chapter in one go (``python -m tools.classroom
autograde ROOT 01_graph ... --jobs 2``), the Chinese one by plain serial ``nbgrader autograde "*"``.
The English course has two more students: one who answers the practice questions wrongly and patches
the answer key in the kernel, and one with an empty notebook and a package that kills its own checks,
in the last chapter.
"""
import concurrent.futures
import csv
import html
import io
import itertools
import json
import os
import re
import subprocess
import sys
import zipfile
from types import SimpleNamespace

import nbformat
import pytest

from conftest import ROOT
from support.once import once
from support.submissions import (add_cell, answer_cells, graded_points, hand_in, replace_stub, steps_before,
                                 steps_of)
from minigrad.steps import ids
from tools import build, classroom, classwide, editions, nbgraderapp, notebooks, sandbox

pytestmark = pytest.mark.grading
needs_sandbox = pytest.mark.skipif(not sandbox.bwrap_works("bwrap"),
                                   reason="bubblewrap cannot make a sandbox here (not installed, or no namespaces)")

ASSIGNMENTS = [name for name, _, _ in classroom.assignments()]
MATHS = "04_vjp"  # a chapter whose prose has formulas
LATE = ASSIGNMENTS[-1]  # where the broken submission is handed in: a chapter well after chapter 2
HONEST = ("reference", "untouched", "first_step_only")
# The chapters each honest student hands in (each submission costs a notebook's run). In English the reference
# hands in every chapter (each chapter's graded cells give full marks); the untouched release and the first step
# alone, whose grades come from the same cells, the first chapter, the last and the one with formulas. In Chinese
# all three hand in the first chapter and the one with formulas: enough to show grading and feedback in that
# language.
SOME = [ASSIGNMENTS[0], MATHS, LATE]
HANDED_IN = {"en": {"reference": ASSIGNMENTS, "untouched": SOME, "first_step_only": SOME},
             "zh": {student: [ASSIGNMENTS[0], MATHS] for student in HONEST}}
WRONG = "'not the answer'"
PATCH_THE_KEY = """import minigrad, minigrad.steps.answers as key
minigrad.check_answer = lambda *args: print("✓ right")
key.is_right = lambda *args: True"""


def chapter(assignment):
    return int(assignment[:2])


def grade_the_course(folder, language):
    """Init, release every chapter, hand in, grade and export one course; keep what the tests need in facts.json."""
    root, work = folder / "course", folder / "work"
    classroom.init(root, language)
    nbgraderapp.command(root, "generate_assignment", "*", "--force")
    facts = {"points": {}, "questions": {}, "learner": {}}
    for name, number, source in classroom.assignments():
        notebook = root / "source" / name / f"{name}.ipynb"
        facts["points"][name], key = graded_points(notebook), answer_cells(notebook)
        facts["questions"][name] = sorted(key)
        # The learner's notebook of the chapter (as in course/LANG/), made from the same sources as the course.
        learner = notebooks.for_language(notebooks.read_source(source), language, name)
        facts["learner"][name] = [cell.source for cell in learner.cells]
        mine = steps_of(number)
        handed_in = {student for student, chapters in HANDED_IN[language].items() if name in chapters}
        if "reference" in handed_in:
            hand_in(root, "reference", steps_before(number) | set(mine), work, name, answers=key)
        if "untouched" in handed_in:
            hand_in(root, "untouched", None, work, name)
        if "first_step_only" in handed_in:
            hand_in(root, "first_step_only", steps_before(number) | set(mine[:1]), work, name)
    if language == "en":
        quiz = next(name for name in ASSIGNMENTS if facts["questions"][name])
        patched = hand_in(root, "patched_key", steps_before(chapter(quiz)) | set(steps_of(chapter(quiz))), work,
                          quiz, answers={cell: f"{cell} = {WRONG}" for cell in facts["questions"][quiz]})
        add_cell(patched, PATCH_THE_KEY, quiz)
        broken = hand_in(root, "mallory", steps_before(chapter(LATE)) | set(steps_of(chapter(LATE))[:1]), work, LATE)
        replace_stub(broken, steps_of(chapter(LATE))[1], "import os\nos._exit(0)")
        (broken / f"{LATE}.ipynb").write_text("")
        command = [sys.executable, "-m", "tools.classroom", "autograde", str(root), *ASSIGNMENTS, "--jobs", "2"]
        graded = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
        facts.update(quiz=quiz, returncode=graded.returncode, stdout=graded.stdout, stderr=graded.stderr)
    else:
        nbgraderapp.command(root, "autograde", "*", "--force")
    nbgraderapp.command(root, "export", "--to", "grades.csv")
    with open(root / "grades.csv") as handle:
        facts["grades"] = [[row["assignment"], row["student_id"], float(row["score"]), float(row["max_score"])]
                           for row in csv.DictReader(handle)]
    (folder / "facts.json").write_text(json.dumps(facts, ensure_ascii=False))


def graded_course(tmp_path_factory, language):
    """The graded course of ``language``; while another test process grades it, this one grades the other."""
    other = "zh" if language == "en" else "en"
    folder = once(tmp_path_factory, f"grading-{language}", lambda f: grade_the_course(f, language),
                  meanwhile=[(f"grading-{other}", lambda f: grade_the_course(f, other))])
    facts = json.loads((folder / "facts.json").read_text())
    grades = {(assignment, student): (score, top) for assignment, student, score, top in facts.pop("grades")}
    return SimpleNamespace(root=folder / "course", language=language, grades=grades,
                           graded=HANDED_IN[language]["reference"], handed_in=HANDED_IN[language], **facts)


@pytest.fixture(scope="module", params=["en", "zh"])
def course(request, tmp_path_factory):
    return graded_course(tmp_path_factory, request.param)


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    return graded_course(tmp_path_factory, "en")


def right_grades(course, assignment):
    """(score, max_score) of every student in ``assignment``: nbgrader exports 0 for those who did not submit it."""
    points = course.points[assignment]
    total = float(sum(points.values()))
    first = float(points[notebooks.grade_id(steps_of(chapter(assignment))[0])])
    grades = {"reference": (total, total), "untouched": (0.0, total),
              "first_step_only": (first if assignment in course.handed_in["first_step_only"] else 0.0, total)}
    if course.language == "en":
        asked = float(sum(points[cell.removeprefix("answer_")] for cell in course.questions[assignment]))
        grades["patched_key"] = (total - asked if assignment == course.quiz else 0.0, total)
        grades["mallory"] = (first if assignment == LATE else 0.0, total)
    return grades


@needs_sandbox
def test_full_marks_zero_and_the_first_step_alone(course):
    for assignment in course.graded:
        assert {s: g for (a, s), g in course.grades.items() if a == assignment} == right_grades(course, assignment)


@needs_sandbox
def test_every_submission_is_autograded(course):
    handed_in = {(p.name, p.parent.name) for p in (course.root / "submitted").glob("*/*")}
    assert {(a, s) for s, chapters in course.handed_in.items() for a in chapters} <= handed_in
    assert {(p.name, p.parent.name) for p in (course.root / "autograded").glob("*/*")} == handed_in


def test_the_release_holds_no_answer_and_the_source_does(course):
    for assignment in ASSIGNMENTS:
        source = course.root / "source" / assignment / f"{assignment}.ipynb"
        release = course.root / "release" / assignment / f"{assignment}.ipynb"
        answers, released = answer_cells(source), answer_cells(release)
        assert sorted(answers) == sorted(released) == course.questions[assignment]
        for cell, text in answers.items():
            assert "### BEGIN SOLUTION" in text and "### END SOLUTION" in text, (assignment, cell)
            assert text.startswith(f"{cell} = None\n"), (assignment, cell)
            assert released[cell] == f"{cell} = None\n", (assignment, cell)
        shown = nbformat.read(release, as_version=4)
        assert "BEGIN SOLUTION" not in release.read_text(), assignment
        assert [c.source.rstrip("\n") for c in shown.cells] == course.learner[assignment], assignment


def test_the_release_is_the_chapter_snapshot_without_solutions(course):
    """Every package file as ``init`` wrote it: earlier chapters solved, this one and later ones stubs."""
    every_step = editions.steps_in(build.PACKAGE)
    for assignment in ASSIGNMENTS:
        source, release = course.root / "source" / assignment, course.root / "release" / assignment
        files = sorted(p.relative_to(release) for p in release.rglob("*.py"))
        assert files == sorted(p.relative_to(source) for p in source.rglob("*.py")), assignment
        assert all((release / name).read_bytes() == (source / name).read_bytes() for name in files), assignment
        package = "".join((release / name).read_text() for name in files)
        assert "BEGIN SOLUTION" not in package and "END SOLUTION" not in package, assignment
        for step in every_step:
            stubbed = ids.stub_marker(step) in package
            assert stubbed == (ids.chapter_of(step) >= chapter(assignment)), (assignment, step)


@needs_sandbox
def test_practice_questions_are_judged_outside_the_kernel(english):
    """Wrong answers score nothing, even with check_answer and the answer key patched in the kernel."""
    points = english.points[english.quiz]
    total = float(sum(points.values()))
    asked = float(sum(points[cell.removeprefix("answer_")] for cell in english.questions[english.quiz]))
    assert asked > 0
    assert english.grades[(english.quiz, "patched_key")] == (total - asked, total)
    assert english.grades[(english.quiz, "reference")] == (total, total)


@needs_sandbox
def test_a_broken_submission_in_a_later_chapter_is_graded_clearly_and_alone(english):
    """mallory (an empty notebook, and a package whose second step kills its checks) gets the first step's
    points, the summary says why, and every other grade is as if mallory were not there."""
    assert chapter(LATE) >= 3
    assert english.returncode == 0, english.stdout + english.stderr
    first, second = steps_of(chapter(LATE))[:2]
    total = float(sum(english.points[LATE].values()))
    score = float(english.points[LATE][notebooks.grade_id(first)])
    assert english.grades[(LATE, "mallory")] == (score, total)
    for assignment in ASSIGNMENTS:
        students = sum(assignment in chapters for chapters in english.handed_in.values())
        students += (assignment == english.quiz) + (assignment == LATE)
        noted = int(assignment == LATE)
        assert (f"\n{assignment}: {students} submissions, {students} graded, {noted} with notes, 0 failed\n"
                in english.stdout), english.stdout
    lines = english.stdout.split(f"\n{LATE}: ", 1)[1].splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["mallory"])
    assert lines[at].split() == ["mallory", f"{score:g}/{total:g}"]
    notes = [line.removeprefix("      - ") for line in itertools.takewhile(lambda l: l.startswith("      - "),
                                                                          lines[at + 1:])]
    assert notes[:2] == [f"{LATE}.ipynb was unreadable or missing: the released notebook stood in for it",
                         f"the checks of step {second} crashed without a verdict"]
    # A later step whose checks use that step's code crashes as well; the released notebook that stood in runs
    # each crashed step's stub instead of its code (which would kill its kernel): each said.
    crashed = [second] + [step for step in steps_of(chapter(LATE))[2:]
                          if f"the checks of step {step} crashed without a verdict" in notes]
    assert notes[2:] == [f"the checks of step {step} crashed without a verdict" for step in crashed[1:]] + [
        f"the notebook ran with the stub of step {step} in place of its code, which stalled or crashed its checks"
        for step in crashed], notes


def test_a_graded_release_holds_no_answer_key(course):
    """The self-study key (short hashes, reversible by trying) is emptied in every graded snapshot: neither the
    release nor the instructor's copy of the package holds an answer or its hash."""
    from minigrad.steps import answers

    for assignment in ASSIGNMENTS:
        key = answer_cells(course.root / "source" / assignment / f"{assignment}.ipynb")
        hashes = {answers.ANSWERS[cell.removeprefix("answer_").replace("_", ".")] for cell in key}
        for folder in ("source", "release"):
            package = course.root / folder / assignment / "minigrad"
            text = "".join(path.read_text() for path in package.rglob("*.py"))
            assert "GRADED = True" in text and "ANSWERS = {}" in text, (folder, assignment)
            assert not [h for h in hashes if h in text], (folder, assignment)
    assert answers.ANSWERS and not answers.GRADED  # self-study keeps its instant check


PAGE_WORDS = {"en": ("Step {step} · ", "Score", "Practice question Q"),
              "zh": ("第 {step} 步 · ", "得分", "练习题 Q")}


@needs_sandbox
def test_feedback_pages_speak_the_course_language_and_need_no_network(course):
    """Each student's page names every graded cell by its step and title (from the chapter's exercise heading),
    in the course's language, draws the chapter's formulas as MathML, holds no script and no link out; only
    pages go back (and in the chapter's zip), never a copy of the package or the grading report."""
    summary = io.StringIO()
    classroom.feedback(course.root, MATHS, jobs=2, out=summary)
    step, score, question = PAGE_WORDS[course.language]
    titles = dict(re.findall(rf"^#+ \S+ ({ids.STEP}) · (.+)$", "\n".join(course.learner[MATHS]), re.MULTILINE))
    for student in HONEST:
        folder = course.root / "feedback" / student / MATHS
        assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == [f"{MATHS}.html"], student
        page = (folder / f"{MATHS}.html").read_text()
        text = html.unescape(page)
        for number in steps_of(chapter(MATHS)):
            assert step.format(step=number) + titles[number].replace("`", "") in text, number
        assert question in text and f"{score}: " in text and "Test cell" not in text
        assert course.language == "en" or "Score" not in text
        assert page.count("<math") >= 10 and "\\frac" not in page
        assert "<script" not in page and not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
        assert f"feedback/{student}/{MATHS}/{MATHS}.html" in summary.getvalue()
    with zipfile.ZipFile(course.root / "feedback-bundles" / f"{MATHS}.zip") as bundle:
        assert sorted(bundle.namelist()) == sorted(f"{s}/{MATHS}.html" for s in HONEST)
    assert f"feedback-bundles/{MATHS}.zip" in summary.getvalue()
    opened_offline(course.root / "feedback" / "reference" / MATHS / f"{MATHS}.html")


def opened_offline(page):
    """Open ``page`` in Chromium (when there is one): it asks for nothing but itself, and its formulas are drawn."""
    playwright = pytest.importorskip("playwright.sync_api")
    from browser.conftest import CHROMIUM_FLAGS, find_chromium

    if find_chromium() is None:
        return

    def visit():
        with playwright.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_FLAGS)
            try:
                tab = browser.new_page()
                asked = []
                tab.on("request", lambda request: asked.append(request.url))
                tab.goto(page.as_uri(), wait_until="load")
                return asked, tab.evaluate(
                    "[...document.querySelectorAll('math')].map(m => m.getBoundingClientRect().width)")
            finally:
                browser.close()

    # In a thread of its own: Playwright's sync API refuses a thread where another test left an asyncio loop running.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        asked, widths = pool.submit(visit).result()
    assert asked == [page.as_uri()]
    assert widths and all(width > 0 for width in widths)


@needs_sandbox
def test_the_feedback_page_says_what_happened_at_grading(english):
    """mallory's empty notebook was replaced and a step's checks crashed: the page says both."""
    classwide.feedback(english.root, LATE, students=["mallory"], out=io.StringIO())
    page = html.unescape((english.root / "feedback" / "mallory" / LATE / f"{LATE}.html").read_text())
    second = steps_of(chapter(LATE))[1]
    assert "What happened when your work was graded" in page
    assert f"{LATE}.ipynb was unreadable or missing: the released notebook stood in for it" in page
    assert f"the checks of step {second} crashed without a verdict" in page
