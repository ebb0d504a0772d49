"""The pieces of a student's feedback page that need no grading run: the names of graded cells, what
happened at grading said in the student's language, formulas as MathML."""
import json
import re

import nbformat
from traitlets.config import Config

from tools import feedback_page, grading
from tools.instructor_messages import say

STEP_CELL, QUESTION_CELL = 'minigrad.check("2.3")', 'minigrad.check_answer("q2.1", answer_q2_1)'


def graded(source, grade_id):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "points": 1, "solution": False}
    return cell


def page_words(tmp_path, language, said):
    """What FeedbackPage gives the template for a chapter-2 notebook whose grading report holds ``said``."""
    report = tmp_path / "autograded" / "alice" / "02_gradients" / grading.REPORT
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


def test_graded_cells_are_named_by_their_step_and_incidents_said_in_the_students_language(tmp_path):
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
