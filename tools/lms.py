"""An LMS's download of submissions, as it comes: whose each file is, and each student's files unpacked.

The file names each LMS gives (checked against their sources and guides):

    Canvas           <sortable name>_[late_]<user id>_<file id>_<file name as uploaded>   (always flat)
    Moodle, flat     <Full Name>_<participant id>_assignsubmission_file_<file name as uploaded>
    Moodle, folders  <Full Name>_<participant id>_assignsubmission_file/<path as uploaded>

A name may hold spaces and underscores: the student is known by the number after it, mapped to the
course's id through the roster (Canvas's user id is a roster column; Moodle's participant ids change
with each assignment, so its grading worksheet maps them to e-mail addresses, which the roster maps on).

Canvas (and Moodle, when not downloading as folders) flattens what a student uploads, so that
``minigrad/autograd/graph.py`` and ``minigrad/viz/graph.py`` would become one ``graph.py``: a student
uploads one zip of the assignment folder. It is unpacked here, refusing absolute paths, ``..``, links,
and more than ``MAX_FILES`` files or ``MAX_BYTES`` bytes. Without a zip, the student's files are taken at
the paths the download gives them. Of two zips, the later upload is graded (Canvas's larger file id,
else the later time in the download), and the roster check says so.

No upload is dropped unsaid: each one is collected, or named in the roster check with why (unknown to the
roster, left out beside the zip graded, refused). A download is refused whole, before anything is written,
when the roster cannot name its students: a Canvas download needs the roster's ``canvas_id`` column, a Moodle
one its ``email`` column (and the assignment's grading worksheet).
"""
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from . import roster as rosters
from .instructor_messages import N_, Refused

PACKAGE = "minigrad"  # a zip of the package alone keeps it as its top folder
MAX_FILES = 1000
MAX_BYTES = 100 * 2**20

# (LMS, how its names look, the pattern): the more specific first, since a Moodle name would also pass for Canvas's.
NAMINGS = [
    ("Moodle", "<Full Name>_<participant id>_assignsubmission_file/<path>",
     re.compile(r"(?P<name>[^/]+?)_(?P<id>\d+)_assignsubmission_file/(?P<path>.+)")),
    ("Moodle", "<Full Name>_<participant id>_assignsubmission_file_<file>",
     re.compile(r"(?P<name>[^/]+?)_(?P<id>\d+)_assignsubmission_file_(?P<path>[^/]+)")),
    ("Canvas", "<sortable name>_[late_]<user id>_<file id>_<file>",
     re.compile(r"(?P<name>[^/]+?)_(?:(?P<late>late|LATE)_)?(?P<id>\d+)_(?P<upload>\d+)_(?P<path>[^/]+)")),
]
# What a download holds besides submissions: another Moodle plugin's part (online text, comments), and a Mac's
# traces (which a student's zip may hold too).
OTHER_PARTS = re.compile(r"[^/]+?_\d+_assign(?:submission|feedback)_(?!file[_/])")
JUNK = re.compile(r"(?:^|/)(?:__MACOSX/|\.DS_Store$)")
UNREADABLE = N_("{file} is not a zip file that can be read")
# Why a download cannot be collected when the roster gives none of the ids its LMS names students by.
NEEDS = {"Canvas": N_("{file}: a Canvas download names each student by their Canvas user id, and the roster gives "
                      "none: give a roster with the columns student_id and canvas_id (--roster, or roster.csv in the "
                      "course root; Canvas's gradebook export is one)"),
         "Moodle": N_("{file}: a Moodle download names each student through their e-mail address, and the roster "
                      "gives none: give a roster with the columns student_id and email (--roster, or roster.csv in "
                      "the course root)")}


@dataclass
class Entry:
    """One file of a download, as its name reads."""
    lms: str
    lms_id: str
    name: str
    path: str  # the file's name (or path) as the student uploaded it
    member: zipfile.ZipInfo
    late: bool = False
    upload: int = 0  # Canvas's file id: a later upload has a larger one

    def order(self):
        return self.upload, self.member.date_time, self.member.filename

    def who(self):
        return f"{self.name} ({self.lms} {self.lms_id})"


@dataclass
class Collected:
    """What an LMS download gave: each student's files, and what the roster check reports."""
    students: dict = field(default_factory=dict)  # student id -> the entries graded
    unknown: list = field(default_factory=list)  # "Name (LMS id)" of those the roster does not know
    twice: dict = field(default_factory=dict)  # student id -> the file kept, of several uploads
    left_out: list = field(default_factory=list)  # "student: file" of each upload beside the zip graded
    late: list = field(default_factory=list)
    refused: dict = field(default_factory=dict)  # student id -> Refused (why the upload was not unpacked)


def parse(member):
    """The Entry of a download's file, None for a file to ignore; an unknown naming is refused."""
    name = member.filename.replace("\\", "/")
    if member.is_dir() or OTHER_PARTS.match(name) or JUNK.search(name):
        return None
    for lms, _, pattern in NAMINGS:
        found = pattern.fullmatch(name)
        if found:
            parts = found.groupdict()
            return Entry(lms, parts["id"], parts["name"], parts["path"], member, late=bool(parts.get("late")),
                         upload=int(parts.get("upload") or 0))
    raise Refused(N_("{file}: not a file name an LMS gives. Expected one of:\n{patterns}"), file=member.filename,
                  patterns="\n".join(f"  {lms}: {shape}" for lms, shape, _ in NAMINGS))


def read(archive, roster, worksheet=None):
    """Whose each file of the download ``archive`` is: a Collected, its files not yet unpacked."""
    by_canvas, by_email = roster.by("canvas_id"), roster.by("email")
    participants = rosters.moodle_worksheet(worksheet) if worksheet else None
    collected, uploads = Collected(), {}
    try:
        with zipfile.ZipFile(archive) as download:
            entries = [entry for entry in map(parse, download.infolist()) if entry]
    except zipfile.BadZipFile:
        raise Refused(UNREADABLE, file=archive) from None
    for entry in entries:
        if entry.lms == "Moodle" and participants is None:
            raise Refused(N_("{file}: Moodle numbers participants anew in each assignment: give this assignment's "
                             "grading worksheet too (--worksheet)"), file=entry.member.filename)
        if not (by_canvas if entry.lms == "Canvas" else by_email):
            raise Refused(NEEDS[entry.lms], file=entry.member.filename)
        student = (by_canvas.get(entry.lms_id) if entry.lms == "Canvas"
                   else by_email.get(participants.get(entry.lms_id, "")))
        if student is None:
            if entry.who() not in collected.unknown:
                collected.unknown.append(entry.who())
            continue
        uploads.setdefault(student, []).append(entry)
    for student, entries in sorted(uploads.items()):
        zips = sorted((e for e in entries if e.path.lower().endswith(".zip")), key=Entry.order)
        collected.students[student] = zips[-1:] or entries
        collected.left_out += [f"{student}: {e.member.filename}" for e in entries
                               if e not in collected.students[student]]
        if len(zips) > 1:
            collected.twice[student] = zips[-1].member.filename
        if any(e.late for e in collected.students[student]):
            collected.late.append(student)
    return collected


def unpack(archive, root, assignment, collected):
    """Write each collected student's files into ``submitted/STUDENT/ASSIGNMENT/`` (afresh); a refused
    upload leaves the student out, noted in ``collected.refused``."""
    with zipfile.ZipFile(archive) as download:
        for student, entries in list(collected.students.items()):
            try:
                files = _files_of(download, entries)
            except Refused as refused:
                collected.refused[student] = refused
                del collected.students[student]
                continue
            folder = Path(root) / "submitted" / student / assignment
            if folder.exists():
                shutil.rmtree(folder)
            for path, data in files.items():
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_bytes(data)


def _files_of(download, entries):
    """{path in the submission: bytes} of one student: their zip's files, or their loose files."""
    if len(entries) == 1 and entries[0].path.lower().endswith(".zip"):
        entry = entries[0]
        if entry.member.file_size > MAX_BYTES:
            raise Refused(N_("{file} is larger than {mb} MB"), file=entry.member.filename, mb=MAX_BYTES >> 20)
        try:
            with zipfile.ZipFile(download.open(entry.member)) as upload:
                return _safe_members(upload, entry.member.filename)
        except zipfile.BadZipFile:
            raise Refused(UNREADABLE, file=entry.member.filename) from None
    _within_bounds([e.member for e in entries], entries[0].who())
    return {_safe_path(e.path, e.member.filename): download.read(e.member) for e in entries}


def _safe_members(upload, where):
    """The files of a student's zip, its one top folder (the assignment's, whatever its name) taken away,
    within the bounds."""
    members = [m for m in upload.infolist() if not m.is_dir() and not JUNK.search(m.filename)]
    _within_bounds(members, where)
    paths = {}
    for member in members:
        if stat.S_ISLNK(member.external_attr >> 16):
            raise Refused(N_("{file} holds a link ({path}), not a file"), file=where, path=member.filename)
        paths[_safe_path(member.filename, where)] = member
    tops = {PurePosixPath(p).parts[0] for p in paths}
    strip = len(tops) == 1 and tops != {PACKAGE} and all(len(PurePosixPath(p).parts) > 1 for p in paths)
    return {(str(PurePosixPath(*PurePosixPath(p).parts[1:])) if strip else p): upload.read(m) for p, m in paths.items()}


def _within_bounds(members, where):
    if len(members) > MAX_FILES:
        raise Refused(N_("{file} holds more than {count} files"), file=where, count=MAX_FILES)
    if sum(m.file_size for m in members) > MAX_BYTES:
        raise Refused(N_("{file} unpacks to more than {mb} MB"), file=where, mb=MAX_BYTES >> 20)


def _safe_path(path, where):
    """``path`` (from a zip) as a relative path that stays inside the submission, or refused."""
    path = path.replace("\\", "/")
    parts = PurePosixPath(path).parts
    if path.startswith("/") or re.match(r"[A-Za-z]:", path) or ".." in parts or not parts:
        raise Refused(N_("{file} holds {path}, a path outside the submission"), file=where, path=path)
    return str(PurePosixPath(*parts))
