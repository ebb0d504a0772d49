"""Grades in the layouts an LMS imports, one file per chapter, made from nbgrader's own export.

    canvas/NN_topic.csv            Canvas's gradebook import: the columns of Canvas's own gradebook export
                                   (Student, ID, SIS User ID, SIS Login ID, Section), the chapter's column in
                                   points, and the "Points Possible" row under the header
    moodle/NN_topic.csv            Moodle's gradebook import (Grades > Import > CSV file): Full name,
                                   Email address, the chapter's column on Moodle's scale (below); map Email
                                   address to the user
    moodle/NN_topic-worksheet.csv  the grading worksheet collected with Moodle's download (collect
                                   --worksheet), its Grade column filled on its own Maximum Grade: the
                                   assignment's "Upload grading worksheet" takes it back

Moodle's scale: Moodle reads an imported grade on the grade item's own scale, out of the assignment's
"Maximum grade" (100 unless the instructor changed it), not out of the chapter's points. So a chapter's grade
is written out of the Maximum Grade its worksheet gives (each row's own), and in ``moodle/NN_topic.csv`` out
of the worksheet's Maximum Grade when the chapter was collected with one, else out of 100, Moodle's default:
the export says which, and that is the maximum the assignment must have in Moodle. Moodle shows grades with
2 decimals, and so are they written.

Missing work, one policy for every file (nbgrader's CSV included): a grade is a submission nbgrader's
gradebook holds (collected and autograded). Without one (not handed in, or collected and not yet
autograded), the cell is blank by default, which leaves the LMS's grade as it was; ``missing="zero"`` writes
0 instead. nbgrader's own export writes 0 for every student of its gradebook without a submission: those rows
are rewritten. Students come from the roster (``tools/roster.py``), one row each.
"""
import csv
from pathlib import Path

from . import nbgraderapp
from . import roster as rosters

CANVAS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_FROM_ROSTER = ("name", "canvas_id", "sis_user_id", "sis_login_id", "section")
POINTS_POSSIBLE = "    Points Possible"  # as Canvas writes it: the row Canvas reads each column's points from
MOODLE = ("Full name", "Email address")
MOODLE_DEFAULT_MAXIMUM = 100.0  # a new Moodle assignment's "Maximum grade"
MISSING = ("blank", "zero")  # what a cell holds where there is no grade
NBGRADER_SCORES = ("raw_score", "late_submission_penalty", "score")  # nbgrader's columns of a grade


def worksheet_path(root, assignment):
    """Where ``collect`` keeps the Moodle grading worksheet of ``assignment``."""
    return Path(root) / "downloaded" / assignment / "moodle-worksheet.csv"


def submissions(root):
    """(assignment, student) of every submission nbgrader's gradebook holds: those that have a grade."""
    with nbgraderapp.gradebook(nbgraderapp.api(root).coursedir) as gradebook:
        return {(assignment.name, submission.student_id) for assignment in gradebook.assignments
                for submission in assignment.submissions}


def without_missing(nbgrader_csv, graded, missing):
    """Rewrite the rows of nbgrader's export that are no grade (not in ``graded``) by the ``missing`` policy, and
    sort them by assignment and student (nbgrader's order is the gradebook's, the order students were graded
    in); return {assignment: ({student: score}, max score)} of the grades, every assignment of the gradebook."""
    with open(nbgrader_csv, newline="", encoding="utf-8") as handle:
        header, *table = list(csv.reader(handle))
    # nbgrader writes its names and e-mail unquoted: a comma in one shifts the columns after it, so those are
    # counted from the end of the row.
    after = header.index("email")
    at = {column: i if i < after else i - len(header) for i, column in enumerate(header)}
    found = {}
    for row in table:
        assignment, student = row[at["assignment"]], row[at["student_id"]]
        grades, _ = found.setdefault(assignment, ({}, float(row[at["max_score"]])))
        if (assignment, student) in graded:
            grades[student] = float(row[at["score"]])
        else:
            for column in NBGRADER_SCORES:
                row[at[column]] = _missing(missing, "0.0")
    table.sort(key=lambda row: (row[at["assignment"]], row[at["student_id"]]))
    _write(Path(nbgrader_csv), header, table)
    return found


def write(root, folder, scores, roster, missing="blank"):
    """Write every chapter's files for Canvas and Moodle into ``folder``; return their paths."""
    written = []
    for assignment, (grades, top) in sorted(scores.items()):
        written.append(_canvas(folder / "canvas" / f"{assignment}.csv", assignment, grades, top, roster, missing))
        written.append(_moodle(folder / "moodle" / f"{assignment}.csv", assignment, grades, top, roster, missing,
                               moodle_maximum(root, assignment)))
        worksheet = worksheet_path(root, assignment)
        rows = rosters.rows(worksheet) if worksheet.is_file() else []
        if rows:
            written.append(_worksheet(folder / "moodle" / f"{assignment}-worksheet.csv", rows, grades, top, roster,
                                      missing))
    return written


def moodle_maximum(root, assignment):
    """The Maximum Grade Moodle reads the chapter's imported grades out of: its worksheet's (collect
    --worksheet), else a new Moodle assignment's."""
    worksheet = worksheet_path(root, assignment)
    rows = rosters.rows(worksheet) if worksheet.is_file() else []
    return next((_maximum(row) for row in rows if _maximum(row)), MOODLE_DEFAULT_MAXIMUM)


def _canvas(path, assignment, grades, top, roster, missing):
    rows = [[POINTS_POSSIBLE, "", "", "", "", _points(top)]]
    for student, row in sorted(roster.students.items()):
        rows.append([row.get(column, "") for column in CANVAS_FROM_ROSTER] +
                    [_points(grades[student]) if student in grades else _missing(missing, "0")])
    return _write(path, [*CANVAS, assignment], rows)


def _moodle(path, assignment, grades, top, roster, missing, maximum):
    rows = [[row.get("name", ""), row.get("email", ""), _on_scale(grades.get(student), top, maximum, missing)]
            for student, row in sorted(roster.students.items()) if row.get("email")]
    return _write(path, [*MOODLE, assignment], rows)


def _worksheet(path, rows, grades, top, roster, missing):
    """The worksheet as Moodle wrote it, each row of a roster student given its grade on its Maximum Grade
    (a row the roster does not know keeps its own)."""
    by_email = roster.by("email")
    for row in rows:
        student = by_email.get(row["Email address"].strip().lower())
        if student:
            row["Grade"] = _on_scale(grades.get(student), top, _maximum(row) or top, missing)
    columns = list(rows[0])
    return _write(path, columns, [[row.get(column, "") for column in columns] for row in rows])


def _maximum(row):
    """A worksheet row's Maximum Grade (Moodle may write it with a decimal comma), None where it has none."""
    try:
        return float(row.get("Maximum Grade", "").replace(",", ".")) or None
    except ValueError:
        return None


def _on_scale(score, top, maximum, missing):
    """``score`` out of ``top`` as Moodle shows a grade out of ``maximum``: 2 decimals."""
    if score is None:
        return _missing(missing, "0.00")
    return f"{score / top * maximum if top else 0:.2f}"


def _missing(missing, zero):
    return zero if missing == "zero" else ""


def _write(path, header, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        out.writerows(rows)
    return path


def _points(score):
    return f"{score:g}"
