"""The class at a glance after autograde: the page and the CSV say the same, and the CSV what the gradebook holds.

The class is ``mistaken_class``'s (graded once, shared with the feedback page's tests); its English report
is written by ``classwide.autograde``, its Chinese one from the same gradebook."""
import csv
import html
import re

import pytest
from nbgrader.api import Gradebook

from support.submissions import ASSIGNMENT
from support.mistaken_class import graded
from minigrad import messages as learner_messages
from minigrad.steps.chapter2.checks import FIFO
from tools import class_report, nbgraderapp, sandbox

pytestmark = [pytest.mark.grading, pytest.mark.skipif(not sandbox.bwrap_works("bwrap"), reason="no bubblewrap here")]
STEPS = [f"step_2_{n}" for n in range(1, 9)] + ["q2_1", "q2_2"]
INCIDENTS = {
    "en": ['the read-only cell minigrad.check("2.1") was edited: the instructor\'s cell was put back and graded',
           'the read-only cell minigrad.check("2.2") was deleted: the instructor\'s cell was put back and graded',
           'the check cell minigrad.check("C2") was edited or deleted: what the notebook shows there is not a '
           'verdict of the checks'],
    "zh": ['只读单元格 minigrad.check("2.1") 被改动过：已换回教师的原单元格，并按原单元格评分',
           '只读单元格 minigrad.check("2.2") 被删除了：已补回教师的原单元格，并按原单元格评分',
           '检查单元格 minigrad.check("C2") 被改动或删除了：笔记本在那里显示的内容并不是检查给出的结论'],
}
RAISED = {"en": "the code raised ValueError", "zh": "代码抛出了 ValueError"}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return graded(tmp_path_factory)


@pytest.fixture(scope="module", params=["en", "zh"])
def report(request, course):
    """The CSV's rows and the page's text in one language (English: as autograde wrote them)."""
    if request.param == "en":
        page, table = course.root / "reports" / f"{ASSIGNMENT}.html", course.root / "reports" / f"{ASSIGNMENT}.csv"
    else:
        page, table = class_report.write(course.root, ASSIGNMENT, language="zh")
    with open(table, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return request.param, rows, page.read_text(encoding="utf-8")


def test_autograde_says_where_the_class_at_a_glance_is(course):
    assert course.summary.rstrip().endswith(
        f"the class at a glance: reports/{ASSIGNMENT}.html and reports/{ASSIGNMENT}.csv")


def gradebook_passes(root):
    """Per graded cell, (students with full points, students graded), straight from nbgrader's gradebook."""
    coursedir = nbgraderapp.api(root).coursedir
    counts = {}
    with Gradebook(coursedir.db_url, coursedir.course_id) as gradebook:
        for student in ("mistaken", "tamperer"):
            for grade in gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student).grades:
                passed, total = counts.get(grade.name, (0, 0))
                counts[grade.name] = (passed + (grade.score == grade.max_score), total + 1)
    return counts


def test_the_csv_counts_are_the_gradebooks(course, report):
    language, rows, _ = report
    steps = {row["item"]: (int(row["count"]), int(row["total"])) for row in rows if row["section"] == "step"}
    assert [row["item"] for row in rows if row["section"] == "step"] == STEPS
    assert steps == gradebook_passes(course.root)
    assert steps["step_2_1"] == steps["step_2_2"] == (2, 2) and steps["step_2_3"] == (0, 2)


def test_the_page_counts_are_the_csvs(report):
    _, rows, page = report
    on_page = [(m["id"], int(m["count"]), int(m["total"])) for m in re.finditer(
        r'<tr data-id="(?P<id>[^"]+)"[^>]*>.*?<td class="count">(?P<count>\d+)</td><td class="total">(?P<total>\d+)'
        r"</td>", page)]
    in_csv = [(row["item"], int(row["count"]), int(row["total"])) for row in rows
              if row["section"] in ("step", "mistake")]
    assert on_page == in_csv and len(in_csv) > len(STEPS)
    assert "<script" not in page and not re.search(r"""(src|href)\s*=""", page)


def test_named_mistakes_are_counted_by_their_name(report):
    language, rows, page = report
    mistakes = {(row["item"], row["kind"], row["mistake"]): (row["count"], row["students"], row["text"])
                for row in rows if row["section"] == "mistake"}
    fifo = learner_messages.say(FIFO, language).splitlines()[0]
    assert mistakes[("step_2_3", "failed", FIFO)] == ("1", "mistaken", fifo)
    assert mistakes[("step_2_3", "raised:ValueError", "")] == ("1", "tamperer", RAISED[language])
    assert html.escape(fifo) in page and html.escape(RAISED[language]) in page
    assert [k for k in mistakes if k[0] == "step_2_1" or k[0] == "step_2_2"] == []


def test_every_incident_and_the_slowest_are_listed(course, report):
    language, rows, page = report
    assert [(row["item"], row["text"]) for row in rows if row["section"] == "incident"] == \
           [("tamperer", text) for text in INCIDENTS[language]]
    assert all(html.escape(text) in page for text in INCIDENTS[language])
    slowest = [(row["item"], float(row["seconds"])) for row in rows if row["section"] == "slowest"]
    if language == "en":  # written by autograde, which timed this run
        assert slowest == [(s, round(t, 1)) for s, t in sorted(course.seconds.items(), key=lambda p: -p[1])]
    else:  # written afterwards from the gradebook alone: no times to show
        assert slowest == []
