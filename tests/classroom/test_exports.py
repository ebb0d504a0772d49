"""What `export` writes for an LMS, cell by cell, in both languages: one policy for a missing grade (blank by
default, 0 with --missing zero) in nbgrader's CSV, Canvas's CSV, Moodle's CSV and the filled Moodle
worksheet; Moodle's grades on Moodle's scale; the files where --to says, inside the course root by default.

One real class per language, graded once per session: chapter 2 handed in solved (alice), partial (bob) and
untouched (carol), then dan's collected after the grading (not autograded yet); erin is on the roster and
never handed in; chapter 1 is released and nothing of it collected."""
import csv
import io
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT
from support.once import once
from support.submissions import ASSIGNMENT, EXPECTED_HONEST, HONEST, hand_in
from tools import classroom, classwide, gradesheets, sandbox

pytestmark = [pytest.mark.grading,
              pytest.mark.skipif(not sandbox.bwrap_works("bwrap"), reason="bubblewrap cannot make a sandbox here")]

CHAPTER_1 = "01_graph"
GRADED = {"alice": "reference", "bob": "partial", "carol": "blank"}
ROSTER = """student_id,name,email,canvas_id,sis_user_id,sis_login_id,section
alice,"Smith, Alice",alice@example.edu,1001,S1001,asmith,A
bob,Bob Stone,bob@example.edu,1002,S1002,bstone,A
carol,Carol Wu,carol@example.edu,1003,S1003,cwu,B
dan,Dan Li,dan@example.edu,1004,S1004,dli,B
erin,Erin Ray,erin@example.edu,1005,S1005,eray,B
"""
WORKSHEET_HEADER = ("Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
                    "Last modified (submission),Last modified (grade),Feedback comments")


def worksheet(maximum):
    """A grading worksheet as Moodle writes it, out of ``maximum``; Participant 9 is not on the roster and
    keeps the grade given in Moodle."""
    submitted = "Submitted for grading"
    rows = [f'Participant {n},{name},{email},{status},{grade},{maximum},Yes,"{when}",-,' for n, name, email, status,
            grade, when in [
                (1, "Alice Smith", "Alice@Example.edu", submitted, "", "Thursday, 26 November 2026, 11:05 PM"),
                (2, "Bob Stone", "bob@example.edu", submitted, "", "Friday, 27 November 2026, 9:12 AM"),
                (3, "Carol Wu", "carol@example.edu", submitted, "", "Friday, 27 November 2026, 9:40 AM"),
                (4, "Dan Li", "dan@example.edu", submitted, "", "Friday, 27 November 2026, 10:02 AM"),
                (5, "Erin Ray", "erin@example.edu", "No submission", "", "-"),
                (9, "Guest Auditor", "guest@example.org", "No submission", "55.00", "-")]]
    return "\n".join([WORKSHEET_HEADER, *rows]) + "\n"


def graded_class(language):
    def make(folder):
        root, scratch = folder / "course", folder / "scratch"
        classroom.init(root, language)
        classroom.release(root, CHAPTER_1, out=io.StringIO())
        classroom.release(root, ASSIGNMENT, out=io.StringIO())
        for student, work in GRADED.items():
            hand_in(root, student, HONEST[work], scratch)
        classwide.autograde(root, [ASSIGNMENT], jobs=2, out=io.StringIO())
        hand_in(root, "dan", HONEST["reference"], scratch)
        (root / "roster.csv").write_text(ROSTER)
        for assignment, maximum in [(ASSIGNMENT, "100.00"), (CHAPTER_1, "6.00")]:
            path = gradesheets.worksheet_path(root, assignment)
            path.parent.mkdir(parents=True)
            path.write_text(worksheet(maximum))
    return make


@pytest.fixture(scope="module", params=["en", "zh"])
def course(request, tmp_path_factory):
    folder = once(tmp_path_factory, f"exports-{request.param}", graded_class(request.param))
    return SimpleNamespace(root=folder / "course", language=request.param)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


TOP = 10  # the points of chapter 1, and of chapter 2 (its steps and its practice questions)
SCORE = {student: EXPECTED_HONEST[work] for student, work in GRADED.items()}


def nbgrader_rows(missing):
    """nbgrader's CSV: every student of its gradebook for every assignment of it, a grade only where autograded."""
    header = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
              "late_submission_penalty", "score", "max_score"]
    rows = [[CHAPTER_1, "", "", student, "", "", "", missing, missing, missing, f"{TOP}.0"] for student in GRADED]
    rows += [[ASSIGNMENT, "", "", student, "", "", "", str(SCORE[student]), "0.0", str(SCORE[student]), f"{TOP}.0"]
             for student in GRADED]
    return [header, *rows]


def test_missing_work_is_blank_in_every_file_by_default(course, tmp_path):
    out = io.StringIO()
    written = classroom.export(course.root, tmp_path / "grades.csv", out=out)
    assert read_csv(tmp_path / "grades.csv") == nbgrader_rows("")
    assert read_csv(tmp_path / "canvas" / f"{ASSIGNMENT}.csv") == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", ASSIGNMENT],
        ["    Points Possible", "", "", "", "", "10"],
        ["Smith, Alice", "1001", "S1001", "asmith", "A", "8"],
        ["Bob Stone", "1002", "S1002", "bstone", "A", "2"],
        ["Carol Wu", "1003", "S1003", "cwu", "B", "0"],
        ["Dan Li", "1004", "S1004", "dli", "B", ""],
        ["Erin Ray", "1005", "S1005", "eray", "B", ""]]
    assert read_csv(tmp_path / "canvas" / f"{CHAPTER_1}.csv")[2:] == [
        ["Smith, Alice", "1001", "S1001", "asmith", "A", ""], ["Bob Stone", "1002", "S1002", "bstone", "A", ""],
        ["Carol Wu", "1003", "S1003", "cwu", "B", ""], ["Dan Li", "1004", "S1004", "dli", "B", ""],
        ["Erin Ray", "1005", "S1005", "eray", "B", ""]]
    assert read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}.csv") == [
        ["Full name", "Email address", ASSIGNMENT], ["Smith, Alice", "alice@example.edu", "80.00"],
        ["Bob Stone", "bob@example.edu", "20.00"], ["Carol Wu", "carol@example.edu", "0.00"],
        ["Dan Li", "dan@example.edu", ""], ["Erin Ray", "erin@example.edu", ""]]
    assert [row[2] for row in read_csv(tmp_path / "moodle" / f"{CHAPTER_1}.csv")] == [CHAPTER_1, "", "", "", "", ""]
    assert read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}-worksheet.csv") == filled(worksheet("100.00"),
                                                                                  ["80.00", "20.00", "0.00", "", ""])
    assert read_csv(tmp_path / "moodle" / f"{CHAPTER_1}-worksheet.csv") == filled(worksheet("6.00"), [""] * 5)
    assert written == [tmp_path / name for name in [
        f"canvas/{CHAPTER_1}.csv", f"moodle/{CHAPTER_1}.csv", f"moodle/{CHAPTER_1}-worksheet.csv",
        f"canvas/{ASSIGNMENT}.csv", f"moodle/{ASSIGNMENT}.csv", f"moodle/{ASSIGNMENT}-worksheet.csv"]]
    assert out.getvalue() == printed(course, tmp_path, written, "blank")


def test_missing_zero_writes_zeros_in_every_file(course, tmp_path):
    out = io.StringIO()
    written = classroom.export(course.root, tmp_path / "grades.csv", missing="zero", out=out)
    assert read_csv(tmp_path / "grades.csv") == nbgrader_rows("0.0")
    assert [row[5] for row in read_csv(tmp_path / "canvas" / f"{ASSIGNMENT}.csv")] == [
        ASSIGNMENT, "10", "8", "2", "0", "0", "0"]
    assert [row[5] for row in read_csv(tmp_path / "canvas" / f"{CHAPTER_1}.csv")] == [CHAPTER_1, "10"] + ["0"] * 5
    assert [row[2] for row in read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}.csv")] == [
        ASSIGNMENT, "80.00", "20.00", "0.00", "0.00", "0.00"]
    assert [row[2] for row in read_csv(tmp_path / "moodle" / f"{CHAPTER_1}.csv")] == [CHAPTER_1] + ["0.00"] * 5
    assert read_csv(tmp_path / "moodle" / f"{ASSIGNMENT}-worksheet.csv") == filled(
        worksheet("100.00"), ["80.00", "20.00", "0.00", "0.00", "0.00"])
    assert read_csv(tmp_path / "moodle" / f"{CHAPTER_1}-worksheet.csv") == filled(worksheet("6.00"), ["0.00"] * 5)
    assert out.getvalue() == printed(course, tmp_path, written, "zero")


def filled(text, grades):
    """The worksheet ``text`` with the roster's five participants given ``grades``; the guest's kept."""
    rows = list(csv.reader(io.StringIO(text)))
    for row, grade in zip(rows[1:6], grades):
        row[4] = grade
    return rows


PRINTED = {
    "en": """every grade: {grades}
no grade (not handed in, or not autograded yet): {policy}
02_gradients: collected but not autograded yet, so no grade: dan
for Canvas and Moodle, per chapter:
{written}
moodle/01_graph.csv: grades out of 6.00, as Moodle imports them: the assignment's Maximum grade in Moodle must be 6.00
moodle/02_gradients.csv: grades out of 100.00, as Moodle imports them: the assignment's Maximum grade in Moodle \
must be 100.00
""",
    "zh": """全部成绩：{grades}
没有成绩（未提交，或尚未自动评分）：{policy}
02_gradients：已收取但尚未自动评分，因此没有成绩：dan
供 Canvas 和 Moodle 导入的文件（每章一个）：
{written}
moodle/01_graph.csv：成绩按满分 6.00 折算，这是 Moodle 导入时采用的分制：该作业在 Moodle 中的 Maximum grade（满分）\
必须是 6.00
moodle/02_gradients.csv：成绩按满分 100.00 折算，这是 Moodle 导入时采用的分制：该作业在 Moodle 中的 Maximum \
grade（满分）必须是 100.00
"""}
POLICY = {("en", "blank"): "an empty cell, which leaves the LMS's grade as it was (--missing zero writes 0)",
          ("en", "zero"): "0 (--missing zero)",
          ("zh", "blank"): "单元格留空，LMS 中原有的成绩保持不变（--missing zero 则写 0）",
          ("zh", "zero"): "写 0（--missing zero）"}


def printed(course, folder, written, missing):
    return PRINTED[course.language].format(grades=folder / "grades.csv", policy=POLICY[course.language, missing],
                                    written="\n".join(f"  {path}" for path in written))


def export_command(course, *options):
    """``python -m tools.classroom export COURSE OPTIONS`` as the instructor types it: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "tools.classroom", "export", course.root, *map(str, options)],
                          cwd=ROOT, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def test_exports_go_inside_the_course_root_or_where_to_says(course, tmp_path):
    exports = course.root / "exports"
    shutil.rmtree(exports, ignore_errors=True)
    classroom.export(course.root, out=io.StringIO())
    assert sorted(p.relative_to(exports).as_posix() for p in exports.rglob("*.csv")) == [
        f"canvas/{CHAPTER_1}.csv", f"canvas/{ASSIGNMENT}.csv", "grades.csv", f"moodle/{CHAPTER_1}-worksheet.csv",
        f"moodle/{CHAPTER_1}.csv", f"moodle/{ASSIGNMENT}-worksheet.csv", f"moodle/{ASSIGNMENT}.csv"]
    classroom.export(course.root, tmp_path / "new" / "term 1" / "marks.csv", out=io.StringIO())
    assert read_csv(tmp_path / "new" / "term 1" / "marks.csv") == nbgrader_rows("")
    assert (tmp_path / "new" / "term 1" / "canvas" / f"{ASSIGNMENT}.csv").is_file()
    (tmp_path / "folder").mkdir()
    code, printed, _ = export_command(course, "--to", tmp_path / "folder", "--missing", "zero")
    assert code == 0 and printed.splitlines()[0].endswith(str(tmp_path / "folder" / "grades.csv"))
    assert read_csv(tmp_path / "folder" / "grades.csv") == nbgrader_rows("0.0")
    (tmp_path / "a file").write_text("")
    expected = {"en": "{path}: the grades cannot be written there, {folder} is not a folder you can write in; give "
                      "another --to\n",
                "zh": "{path}：无法在这里写入成绩，{folder} 不是一个你能写入的文件夹；请用 --to 指定别的位置\n"}
    assert export_command(course, "--to", tmp_path / "a file" / "grades.csv") == (
        1, "", expected[course.language].format(path=tmp_path / "a file" / "grades.csv", folder=tmp_path / "a file"))


def test_a_comma_in_a_name_shifts_no_grade(tmp_path):
    """nbgrader writes names unquoted: the grades are read from the end of such a row, and kept as nbgrader wrote
    them."""
    (tmp_path / "grades.csv").write_text(
        "assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,"
        "max_score\n"
        f"{ASSIGNMENT},,,alice,Smith, Jr.,Alice,alice@example.edu,8.0,1.0,7.0,10.0\n"
        f"{ASSIGNMENT},,,bob,Stone,Bob,,0.0,0.0,0.0,10.0\n")
    scores = gradesheets.without_missing(tmp_path / "grades.csv", {(ASSIGNMENT, "alice")}, "blank")
    assert scores == {ASSIGNMENT: ({"alice": 7.0}, 10.0)}
    assert (tmp_path / "grades.csv").read_text().splitlines()[1:] == [
        f"{ASSIGNMENT},,,alice,Smith, Jr.,Alice,alice@example.edu,8.0,1.0,7.0,10.0",
        f"{ASSIGNMENT},,,bob,Stone,Bob,,,,,10.0"]
