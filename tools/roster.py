"""The class list the instructor gives: who the students are, and how each LMS names them.

``roster.csv`` (in the course root, or given with ``--roster``) has one row per student:

    student_id    the course's id for the student: their folder in the course root, their row in the gradebook
    name          their full name, as the LMS shows it (optional)
    email         their e-mail address: how Moodle's grading worksheet and grade import know them (optional)
    canvas_id     their Canvas user id (the number in a Canvas download's file names; optional)
    sis_user_id, sis_login_id, section    what Canvas's gradebook import shows beside a grade (optional)

Canvas's own gradebook export (Grades > Export) is a roster as it comes: its columns ``Student, ID, SIS User
ID, SIS Login ID, Section`` (then one per assignment) give ``name``, ``canvas_id``, ``sis_user_id``,
``sis_login_id`` and ``section``, and the student id is the ``SIS Login ID`` (the login the school gives),
or the Canvas ``ID`` where it is empty. Its rows that are no student are left out: ``Points Possible``, the
posting policy's row (no Student, e.g. "Manual Posting"), and Canvas's ``Student, Test`` (Student View).

Moodle numbers the participants of each assignment anew, so its ids are not in the roster: its grading
worksheet (downloaded with the submissions) maps each ``Participant N`` to an e-mail address, and the
roster maps that address to the student.
"""
import csv
from dataclasses import dataclass, field
from pathlib import Path

from .instructor_messages import N_, Refused, say

FILE = "roster.csv"
COLUMNS = ("student_id", "name", "email", "canvas_id", "sis_user_id", "sis_login_id", "section")
# Canvas's gradebook export: the roster's column each of its columns gives.
CANVAS_EXPORT = {"Student": "name", "ID": "canvas_id", "SIS User ID": "sis_user_id", "SIS Login ID": "sis_login_id",
                 "Section": "section"}
CANVAS_TEST_STUDENT = "Student, Test"  # the student Canvas's Student View makes in every course


@dataclass
class Roster:
    """The students of the course, by their course id, with the ids each LMS knows them by."""
    students: dict = field(default_factory=dict)  # student_id -> {column: value}

    def by(self, column):
        """student_id for each non-empty value of ``column`` (``canvas_id``, or ``email`` in lower case)."""
        found = {}
        for student, row in self.students.items():
            value = row.get(column, "").strip()
            if value:
                found[value.lower() if column == "email" else value] = student
        return found


def of_course(root, given=None):
    """The roster ``given`` (``--roster``: it must exist), else the course root's ``roster.csv`` if there is one."""
    if given and not Path(given).is_file():
        raise Refused(N_("{path}: no such roster file"), path=given)
    return read(given or Path(root) / FILE)


def read(path):
    """The roster at ``path``; an absent file is an empty roster (no check, no LMS ids)."""
    path = Path(path)
    if not path.is_file():
        return Roster()
    table = rows(path)
    if table and "student_id" not in table[0]:
        if not set(CANVAS_EXPORT) <= set(table[0]):
            raise Refused(N_("{path}: a roster needs a student_id column (its columns: {columns}), or is Canvas's "
                             "gradebook export as it comes"), path=path, columns=", ".join(COLUMNS))
        table = from_canvas(table)
    students = {}
    for row in table:
        student = row["student_id"].strip()
        if student.startswith(".") or "/" in student or "\\" in student:
            raise Refused(N_("{path}: {student} cannot be a student id (it names a folder of the course root)"),
                          path=path, student=student)
        if student in students:
            raise Refused(N_("{path}: the student id {student} is in the roster twice"), path=path, student=student)
        if student:
            students[student] = {k: (v or "").strip() for k, v in row.items() if k}
    return Roster(students)


def from_canvas(table):
    """The rows of Canvas's gradebook export as roster rows: its students, each one's id its SIS Login ID, or
    its Canvas ID where that is empty."""
    students = []
    for row in table:
        name = (row["Student"] or "").strip()
        if name and name != CANVAS_TEST_STUDENT and name != "Points Possible":
            student = {column: (row[heading] or "").strip() for heading, column in CANVAS_EXPORT.items()}
            students.append({"student_id": student["sis_login_id"] or student["canvas_id"], **student})
    return students


def moodle_worksheet(path):
    """Moodle's grading worksheet: each ``Participant N`` (its Identifier column) and its e-mail address."""
    table = rows(Path(path))
    if table and not {"Identifier", "Email address"} <= set(table[0]):
        raise Refused(N_("{path}: not a Moodle grading worksheet (it needs the columns Identifier and "
                             "Email address)"), path=path)
    return {row["Identifier"].removeprefix("Participant").strip(): row["Email address"].strip().lower()
            for row in table}


def rows(path):
    """The rows of a CSV file as dicts by column."""
    with open(path, newline="", encoding="utf-8-sig") as handle:  # a roster saved by Excel starts with a BOM
        return list(csv.DictReader(handle))


def check(language, roster, submitted, collected=None):
    """The roster check, as lines to print: students missing, unknown to the roster, submitted twice, uploads
    left out, late, refused (the last five from an LMS download's ``collected``, see ``lms.read``)."""
    if not roster.students:
        return [say(N_("no roster ({file} in the course root, or --roster): students are not checked"), language,
                    file=FILE)]
    unknown = list(collected.unknown) if collected else []
    unknown += [student for student in submitted if student not in roster.students]
    missing = [student for student in roster.students if student not in submitted]
    lines = [say(N_("roster: {count} students, {submitted} with a submission"), language,
                 count=len(roster.students), submitted=len(set(submitted) & set(roster.students)))]
    groups = [(N_("missing (in the roster, no submission): {count}"), missing),
              (N_("unknown (submitted, not in the roster): {count}"), unknown)]
    if collected:
        groups += [(N_("submitted twice (the later upload is graded): {count}"),
                    [f"{student}: {kept}" for student, kept in collected.twice.items()]),
                   (N_("not collected (beside the zip graded): {count}"), collected.left_out),
                   (N_("late (as the LMS marks it): {count}"), collected.late),
                   (N_("refused (not collected): {count}"),
                    [f"{student}: {why.said(language)}" for student, why in collected.refused.items()])]
    for title, names in groups:
        if names:
            lines.append("  " + say(title, language, count=len(names)))
            lines += [f"    {name}" for name in names]
    return lines
