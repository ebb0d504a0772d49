"""Getting submissions into the course root, and making each one gradable.

Two ways in: nbgrader's exchange (``nbgrader collect``), or the zip an LMS gives for
download, read as Canvas and Moodle name its files and mapped to the course's ids through
the roster (``tools/lms.py``, ``tools/roster.py``).

Grades come from the package files, so a notebook that cannot be read (malformed JSON, not
a notebook) or is missing must not cost a student the grade of their code: it is replaced
by the released notebook, and the original is kept beside it as ``NAME.ipynb.unreadable``
(empty when the notebook was missing).
"""
import shutil
from pathlib import Path

import nbformat

from . import gradesheets, lms, nbgraderapp

UNREADABLE = ".unreadable"


def from_exchange(root, assignment):
    """Collect the submissions in nbgrader's exchange (the latest of each student)."""
    nbgraderapp.succeed(nbgraderapp.api(root).collect(assignment, update=True), "collect")


def from_zip(root, assignment, archive, roster, worksheet=None):
    """Collect the submissions of an LMS download; return what ``lms.read`` found (for the roster check).

    A Moodle grading worksheet is kept in the course root: the grade export fills it in.
    """
    collected = lms.read(archive, roster, worksheet)
    lms.unpack(archive, root, assignment, collected)
    if worksheet:
        kept = gradesheets.worksheet_path(root, assignment)
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(worksheet, kept)
    return collected


def students(root, assignment):
    """Every student with a submission of ``assignment``, sorted."""
    return sorted(path.parent.name for path in (Path(root) / "submitted").glob(f"*/{assignment}") if path.is_dir())


def make_gradable(root, assignment, student):
    """Replace the notebooks nbgrader could not read; return a note for each one replaced."""
    submission = Path(root) / "submitted" / student / assignment
    notes = []
    for released in sorted((Path(root) / "release" / assignment).glob("*.ipynb")):
        submitted, aside = submission / released.name, submission / (released.name + UNREADABLE)
        if not readable(submitted):
            if submitted.exists():
                submitted.replace(aside)
            aside.touch()
            shutil.copyfile(released, submitted)
        if aside.exists():
            notes.append(f"{released.name} was unreadable or missing: the released notebook stood in for it")
    return notes


def readable(path):
    """Whether nbgrader can read the notebook at ``path``."""
    invalid = {}
    try:
        nbformat.read(path, as_version=4, capture_validation_error=invalid)
    except Exception:  # any failure to read or parse: not a notebook nbgrader can grade
        return False
    return not invalid
