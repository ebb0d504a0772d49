"""The pieces of a student's feedback page that need no grading run: the names of graded cells, what
happened at grading said in the student's language, formulas as MathML."""
import html
import json
import os
import re
import sys

import nbformat
import pytest
from traitlets.config import Config

from support import mistaken_class
from tools import feedback_page, grader_paths, grading_report, sandbox
from tools.instructor_messages import say

STEP_CELL, QUESTION_CELL = 'minigrad.check("2.3")', 'minigrad.check_answer("q2.1", answer_q2_1)'


def graded(source, grade_id):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "points": 1, "solution": False}
    return cell


def page_words(tmp_path, language, said):
    """What FeedbackPage gives the template for a chapter-2 notebook whose grading report holds ``said``."""
    report = tmp_path / "autograded" / "alice" / "02_gradients" / grading_report.REPORT
    report.parent.mkdir(parents=True)
    report.write_text(json.dumps({"said": said}))
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("### 练习 2.3 · 就绪队列与 `execute(root, buffers, keep_graph)`\n$x_1$"),
        graded(STEP_CELL, "step_2_3"), graded(QUESTION_CELL, "q2_1")])
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    page = feedback_page.FeedbackPage(config=config, language=language)
    resources = {"nbgrader": {"student": "alice", "assignment": "02_gradients", "notebook": "02_gradients"}}
    notebook, resources = page.preprocess(notebook, resources)
    return notebook, resources["minigrad"]


@pytest.fixture
def scripts_on_path(monkeypatch):
    """The page reads the course's gradebook (a late submission's notes), which nbgrader makes with its
    ``alembic`` command: on PATH, as the classroom commands put it."""
    monkeypatch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))


def test_graded_cells_are_named_by_their_step_and_incidents_said_in_the_students_language(tmp_path, scripts_on_path):
    said = [{"kind": "unreadable", "fields": {"notebook": "02_gradients.ipynb"}},
            {"kind": "notebook_stopped", "fields": {"index": "7", "why": "wall time limit"}},
            {"kind": "no_such_kind", "fields": {}}, "garbage"]
    notebook, words = page_words(tmp_path, "zh", said)
    assert words["names"] == {"step_2_3": "第 2.3 步 · 就绪队列与 execute(root, buffers, keep_graph)",
                              "q2_1": "练习题 Q2.1"}
    assert words["incidents"] == ["02_gradients.ipynb 无法读取或缺失：改用发布时的笔记本代替",
                                  "笔记本在第 7 个单元格处被强制停止：运行时间限制"]
    assert words["labels"]["score"] == "得分" and words["language"] == "zh"
    assert "<math" in notebook.cells[0].source and "$" not in notebook.cells[0].source
    _, english = page_words(tmp_path / "en", "en", said[:2])
    assert english["incidents"][1] == "the notebook was stopped at cell 7: wall time limit"


def test_formulas_become_mathml_and_code_keeps_its_dollars():
    text = feedback_page.with_mathml("Price `$5` and $a_1 * b_2$, then\n\n$$\\frac{\\partial l}{\\partial x}$$\n")
    assert "`$5`" in text
    inline, display = re.findall(r"<math[^>]*>.*?</math>", text)
    assert 'display="inline"' in inline and "<msub>" in inline and "*" not in inline and "_" not in inline
    assert text.count('<div class="math">') == 1 and "<mfrac>" in display
    assert say(feedback_page.STEP, "zh", step="1.1", title="t") == "第 1.1 步 · t"


def test_grader_paths_become_what_a_student_knows(tmp_path):
    folders = grader_paths.grader_folders(tmp_path)
    venv = f"{sys.prefix}/lib/python3.11/site-packages/numpy/core/fromnumeric.py"
    lines = {
        "File \x1b[0;32m~/minigrad-grading-x1y2/work/minigrad/autograd/engine.py:62\x1b[0m, in push":
            "File \x1b[0;32mminigrad/autograd/engine.py:62\x1b[0m, in push",
        'File "/tmp/minigrad-grading-abc/checks/minigrad/steps/chapter2.py", line 162':
            'File "minigrad/steps/chapter2.py", line 162',
        f"File {venv}:57, in _wrapfunc": "File <grader>/numpy/core/fromnumeric.py:57, in _wrapfunc",
        "File /tmp/ipykernel_7/2533861159.py:6": "File <cell>:6",
        f"No such file: '{tmp_path}/gradebook.db'": "No such file: '<grader>'",
        f"{grader_paths.REPOSITORY}/solutions/minigrad/x.py": "<grader>",
        "https://pytorch.org/docs, 1/2, a/b, /etc/hosts": "https://pytorch.org/docs, 1/2, a/b, /etc/hosts",
    }
    assert {line: grader_paths.hidden(line, folders) for line in lines} == lines


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    if not sandbox.bwrap_works("bwrap"):
        pytest.skip("bubblewrap cannot make a sandbox here")
    return mistaken_class.graded(tmp_path_factory)


@pytest.mark.grading
def test_a_page_names_no_path_of_the_grader_and_keeps_the_students_frames(course):
    """tamperer's own step 2.3 raises in a cell of theirs and in the checks: both tracebacks name their file as
    they know it, and nothing on the page names the course root, the repository, the grader's Python or /tmp."""
    page = html.unescape(mistaken_class.page(course.root, "tamperer"))
    for grader_path in {str(course.root), str(course.root.resolve()), str(grader_paths.REPOSITORY), sys.prefix,
                        sys.base_prefix, "/tmp", "~/", "minigrad-grading-", "site-packages"}:
        assert grader_path not in page, grader_path
    assert 'File "minigrad/autograd/engine.py", line ' in page  # the checks' traceback
    assert re.search(r"minigrad/autograd/engine\.py:\d+", page)  # the kernel's
    assert page.count("ValueError: my ready queue is broken") >= 2
    assert mistaken_class.RAISES in page


@pytest.mark.grading
def test_an_edited_or_deleted_read_only_cell_is_named_on_the_page_and_in_the_summary(course):
    said = ['the read-only cell minigrad.check("2.1") was edited: the instructor\'s cell was put back and graded',
            'the read-only cell minigrad.check("2.2") was deleted: the instructor\'s cell was put back and graded',
            'the check cell minigrad.check("C2") was edited or deleted: what the notebook shows there is not a '
            'verdict of the checks']
    assert "\n  tamperer      2/10\n" + "".join(f"      - {note}\n" for note in said) in course.summary
    page = html.unescape(mistaken_class.page(course.root, "tamperer"))
    assert "What happened when your work was graded" in page and all(note in page for note in said)
    # mistaken changed no read-only cell (step 2.1's holds a hidden test in the gradebook, not in the release)
    assert re.search(r"\n  mistaken +\d+/10\n  tamperer ", course.summary), course.summary
