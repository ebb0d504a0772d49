"""Grades in the layouts an LMS imports, one file per chapter, made from nbgrader's own export.

    canvas/NN_topic.csv            Canvas's gradebook import: the columns of Canvas's own gradebook export
                                   (Student, ID, SIS User ID, SIS Login ID, Section), the chapter's column,
                                   and the "Points Possible" row under the header
    moodle/NN_topic.csv            Moodle's gradebook import (Grades > Import > CSV file): Full name,
                                   Email address, the chapter's column; map Email address to the user
    moodle/NN_topic-worksheet.csv  the grading worksheet collected with Moodle's download (collect
                                   --worksheet), its Grade column filled: the assignment's "Upload grading
                                   worksheet" takes it back

Students come from the roster (``tools/roster.py``): one row each, the grade empty where nbgrader has none
(an LMS leaves an empty cell's grade as it was).
"""
import csv
from pathlib import Path

from . import roster as rosters

CANVAS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_FROM_ROSTER = ("name", "canvas_id", "sis_user_id", "sis_login_id", "section")
POINTS_POSSIBLE = "    Points Possible"  # as Canvas writes it: the row Canvas reads each column's points from
MOODLE = ("Full name", "Email address")


def worksheet_path(root, assignment):
    """Where ``collect`` keeps the Moodle grading worksheet of ``assignment``."""
    return Path(root) / "downloaded" / assignment / "moodle-worksheet.csv"


def scores(nbgrader_csv):
    """{assignment: ({student: score}, max score)} from nbgrader's export."""
    found = {}
    for row in rosters.rows(nbgrader_csv):
        grades, _ = found.setdefault(row["assignment"], ({}, float(row["max_score"])))
        grades[row["student_id"]] = float(row["score"])
    return found


def write(root, nbgrader_csv, roster):
    """Write every chapter's files for Canvas and Moodle beside ``nbgrader_csv``; return their paths."""
    folder, written = Path(nbgrader_csv).resolve().parent, []
    for assignment, (grades, top) in sorted(scores(nbgrader_csv).items()):
        written.append(_canvas(folder / "canvas" / f"{assignment}.csv", assignment, grades, top, roster))
        written.append(_moodle(folder / "moodle" / f"{assignment}.csv", assignment, grades, roster))
        worksheet = worksheet_path(root, assignment)
        if worksheet.is_file():
            written.append(_worksheet(folder / "moodle" / f"{assignment}-worksheet.csv", worksheet, grades, roster))
    return written


def _canvas(path, assignment, grades, top, roster):
    rows = [[POINTS_POSSIBLE, "", "", "", "", _number(top)]]
    for student, row in sorted(roster.students.items()):
        rows.append([row.get(column, "") for column in CANVAS_FROM_ROSTER] + [_number(grades.get(student))])
    return _write(path, [*CANVAS, assignment], rows)


def _moodle(path, assignment, grades, roster):
    rows = [[row.get("name", ""), row.get("email", ""), _number(grades.get(student))]
            for student, row in sorted(roster.students.items()) if row.get("email")]
    return _write(path, [*MOODLE, assignment], rows)


def _worksheet(path, worksheet, grades, roster):
    by_email = roster.by("email")
    rows = rosters.rows(worksheet)
    for row in rows:
        student = by_email.get(row["Email address"].strip().lower())
        if student in grades:
            row["Grade"] = _number(grades[student])
    columns = list(rows[0]) if rows else ["Identifier", "Email address", "Grade"]
    return _write(path, columns, [[row.get(column, "") for column in columns] for row in rows])


def _write(path, header, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        out.writerows(rows)
    return path


def _number(score):
    return "" if score is None else f"{score:g}"
