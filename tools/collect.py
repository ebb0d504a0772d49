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
import filecmp
import json
import shutil
import warnings
import zipfile
from datetime import datetime
from pathlib import Path, PurePosixPath

import nbformat
from nbformat.validator import normalize

from . import deadlines, gradesheets, lms, nbgraderapp
from .instructor_messages import N_, Refused

UNREADABLE = ".unreadable"
REPLACED = "replaced"  # ROOT/replaced/<time>/<student>/<assignment>: a submission collected again, as it was
OTHER_CHAPTER = N_("{file} holds the work of {other} ({example}), not of {assignment}: nothing was collected. "
                   "Collect it as {other}, or download {assignment}'s submissions from your LMS.")


def from_exchange(root, assignment):
    """Collect the submissions in nbgrader's exchange (the latest of each student)."""
    nbgraderapp.succeed(nbgraderapp.api(root).collect(assignment, update=True), "collect")


def from_zip(root, assignment, archive, roster, worksheet=None):
    """Collect the submissions of an LMS download; return what ``lms.read`` found (for the roster check).

    A Moodle grading worksheet is kept in the course root: the grade export fills it in.
    """
    collected = lms.read(archive, roster, worksheet)
    _of_this_chapter(root, assignment, archive, collected)
    times = deadlines.times_of(root, assignment, collected, worksheet)  # read, or refused, before any is written
    lms.unpack(archive, root, assignment, collected)
    deadlines.stamp(root, assignment, times, collected.students)
    if worksheet:
        kept = gradesheets.worksheet_path(root, assignment)
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(worksheet, kept)
    return collected


def _of_this_chapter(root, assignment, archive, collected):
    """Refuse a download that holds another assignment's work (its notebooks, or folders named after it)."""
    others = {name for name in nbgraderapp.config(root).Autograde.exclude_overwriting if name != assignment}
    ours = {path.name for path in (Path(root) / "release" / assignment).glob("*.ipynb")}
    found = {}
    for path in _uploaded_paths(archive, collected):
        *folders, name = PurePosixPath(path).parts
        notebook = name.removesuffix(".ipynb") if name.endswith(".ipynb") and name not in ours else None
        for other in {*folders, notebook} & others:
            found.setdefault(other, set()).add(path)
    if found:
        other = max(found, key=lambda name: len(found[name]))
        example = min(found[other], key=lambda path: (not path.endswith(".ipynb"), path))  # a notebook, if any
        raise Refused(OTHER_CHAPTER, file=archive, other=other, example=example, assignment=assignment)


def _uploaded_paths(archive, collected):
    """The path of every file the collected students uploaded: in their own zips, or loose in the download."""
    with zipfile.ZipFile(archive) as download:
        for entries in collected.students.values():
            for entry in entries:
                if not entry.path.lower().endswith(".zip"):
                    yield entry.path
                    continue
                try:
                    with zipfile.ZipFile(download.open(entry.member)) as upload:
                        yield from (name.replace("\\", "/") for name in upload.namelist())
                except zipfile.BadZipFile:
                    continue  # unpacking refuses it, for this student only


def keep_previous(root, assignment):
    """Copy aside every submission of ``assignment`` before collecting anew (collecting replaces them):
    ``{student: its copy}``; ``replaced`` then keeps the copies of those that changed."""
    aside = Path(root) / REPLACED / datetime.now().strftime("%Y-%m-%d_%H-%M-%S_%f")
    kept = {}
    for student in students(root, assignment):
        kept[student] = aside / student / assignment
        shutil.copytree(Path(root) / "submitted" / student / assignment, kept[student], symlinks=True)
    return kept


def replaced(root, assignment, kept):
    """``{student: (files that differ, the copy)}`` for each submission that a new one replaced; the copies of
    those that came back the same are removed."""
    changed = {}
    for student, copy in kept.items():
        differing = _differing(copy, Path(root) / "submitted" / student / assignment)
        if differing:
            changed[student] = (differing, copy)
        else:
            shutil.rmtree(copy)
            _prune(copy.parent, Path(root))
    return changed


def _prune(folder, root):
    """Remove ``folder`` and its parents below ``root`` while they are empty."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _differing(old, new):
    """The files (relative paths) that differ between two submission folders, or are in one only."""
    files = {p.relative_to(old) for p in old.rglob("*") if p.is_file()} | \
        {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    return sorted(str(f) for f in files if not ((old / f).is_file() and (new / f).is_file() and
                                                filecmp.cmp(old / f, new / f, shallow=False)))


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
