"""The class at a glance, after autograde: what to explain next class, as one offline page and a CSV.

For one assignment, ``write`` puts in ``ROOT/reports/NAME.html`` (self-contained: no script, no
link out, in the course's language or another) and ``ROOT/reports/NAME.csv``:

- per graded cell (a step, a practice question): how many students passed it, of how many graded,
  as the gradebook holds their grades (full points: passed);
- per mistake: how many students made it, and who. A step that did not pass says why in its
  verdict (the graded cell's output in the autograded notebook): not implemented, stopped, an
  error the code raised, or, when the wrong result is what one of the reference's known mistakes
  gives, that mistake by name (the checks' own list, each chapter's ``expected.json``: the English message is
  its identifier, the same in every language);
- the slowest submissions (this run's grading times);
- every incident: what grading noted about a submission (its report), and each submission that
  could not be graded.
"""
import csv
import html
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbgrader.api import MissingEntry
from minigrad import messages as learner_messages
from minigrad.steps import expected_observations, judge

from . import freshchecks, grading, grading_report, nbgraderapp
from .instructor_messages import N_, say

SLOWEST = 5
COLUMNS = ["section", "item", "kind", "mistake", "count", "total", "seconds", "students", "text"]
TITLE = N_("{assignment}: the class at a glance")
HEADINGS = {"step": N_("Passed, per step"), "mistake": N_("Mistakes, per step"),
            "slowest": N_("Slowest submissions"), "incident": N_("Incidents")}
COLUMN_NAMES = {"item": N_("Step"), "count": N_("Students"), "total": N_("Graded"), "text": N_("What"),
                "students": N_("Who"), "seconds": N_("Seconds"), "student": N_("Student")}
STEP, QUESTION = N_("step {step}"), N_("practice question {question}")
NONE = N_("none")
WRITTEN = N_("the class at a glance: {page} and {table}")
# What a verdict's kind says, for an instructor (a named mistake says more: its own message).
KINDS = {"failed": N_("a wrong result"), "not_implemented": N_("not implemented"),
         "stopped": N_("its checks were stopped by a limit"),
         "after_stopped": N_("not checked: it uses the code of a step whose checks were stopped"),
         "hidden": N_("failed the instructor's hidden tests"), "no_verdict": N_("its checks crashed"),
         "unanswered": N_("no answer"), "wrong": N_("a wrong answer"), "raised": N_("the code raised {error}")}


@dataclass
class Glance:
    """What the page and the CSV show: rows of the CSV, by section."""
    steps: list = field(default_factory=list)      # (grade id, label, passed, graded)
    mistakes: list = field(default_factory=list)   # (grade id, label, kind, mistake msgid, students, graded)
    slowest: list = field(default_factory=list)    # (student, seconds)
    incidents: list = field(default_factory=list)  # (student, text)


def write(root, assignment, results=(), language=None):
    """Write the page and the CSV of ``assignment`` (``results``: this run's ``classwide.Result`` list, for
    the grading times and the submissions that failed); return both paths."""
    root = Path(root).resolve()
    language = language or nbgraderapp.course_language(root)
    glance = gather(root, assignment, results, language)
    folder = root / "reports"
    folder.mkdir(exist_ok=True)
    page, table = folder / f"{assignment}.html", folder / f"{assignment}.csv"
    page.write_text(render(assignment, glance, language), encoding="utf-8")
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows(rows(glance, language))
    return page, table


def gather(root, assignment, results, language):
    """The class's grades (gradebook), verdicts (autograded notebooks), times and incidents."""
    graded_language = nbgraderapp.course_language(root)
    glance = Glance()
    with nbgraderapp.gradebook(nbgraderapp.api(root).coursedir) as gradebook:
        cells, grades = _grades(gradebook, assignment)
    students = sorted({student for student, _ in grades})
    named = _named_mistakes(graded_language)
    totals = {}
    for grade_id, (label, _) in cells.items():
        scored = [grades[student, grade_id] for student in students if (student, grade_id) in grades]
        totals[grade_id] = len(scored)
        passed = sum(score >= top > 0 for score, top in scored)
        glance.steps.append((grade_id, _said(label, language), passed, len(scored)))
    made = defaultdict(list)
    for student in students:
        for grade_id, kind, mistake in _verdicts(root, assignment, student, cells, named, graded_language):
            made[grade_id, kind, mistake].append(student)
    for (grade_id, kind, mistake), who in sorted(made.items(), key=lambda item: _order(cells, item)):
        glance.mistakes.append((grade_id, _said(cells[grade_id][0], language), kind, mistake, sorted(who),
                                totals[grade_id]))
    timed = [r for r in results if r.ok and r.seconds > 0]
    glance.slowest = [(r.student, r.seconds) for r in sorted(timed, key=lambda r: -r.seconds)[:SLOWEST]]
    glance.incidents = _incidents(root, assignment, students, results, language)
    return glance


def _grades(gradebook, assignment):
    """Each graded cell (grade id -> (label, notebook)) in the notebook's order, and every (student, grade id) ->
    (score, max score) the gradebook holds."""
    cells, grades = {}, {}
    try:
        notebooks = gradebook.find_assignment(assignment).notebooks
    except MissingEntry:  # nothing of it graded yet: an empty page says so
        return cells, grades
    for notebook in notebooks:
        for cell in sorted(notebook.grade_cells, key=lambda c: _position(notebook, c.name)):
            source = gradebook.find_source_cell(cell.name, notebook.name, assignment).source
            kind, step, _ = freshchecks.graded_kind(source) or ("step", cell.name, None)
            label = (QUESTION, {"question": step.upper()}) if kind == "question" else (STEP, {"step": step})
            cells[cell.name] = (label, notebook.name)
    for submission in gradebook.assignment_submissions(assignment):
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                grades[submission.student.id, grade.name] = (float(grade.score), float(grade.max_score))
    return cells, grades


def _said(label, language):
    """A graded cell's label (a message and its fields) in ``language``: "step 2.3", "practice question Q2.1"."""
    message, fields = label
    return say(message, language, **fields)


def _position(notebook, name):
    names = [cell.name for cell in notebook.source_cells]
    return names.index(name) if name in names else len(names)


def _order(cells, item):
    (grade_id, kind, mistake), who = item
    return list(cells).index(grade_id), -len(who), kind, mistake


def _named_mistakes(language):
    """Each step's named mistakes: (the verdict's first line when the learner made it, its English message)."""
    named = defaultdict(list)
    for step, checks in expected_observations().items():
        for observations in checks.values():
            for seen in observations:
                messages = [message for _, message in seen.get("mistakes", ())]
                messages += [seen["label"]] if seen.get("requirement") else []
                for message in messages:
                    detail = learner_messages.say(message, language).splitlines()[0]
                    named[step].append((learner_messages.say(judge.FAILED, language, step=step, detail=detail),
                                        message))
    return named


def _verdicts(root, assignment, student, cells, named, language):
    """(grade id, kind, mistake) of each graded cell the student did not pass, read from the autograded
    notebook's verdicts (kinds from the grading report)."""
    folder = root / "autograded" / student / assignment
    try:
        report = json.loads((folder / grading_report.REPORT).read_bytes()[:1 << 20])
    except (OSError, ValueError):
        return
    verdicts = report.get("verdicts") if isinstance(report, dict) else None
    said = {}
    for notebook in {notebook for _, notebook in cells.values()}:
        try:
            for cell in grading.graded_cells(nbformat.read(folder / f"{notebook}.ipynb", as_version=4)):
                said[grading.grade_id(cell)] = "".join(o.get("evalue", "") for o in cell.outputs)
        except (OSError, ValueError):
            continue
    for grade_id, verdict in (verdicts or {}).items():
        if grade_id not in cells or not isinstance(verdict, dict) or verdict.get("passed") is not False:
            continue
        kind, text = str(verdict.get("kind")), said.get(grade_id, "")
        step = cells[grade_id][0][1].get("step")
        mistake = next((message for first, message in named.get(step, ()) if text.split("\n")[0] == first), "")
        raised = _raised(text, step, language) if kind == "failed" and not mistake else None
        yield grade_id, (f"raised:{raised}" if raised else kind), mistake


def _raised(text, step, language):
    """The name of the error a step's verdict says the learner's code raised (judge's CRASH), or None."""
    crash = learner_messages.say(judge.CRASH, language).split("{error}")[0]
    prefix = learner_messages.say(judge.FAILED, language, step=step, detail=crash)
    return text[len(prefix):].split(":")[0].split()[0] if text.startswith(prefix) and len(text) > len(prefix) else None


def _incidents(root, assignment, students, results, language):
    """What grading noted about each graded submission, and why each failed one could not be graded."""
    noted = []
    for student in students:
        try:
            report = json.loads((root / "autograded" / student / assignment / grading_report.REPORT).read_bytes()[:1 << 20])
        except (OSError, ValueError):
            continue
        noted += [(student, note) for note in grading_report.said(report, language)]
    noted += [(r.student, r.error) for r in results if not r.ok]
    return sorted(noted, key=lambda pair: pair[0])  # by student, each one's in the order they happened


def kind_text(kind, mistake, language):
    """What went wrong, for an instructor: the mistake's own name, else what the verdict's kind says."""
    if mistake:
        return learner_messages.say(mistake, language).splitlines()[0]
    if kind.startswith("raised:"):
        return say(KINDS["raised"], language, error=kind.split(":", 1)[1])
    return say(KINDS[kind], language) if kind in KINDS else kind


def rows(glance, language):
    """The CSV's rows (after its header, ``COLUMNS``)."""
    for grade_id, label, passed, graded in glance.steps:
        yield ["step", grade_id, "passed", "", passed, graded, "", "", label]
    for grade_id, _, kind, mistake, who, graded in glance.mistakes:
        text = kind_text(kind, mistake, language)
        yield ["mistake", grade_id, kind, mistake, len(who), graded, "", " ".join(who), text]
    for student, seconds in glance.slowest:
        yield ["slowest", student, "", "", "", "", f"{seconds:.1f}", student, ""]
    for student, text in glance.incidents:
        yield ["incident", student, "", "", "", "", "", student, text]


def render(assignment, glance, language):
    """The page: four tables, plain HTML and CSS, nothing loaded from anywhere."""
    e, t = html.escape, lambda text, **fields: html.escape(say(text, language, **fields))
    steps = "".join(f'<tr data-id="{e(grade_id)}"><td>{e(label)}</td><td class="count">{passed}</td>'
                    f'<td class="total">{graded}</td><td><span class="bar" style="width:{_share(passed, graded)}%">'
                    f"</span></td></tr>" for grade_id, label, passed, graded in glance.steps)
    mistakes = "".join(f'<tr data-id="{e(grade_id)}" data-kind="{e(kind)}" data-mistake="{e(mistake)}">'
                       f"<td>{e(label)}</td>"
                       f"<td>{e(kind_text(kind, mistake, language))}</td>"
                       f'<td class="count">{len(who)}</td><td class="total">{graded}</td>'
                       f'<td>{e(" ".join(who))}</td></tr>'
                       for grade_id, label, kind, mistake, who, graded in glance.mistakes)
    slowest = "".join(f'<tr><td>{e(student)}</td><td class="seconds">{seconds:.1f}</td></tr>'
                      for student, seconds in glance.slowest)
    incidents = "".join(f"<tr><td>{e(student)}</td><td>{e(text)}</td></tr>" for student, text in glance.incidents)
    c = COLUMN_NAMES
    return PAGE.format(
        lang=e(language), title=t(TITLE, assignment=assignment), css=CSS, none=t(NONE),
        steps_heading=t(HEADINGS["step"]), mistakes_heading=t(HEADINGS["mistake"]),
        slowest_heading=t(HEADINGS["slowest"]), incidents_heading=t(HEADINGS["incident"]),
        step=t(c["item"]), count=t(c["count"]), total=t(c["total"]), what=t(c["text"]), who=t(c["students"]),
        student=t(c["student"]), seconds=t(c["seconds"]),
        steps=steps, mistakes=mistakes or EMPTY, slowest=slowest or EMPTY, incidents=incidents or EMPTY,
    ).replace(EMPTY, f'<tr><td colspan="5">{t(NONE)}</td></tr>')


def _share(part, whole):
    return round(100 * part / whole) if whole else 0


EMPTY = "<!--none-->"
CSS = """body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin-bottom:2em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
td.count,td.total,td.seconds{text-align:right}td:last-child{min-width:8em}
.bar{display:inline-block;height:.8em;background:#4a8}"""
PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title><style>{css}</style></head>
<body><h1>{title}</h1>
<h2>{steps_heading}</h2>
<table class="steps"><tr><th>{step}</th><th>{count}</th><th>{total}</th><th></th></tr>{steps}</table>
<h2>{mistakes_heading}</h2>
<table class="mistakes"><tr><th>{step}</th><th>{what}</th><th>{count}</th><th>{total}</th><th>{who}</th></tr>
{mistakes}</table>
<h2>{slowest_heading}</h2>
<table class="slowest"><tr><th>{student}</th><th>{seconds}</th></tr>{slowest}</table>
<h2>{incidents_heading}</h2>
<table class="incidents"><tr><th>{student}</th><th>{what}</th></tr>{incidents}</table>
</body></html>
"""
