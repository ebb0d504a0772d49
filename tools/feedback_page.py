"""The feedback page a student gets for a chapter: one HTML file that opens anywhere, offline, in their language.

nbgrader writes feedback with nbconvert's HTML exporter and its own template, whose labels are
English ("Test cell", "Score") and whose maths needs MathJax from the internet. Here:

- ``FeedbackPage``, a preprocessor of ``GenerateFeedback``, gives the template what it shows in
  the course's language (from ``tools/locale``): the labels, each graded cell's name (the step's
  title as the chapter's heading gives it: "Step 2.3 · the ready queue ..."), and what happened
  when the submission was graded (grading's report: an unreadable notebook, a limit hit, a file
  missing, a read-only cell the student changed). It writes each formula of the markdown as MathML,
  which browsers draw themselves, and takes the grader's own paths out of every output and incident
  (``tools.grader_paths``): a traceback names the student's files, never the grader's machine.
- the template ``templates/feedback`` lays the page out from those, and loads no script. It takes
  the place of nbgrader's template of the same name (nbgrader's API asks for "feedback" by name).
- ``keep_pages`` leaves only the pages in a student's feedback folder (nbgrader copies the
  package and the grading report there too); ``bundle`` zips a chapter's pages for an LMS.
"""
import json
import re
import zipfile
from pathlib import Path

import nbgrader
from latex2mathml.converter import convert
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Unicode

from . import deadlines, editions, grader_paths, grading, grading_report
from .instructor_messages import N_, say

TEMPLATES = Path(__file__).resolve().parent / "templates"
NBGRADER_TEMPLATES = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates"
LABELS = {
    "score": N_("Score"),
    "top": N_("Top"),
    "answer": N_("Your answer"),
    "comments": N_("Comments"),
    "late": N_("Late submission penalty"),
    "incidents": N_("What happened when your work was graded"),
    "contents": N_("Graded cells"),
}
STEP = N_("Step {step} · {title}")
QUESTION = N_("Practice question {question}")
# A chapter's exercise heading in either language: "### Exercise 2.3 · the ready queue", "### 练习 2.3 · 就绪队列".
HEADING = re.compile(rf"^#+\s+\S+\s+(?P<step>{editions.ids.STEP})\s+·\s+(?P<title>.+?)\s*$", re.MULTILINE)
# Code spans are kept as they are; $$display$$ and $inline$ formulas become MathML.
MATH = re.compile(r"(?P<code>(`+).*?\2)|\$\$(?P<display>.+?)\$\$"
                  r"|\$(?P<inline>[^\s$](?:[^$\n]*?[^\s$])?)\$", re.DOTALL)
# Characters of MathML text that markdown would read as its own marks.
MARKDOWN_MARKS = str.maketrans({c: f"&#{ord(c)};" for c in "*_\\`[]~"})


class FeedbackPage(NbGraderPreprocessor):
    """Put the page's words (labels, cell names, incidents) in ``resources["minigrad"]``; maths as MathML."""

    language = Unicode("en", help="The language of the page: en or zh.").tag(config=True)

    def preprocess(self, nb, resources):
        folders = grader_paths.grader_folders(CourseDirectory(parent=self).root)
        titles = {m["step"]: m["title"] for cell in nb.cells if cell.cell_type == "markdown"
                  for m in HEADING.finditer(cell.source)}
        resources["minigrad"] = {
            "language": self.language,
            "labels": {key: say(text, self.language) for key, text in LABELS.items()},
            "names": {grading.grade_id(cell): self._name(cell, titles) for cell in grading.graded_cells(nb)},
            "incidents": [*(grader_paths.hidden(note, folders) for note in self._incidents(resources)),
                          *deadlines.notes_of(CourseDirectory(parent=self), resources["nbgrader"], self.language)],
        }
        grader_paths.hide_in_outputs(nb, folders)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = with_mathml(cell.source)
        return nb, resources

    def _name(self, cell, titles):
        kind, step, _ = grading.kind_of(cell)
        if kind == "question":
            return say(QUESTION, self.language, question=step.upper())
        return say(STEP, self.language, step=step, title=markdown_text(titles.get(step, "")))

    def _incidents(self, resources):
        """What grading noted about this submission, in the page's language (read from its report)."""
        coursedir = CourseDirectory(parent=self)
        ids = resources["nbgrader"]
        folder = coursedir.format_path(coursedir.autograded_directory, ids["student"], ids["assignment"])
        try:
            report = json.loads((Path(folder) / grading_report.REPORT).read_bytes()[:1 << 20])
        except (OSError, ValueError):
            return []
        return grading_report.said(report, self.language)


def markdown_text(title):
    """A heading's title as plain text: code spans lose their backticks (the page escapes the rest)."""
    return re.sub(r"`([^`]*)`", r"\1", title)


def with_mathml(markdown):
    """``markdown`` with each formula written as MathML (on one line, so markdown leaves it whole)."""
    def replace(match):
        if match["code"]:
            return match["code"]
        display = match["display"] is not None
        latex = match["display"] if display else match["inline"]
        try:
            mathml = convert(latex.strip(), display="block" if display else "inline")
        except Exception:  # noqa: BLE001 - a formula the converter cannot read stays readable as its source
            return f"<code>{latex}</code>"
        mathml = mathml.replace("\n", "").translate(MARKDOWN_MARKS)
        return f'<div class="math">{mathml}</div>' if display else mathml
    return MATH.sub(replace, markdown)


def configure(c, language):
    """Write feedback pages the minigrad way (in nbgrader_config.py, after ``grading.configure``)."""
    c.FeedbackPage.language = language
    c.GenerateFeedback.preprocessors = [*c.GenerateFeedback.preprocessors, FeedbackPage]
    # Ours first, so that its "feedback" is found before nbgrader's; then nbgrader's own folder, which holds
    # the formgrader's "formgrade" (this setting overrides the one the formgrader makes for itself).
    c.HTMLExporter.extra_template_basedirs = [str(TEMPLATES), str(NBGRADER_TEMPLATES)]


EXCHANGE_FILES = {"timestamp.txt", "submission_secret.txt"}  # nbgrader's own, read by release_feedback


def keep_pages(folder):
    """Leave only the HTML pages in a student's feedback folder, and the two files with which nbgrader's exchange
    finds whom a page goes back to (it hands back pages only)."""
    for path in sorted(Path(folder).rglob("*"), reverse=True):
        if path.is_file() and path.suffix != ".html" and path.name not in EXCHANGE_FILES:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def bundle(root, assignment):
    """Zip every student's pages of ``assignment`` for an LMS (``STUDENT/NOTEBOOK.html``); return its path."""
    root = Path(root)
    target = root / "feedback-bundles" / f"{assignment}.zip"
    target.parent.mkdir(exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for page in sorted((root / "feedback").glob(f"*/{assignment}/*.html")):
            archive.write(page, f"{page.parent.parent.name}/{page.name}")
    return target
