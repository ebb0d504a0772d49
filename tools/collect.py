"""Getting submissions into the course root, and making each one gradable.

Two ways in: nbgrader's exchange (``nbgrader collect``), or the zip an LMS gives for
download, read as Canvas and Moodle name its files and mapped to the course's ids through
the roster (``tools/lms.py``, ``tools/roster.py``).

Grades come from the package files, so a notebook that cannot be read (malformed JSON, not
a notebook) or is missing must not cost a student the grade of their code: it is replaced
by the released notebook, and the original is kept beside it as ``NAME.ipynb.unreadable``
(empty when the notebook was missing). A notebook edited by hand or by an older tool may lack
the cell ids that nbformat 4.5 requires: nbformat's own normalisation gives them, so that no
reader warns (``MissingIDFieldWarning``) about it again.
"""
import json
import shutil
import warnings
from pathlib import Path

import nbformat
from nbformat.validator import normalize

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
        with_cell_ids(submitted)
        if not readable(submitted):
            if submitted.exists():
                submitted.replace(aside)
            aside.touch()
            shutil.copyfile(released, submitted)
        if aside.exists():
            notes.append(f"{released.name} was unreadable or missing: the released notebook stood in for it")
    return notes


def with_cell_ids(path):
    """Give each cell of the notebook at ``path`` the id it lacks, in place (nothing else changes); leave a
    notebook that is not JSON, or needs no change, as it is."""
    try:
        notebook = json.loads(Path(path).read_text())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the warning this repairs
            changes, normalised = normalize(notebook)
    except Exception:  # noqa: BLE001 - not a notebook at all: readable() says so
        return
    if changes:
        nbformat.write(nbformat.from_dict(normalised), path)


def readable(path):
    """Whether nbgrader can read the notebook at ``path``."""
    invalid = {}
    try:
        nbformat.read(path, as_version=4, capture_validation_error=invalid)
    except Exception:  # any failure to read or parse: not a notebook nbgrader can grade
        return False
    return not invalid
