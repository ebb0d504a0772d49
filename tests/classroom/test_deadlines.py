"""Due dates and late policies: parsing and arithmetic (cheap), and one small class graded once with nbgrader,
late from Canvas (a flag) and from Moodle (the worksheet's time), its penalty set again under each policy without
grading again: the stored times, the gradebook's penalties, the summary, the feedback page and every export."""
import csv
import html
import io
import json
import zipfile
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from support.once import once
from support.submissions import ASSIGNMENT, HONEST, solved_copy
from tools import classroom, classwide, deadlines, nbgraderapp, sandbox
from tools.instructor_messages import Refused

EAST8 = timezone(timedelta(hours=8))
DUE = "2026-12-01T23:59+08:00"
ROSTER = """student_id,name,email,canvas_id,sis_user_id,sis_login_id,section
alice,"Smith, Alice",alice@example.edu,1001,S1001,asmith,A
bob,Bob Stone,bob@example.edu,,S1002,bstone,B
carol,"Wu, Carol",carol@example.edu,,S1003,cwu,B
"""
# bob's time is 26 h 31 min after the due date (two days started), carol's before it.
WORKSHEET = """Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,\
Last modified (submission),Feedback comments
Participant 42,Bob Stone,bob@example.edu,Submitted for grading,,10.00,Yes,"Thursday, 3 December 2026, 2:30 AM",
Participant 43,"Wu, Carol",carol@example.edu,Submitted for grading,,10.00,Yes,"Tuesday, 1 December 2026, 11:05 PM",
"""


def test_a_policy_costs_its_points_per_day_started_never_more_than_the_score():
    penalty = deadlines.Policy.parse("penalty=1.5/day")
    assert str(penalty) == "penalty=1.5/day"
    assert [penalty.penalty(8, late) for late in (0, 1, 86400, 86401, 3 * 86400)] == [0, 1.5, 1.5, 3, 4.5]
    assert penalty.penalty(2, 10 * 86400) == 2
    assert deadlines.Policy.parse("refuse").penalty(7, 1) == 7 and deadlines.Policy.parse("refuse").penalty(7, 0) == 0
    assert deadlines.Policy.parse(" None ").penalty(7, 99999) == 0


@pytest.mark.parametrize("text", ["penalty=1", "penalty=-1/day", "penalty=0/day", "zero", "penalty=x/day"])
def test_a_policy_that_cannot_be_read_is_refused_in_one_sentence(text):
    with pytest.raises(Refused) as refused:
        deadlines.Policy.parse(text)
    assert refused.value.said("en") == (f"{text.strip().lower()}: not a late policy; write none, "
                                        "penalty=POINTS/day (e.g. penalty=1/day) or refuse")


def test_a_due_date_needs_its_time_zone():
    assert deadlines.parse_due(DUE) == datetime(2026, 12, 1, 23, 59, tzinfo=EAST8)
    assert deadlines.parse_due("2026-12-01 23:59Z") == datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)
    for text in ("2026-12-01T23:59", "1 December"):
        with pytest.raises(Refused) as refused:
            deadlines.parse_due(text)
        assert refused.value.said("en") == (f"{text}: not a due date with its time zone; "
                                            "write it as 2026-12-01T23:59+08:00")
    assert deadlines.shown(deadlines.parse_due(DUE)) == "2026-12-01 23:59 +08:00"


@pytest.mark.parametrize("text, expected", [
    ("Thursday, 26 November 2026, 11:05 PM", datetime(2026, 11, 26, 23, 5)),
    ("Thursday, 26 November 2026, 12:30 AM", datetime(2026, 11, 26, 0, 30)),
    ("26 november 2026, 23:05", datetime(2026, 11, 26, 23, 5)),
    ("2026年11月26日 星期四 23:05", datetime(2026, 11, 26, 23, 5)),
])
def test_moodle_times_are_read_in_the_due_dates_zone(text, expected):
    assert deadlines.parse_moodle_time(text, EAST8) == expected.replace(tzinfo=EAST8)


@pytest.mark.parametrize("text", ["yesterday", "Thursday, 31 Smarch 2026, 11:05 PM", "30 February 2026, 10:00",
                                  "26 November 2026, 13:05 PM"])
def test_a_moodle_time_that_cannot_be_read_is_refused_naming_whose(text):
    with pytest.raises(Refused) as refused:
        deadlines.parse_moodle_time(text, EAST8, "worksheet.csv", "Bob Stone (Moodle 42)")
    assert refused.value.said("en") == (f'worksheet.csv: the "Last modified (submission)" of Bob Stone (Moodle 42) '
                                        f'reads "{text}", not a time as Moodle writes it (e.g. Thursday, 26 November '
                                        '2026, 11:05 PM)')


def test_lateness_reads_in_both_languages():
    assert deadlines.duration(93900, "en") == "1 d 2 h 5 min"
    assert deadlines.duration(93900, "zh") == "1 天 2 小时 5 分钟"
    assert deadlines.duration(7, "en") == "7 s"
    refused = {("02_gradients", "bob"), ("02_gradients", "alice")}
    assert deadlines.said_refused(refused, "en") == [
        "02_gradients: handed in late, so not graded (late policy: refuse): alice, bob"]
    assert deadlines.said_refused(refused, "zh") == ["02_gradients：迟交，按迟交规则（refuse）不评分：alice, bob"]


def downloads(work, root):
    """alice's Canvas upload (late), bob's and carol's Moodle folders; bob and alice solved, carol partial."""
    with zipfile.ZipFile(work / "canvas.zip", "w") as download:
        upload = io.BytesIO()
        folder = solved_copy(root, work / "alice", HONEST["reference"], work / "scratch")
        with zipfile.ZipFile(upload, "w") as inner:
            for file in folder.rglob("*"):
                inner.write(file, f"{ASSIGNMENT}/{file.relative_to(folder)}")
        download.writestr(f"smithalice_late_1001_88001_{ASSIGNMENT}.zip", upload.getvalue())
    with zipfile.ZipFile(work / "moodle.zip", "w") as download:
        for name, participant, solved in (("Bob Stone", 42, "reference"), ("Wu, Carol", 43, "partial")):
            folder = solved_copy(root, work / name, HONEST[solved], work / "scratch")
            for file in folder.rglob("*"):
                download.write(file, f"{name}_{participant}_assignsubmission_file/{file.relative_to(folder)}")
    (work / "worksheet.csv").write_text(WORKSHEET)


def late_class(folder):
    """Due date first, then both downloads collected, graded once, feedback for the two late students, and the
    export under each policy (penalty, refuse, none), the policy set again each time."""
    root, work, said = folder / "course", folder / "work", {}
    classroom.init(root, "en")
    (root / "roster.csv").write_text(ROSTER)
    classroom.release(root, ASSIGNMENT, out=io.StringIO())
    work.mkdir()
    downloads(work, root)
    out = io.StringIO()
    deadlines.set_due(root, ASSIGNMENT, DUE, "penalty=1/day", out=out)
    said["due"] = out.getvalue()
    classroom.collect_submissions(root, ASSIGNMENT, work / "canvas.zip", out=io.StringIO())
    classroom.collect_submissions(root, ASSIGNMENT, work / "moodle.zip", worksheet=work / "worksheet.csv",
                                  out=io.StringIO())
    out = io.StringIO()
    classwide.autograde(root, ASSIGNMENT, jobs=2, out=out)
    said["autograde"] = out.getvalue()
    classwide.feedback(root, ASSIGNMENT, jobs=2, students=["alice", "bob"], out=io.StringIO())
    for policy in ("penalty=1/day", "refuse", "none"):
        out = io.StringIO()
        deadlines.set_due(root, ASSIGNMENT, DUE, policy, out=out)
        classroom.export(root, folder / policy.split("=")[0] / "grades.csv", out=out)
        said[policy] = out.getvalue()
    (folder / "said.json").write_text(json.dumps(said))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    if not sandbox.bwrap_works("bwrap"):
        pytest.skip("bubblewrap cannot make a sandbox here")
    folder = once(tmp_path_factory, "deadlines", late_class)
    return SimpleNamespace(folder=folder, root=folder / "course", said=json.loads((folder / "said.json").read_text()))


def table(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.mark.grading
def test_each_lms_time_is_stored_as_nbgraders_timestamp(graded):
    submitted = graded.root / "submitted"
    assert (submitted / "alice" / ASSIGNMENT / "timestamp.txt").read_text() == "2026-12-01T23:59:01+08:00"
    assert (submitted / "alice" / ASSIGNMENT / "late.txt").read_text() == (
        "Canvas marks this upload late, and gives no time\n")
    assert (submitted / "bob" / ASSIGNMENT / "timestamp.txt").read_text() == "2026-12-03T02:30:00+08:00"
    assert (submitted / "carol" / ASSIGNMENT / "timestamp.txt").read_text() == "2026-12-01T23:05:00+08:00"
    assert not (submitted / "bob" / ASSIGNMENT / "late.txt").exists()
    assert json.loads((graded.root / "deadlines.json").read_text()) == {
        ASSIGNMENT: {"due": "2026-12-01T23:59:00+08:00", "late": "none"}}
    assert graded.said["due"] == ("02_gradients: due 2026-12-01 23:59 +08:00; late work: minus 1 for each day or "
                                  "part of a day late (never below 0)\n")


@pytest.mark.grading
def test_autograde_penalises_each_day_started_and_the_summary_says_so(graded):
    summary = graded.said["autograde"].split("\n\n")[-1].splitlines()
    assert summary[1:6] == [
        "  alice      8/10",
        "      - marked late by Canvas, which gives no time, so counted as one day late (due 2026-12-01 23:59 "
        "+08:00): late penalty 1, 7/10 after it",
        "  bob        8/10",
        "      - handed in 1 d 2 h 31 min after the due date (2026-12-01 23:59 +08:00): late penalty 2, 6/10 after it",
        "  carol      2/10",
    ]


@pytest.mark.grading
def test_the_feedback_page_says_how_late_and_what_it_cost(graded):
    page = html.unescape((graded.root / "feedback" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text())
    assert ("handed in 1 d 2 h 31 min after the due date (2026-12-01 23:59 +08:00): late penalty 2, 6/10 after it"
            in page)


@pytest.mark.grading
def test_every_export_holds_the_grade_after_the_penalty(graded):
    rows = {row[3]: row for row in table(graded.folder / "penalty" / "grades.csv")[1:]}
    assert [rows[s][1:3] + rows[s][7:] for s in ("alice", "bob", "carol")] == [
        ["2026-12-01 15:59:00", "2026-12-01 15:59:01", "8.0", "1.0", "7.0", "10.0"],
        ["2026-12-01 15:59:00", "2026-12-02 18:30:00", "8.0", "2.0", "6.0", "10.0"],
        ["2026-12-01 15:59:00", "2026-12-01 15:05:00", "2.0", "0.0", "2.0", "10.0"]]
    canvas = table(graded.folder / "penalty" / "canvas" / f"{ASSIGNMENT}.csv")
    assert [row[-1] for row in canvas[2:]] == ["7", "6", "2"]
    worksheet = table(graded.folder / "penalty" / "moodle" / f"{ASSIGNMENT}-worksheet.csv")
    assert [row[4] for row in worksheet[1:]] == ["6.00", "2.00"]


@pytest.mark.grading
def test_refuse_leaves_late_grades_blank_and_none_keeps_them_whole(graded):
    refused = {row[3]: row[7:] for row in table(graded.folder / "refuse" / "grades.csv")[1:]}
    assert refused == {"alice": ["", "", "", "10.0"], "bob": ["", "", "", "10.0"],
                       "carol": ["2.0", "0.0", "2.0", "10.0"]}
    assert [row[-1] for row in table(graded.folder / "refuse" / "canvas" / f"{ASSIGNMENT}.csv")[2:]] == ["", "", "2"]
    assert "02_gradients: handed in late, so not graded (late policy: refuse): alice, bob\n" in graded.said["refuse"]
    assert "late penalties set again under this policy for 3 graded submissions\n" in graded.said["refuse"]
    kept = {row[3]: row[7:] for row in table(graded.folder / "none" / "grades.csv")[1:]}
    assert kept == {"alice": ["8.0", "0.0", "8.0", "10.0"], "bob": ["8.0", "0.0", "8.0", "10.0"],
                    "carol": ["2.0", "0.0", "2.0", "10.0"]}
    with nbgraderapp.gradebook(nbgraderapp.api(graded.root).coursedir) as gradebook:
        assert gradebook.find_submission(ASSIGNMENT, "bob").total_seconds_late == 26 * 3600 + 31 * 60
