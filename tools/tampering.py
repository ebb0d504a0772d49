"""Read-only cells a student changed, named as such in the grading report (so on the feedback page and in the summary).

nbgrader keeps each locked cell's checksum in the gradebook, and ``OverwriteCells`` quietly puts the
instructor's cell back (``add_missing_cells`` adds a deleted one back): the grade is right, but
nothing tells the student or the instructor that the cell had been changed. And a chapter's
ungraded check cells (``minigrad.check("C2")``, an optional challenge) are not locked: an edited
one runs as the student wrote it, and its forged "✓ passed" shows on the page like a verdict.

- ``FindTampering`` runs in autograde's first pass, before ``OverwriteCells``: it compares every
  locked cell of the gradebook with the submitted one (nbgrader's checksum, as of the release), and
  every check cell of the released notebook with the submitted cells, and notes what changed in the
  notebook's metadata (which that pass writes, and the second pass reads).
- ``ReportTampering`` runs in the second pass, right after ``SandboxedExecute`` has written the
  grading report: it moves those notes into the report's incidents (``grading_report.INCIDENTS``).
"""
import json
import re
from pathlib import Path

import nbformat
from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from . import grading_report

NOTES = "minigrad_tampering"  # the notebook metadata key between the two passes
CHECK_CELL = re.compile(r"^\s*minigrad\.check\(")


class FindTampering(NbGraderPreprocessor):
    """Note each read-only cell the submission changed or deleted (before nbgrader restores it)."""

    def preprocess(self, nb, resources):
        ids = resources["nbgrader"]
        handed_out = self._handed_out(resources)
        released = {cell.metadata["nbgrader"]["grade_id"]: _checksum(cell) for cell in handed_out.cells
                    if "grade_id" in cell.metadata.get("nbgrader", {})}
        with Gradebook(ids["db_url"]) as gradebook:
            cells = gradebook.find_notebook(ids["notebook"], ids["assignment"]).source_cells
            locked = [(cell.name, cell.source, released.get(cell.name) or cell.checksum)
                      for cell in cells if cell.locked]
        # Always set, even empty: notes a submission brings along are not ours.
        nb.metadata[NOTES] = [*_changed_locked(nb, locked), *_changed_checks(nb, handed_out)]
        return nb, resources

    def _handed_out(self, resources):
        """The notebook as students got it: the release (the gradebook's cells hold the hidden tests, which the
        release leaves out, so its checksums are not those of a cell handed back unchanged); else the source."""
        coursedir = CourseDirectory(parent=self)
        name = f"{resources['nbgrader']['notebook']}.ipynb"
        for folder in (coursedir.release_directory, coursedir.source_directory):
            path = Path(coursedir.format_path(folder, ".", resources["nbgrader"]["assignment"])) / name
            if path.exists():
                return nbformat.read(path, as_version=4)
        return nbformat.v4.new_notebook()


def _changed_locked(nb, locked):
    """A note for each locked cell (grade id, instructor's source, checksum) that ``nb`` lacks or changed."""
    submitted = {cell.metadata["nbgrader"].get("grade_id"): cell for cell in nb.cells if "nbgrader" in cell.metadata}
    for name, source, checksum in locked:
        cell = submitted.get(name)
        if cell is None:
            yield _note("locked_deleted", source)
        elif _checksum(cell) != checksum:
            yield _note("locked_edited", source)


def _changed_checks(nb, handed_out):
    """A note for each ungraded check cell of the notebook handed out that ``nb`` no longer holds as it was."""
    kept = [cell.source.strip() for cell in nb.cells if cell.cell_type == "code"]
    for cell in handed_out.cells:
        if cell.cell_type == "code" and "nbgrader" not in cell.metadata and CHECK_CELL.match(cell.source):
            if cell.source.strip() in kept:
                kept.remove(cell.source.strip())
            else:
                yield _note("check_changed", cell.source)


def _checksum(cell):
    try:
        return utils.compute_checksum(cell)
    except (KeyError, ValueError, TypeError, AttributeError):  # metadata a student garbled: changed, too
        return None


def _note(kind, source):
    """An incident naming the cell by its first line, as the student saw it (``minigrad.check("2.3")``)."""
    return {"kind": kind, "fields": {"cell": source.strip().splitlines()[0][:80] if source.strip() else "?"}}


class ReportTampering(NbGraderPreprocessor):
    """Add ``FindTampering``'s notes to the grading report that ``SandboxedExecute`` has just written."""

    def preprocess(self, nb, resources):
        notes = [note for note in nb.metadata.pop(NOTES, []) if note.get("kind") in grading_report.INCIDENTS]
        report_path = Path(resources["metadata"]["path"]) / grading_report.REPORT
        if notes and report_path.exists():
            report = json.loads(report_path.read_text())
            report["said"] += notes
            report_path.write_text(json.dumps(report, ensure_ascii=False, indent=1))
            for note in notes:
                self.log.warning("%s", grading_report.said({"said": [note]}, "en")[0])
        return nb, resources


def configure(c):
    """Put both passes in place (after ``grading.configure``): finding before nbgrader restores the cells,
    reporting once the grading report is written."""
    sanitizers = list(c.Autograde.sanitize_preprocessors)
    at = next(i for i, step in enumerate(sanitizers) if step.__name__ == "OverwriteCells")
    c.Autograde.sanitize_preprocessors = [*sanitizers[:at], FindTampering, *sanitizers[at:]]
    steps = list(c.Autograde.autograde_preprocessors)
    at = next(i for i, step in enumerate(steps) if step.__name__ == "SandboxedExecute") + 1
    c.Autograde.autograde_preprocessors = [*steps[:at], ReportTampering, *steps[at:]]
