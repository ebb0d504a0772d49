"""LMS downloads as Canvas and Moodle name them: whose each file is (names with spaces and underscores, late,
uploaded twice, unknown), each student's zip unpacked safely, and the roster check. Real zip files, no
grading: the graded round trip through an LMS download is in test_classroom.py."""
import io
import stat
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from tools import classroom, lms
from tools import roster as rosters
from tools.instructor_messages import Refused

ASSIGNMENT = "02_gradients"
# Two package files of the same name in two folders: what a flattening LMS would merge.
PACKAGE = {"minigrad/autograd/graph.py": b"# autograd's graph\n", "minigrad/viz/graph.py": b"# the drawing\n",
           f"{ASSIGNMENT}.ipynb": b"{}"}
ROSTER = """student_id,name,email,canvas_id,sis_user_id,sis_login_id,section
mary_ann,"Lee, Mary Ann",Mary.Lee@example.edu,1234,S1,mlee,A
alice,Alice Smith,alice@example.edu,2001,S2,asmith,A
carol,Carol Wu,carol@example.edu,3001,S3,cwu,B
"""
WORKSHEET = """Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed
Participant 77,Alice Smith,alice@example.edu,Submitted for grading,,6.00,Yes
Participant 78,Mary Ann_Lee,mary.lee@example.edu,Submitted for grading,,6.00,Yes
Participant 79,Carol Wu,carol@example.edu,No submission,,6.00,Yes
"""


def zipped(files, top=f"{ASSIGNMENT}/"):
    """A student's upload: ``files`` in a zip, under the assignment's folder."""
    upload = io.BytesIO()
    with zipfile.ZipFile(upload, "w") as archive:
        for name, data in files.items():
            archive.writestr(top + name, data)
    return upload.getvalue()


def download(path, files):
    """The zip an LMS gives: each of ``files`` (its name in the download: bytes)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


@pytest.fixture
def roster(tmp_path):
    (tmp_path / "roster.csv").write_text(ROSTER)
    return rosters.read(tmp_path / "roster.csv")


def collected_from(tmp_path, roster, files, worksheet=None):
    archive = download(tmp_path / "download.zip", files)
    if worksheet:
        (tmp_path / "worksheet.csv").write_text(worksheet)
        worksheet = tmp_path / "worksheet.csv"
    collected = lms.read(archive, roster, worksheet)
    lms.unpack(archive, tmp_path / "course", ASSIGNMENT, collected)
    return collected


def submission(tmp_path, student):
    folder = tmp_path / "course" / "submitted" / student / ASSIGNMENT
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_canvas_names_with_underscores_and_late_submissions_keep_the_student_whole(tmp_path, roster):
    collected = collected_from(tmp_path, roster, {
        "mary_ann_late_1234_90001_02_gradients.zip": zipped(PACKAGE),
        "smithalice_2001_90002_my work.zip": zipped(PACKAGE, top=""),
        "wucarol_3001_90003_package only.zip": zipped({n: d for n, d in PACKAGE.items() if "/" in n}, top=""),
    })
    assert sorted(collected.students) == ["alice", "carol", "mary_ann"] and collected.late == ["mary_ann"]
    assert submission(tmp_path, "mary_ann") == PACKAGE == submission(tmp_path, "alice")
    assert submission(tmp_path, "carol") == {n: d for n, d in PACKAGE.items() if n.startswith("minigrad/")}
    assert not collected.unknown and not collected.twice and not collected.refused


def test_moodle_flat_and_in_folders_with_spaces_and_underscores(tmp_path, roster):
    collected = collected_from(tmp_path, roster, {
        "Alice Smith_77_assignsubmission_file_02_gradients.zip": zipped(PACKAGE),
        "Mary Ann_Lee_78_assignsubmission_file/02_gradients.zip": zipped(PACKAGE),
        "Mary Ann_Lee_78_assignsubmission_onlinetext_onlinetext.html": b"<p>see the zip</p>",
        "__MACOSX/._Alice Smith_77_assignsubmission_file_02_gradients.zip": b"",
    }, worksheet=WORKSHEET)
    assert sorted(collected.students) == ["alice", "mary_ann"]
    assert submission(tmp_path, "alice") == PACKAGE == submission(tmp_path, "mary_ann")


def test_moodle_files_uploaded_in_folders_keep_their_paths(tmp_path, roster):
    folder = "Alice Smith_77_assignsubmission_file/"
    collected_from(tmp_path, roster, {folder + name: data for name, data in PACKAGE.items()}, worksheet=WORKSHEET)
    assert submission(tmp_path, "alice") == PACKAGE


def test_moodle_without_its_grading_worksheet_is_refused(tmp_path, roster):
    archive = download(tmp_path / "download.zip", {"Alice Smith_77_assignsubmission_file_a.zip": zipped(PACKAGE)})
    with pytest.raises(Refused) as refused:
        lms.read(archive, roster)
    assert "--worksheet" in refused.value.said("en") and "Alice Smith_77" in refused.value.said("en")


def test_a_resubmission_grades_the_later_upload_and_says_so(tmp_path, roster):
    later = dict(PACKAGE, **{"minigrad/viz/graph.py": b"# the drawing, fixed\n"})
    collected = collected_from(tmp_path, roster, {
        "smithalice_2001_90009_02_gradients-1.zip": zipped(later),
        "smithalice_2001_90002_02_gradients.zip": zipped(PACKAGE),
    })
    assert submission(tmp_path, "alice") == later
    assert collected.twice == {"alice": "smithalice_2001_90009_02_gradients-1.zip"}


def test_a_download_collected_again_replaces_the_earlier_submission_whole(tmp_path, roster):
    earlier = dict(PACKAGE, **{"old.py": b""})
    collected_from(tmp_path, roster, {"smithalice_2001_90002_02_gradients.zip": zipped(earlier)})
    later = dict(PACKAGE, **{"minigrad/viz/graph.py": b"# the drawing, fixed\n"})
    collected_from(tmp_path, roster, {"smithalice_2001_90009_02_gradients.zip": zipped(later)})
    assert submission(tmp_path, "alice") == later


def test_an_unknown_naming_is_refused_with_the_file_and_the_patterns(tmp_path, roster):
    archive = download(tmp_path / "download.zip", {"alice_02_gradients.zip": zipped(PACKAGE)})
    with pytest.raises(Refused) as refused:
        lms.read(archive, roster)
    message = refused.value.said("en")
    assert message.startswith("alice_02_gradients.zip: not a file name an LMS gives")
    assert all(shape in message for _, shape, _ in lms.NAMINGS)
    assert "alice_02_gradients.zip" in refused.value.said("zh") and "不是" in refused.value.said("zh")


def classroom_command(*args):
    """``python -m tools.classroom ARGS`` as the instructor types it: (exit code, what it printed)."""
    done = subprocess.run([sys.executable, "-m", "tools.classroom", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True)
    return done.returncode, done.stdout + done.stderr


def test_the_command_line_collects_and_refuses_in_the_course_language(tmp_path):
    course = tmp_path / "course"
    classroom.init(course, "zh")
    (tmp_path / "class.csv").write_text(ROSTER)
    archive = download(tmp_path / "download.zip", {"smithalice_2001_90002_02_gradients.zip": zipped(PACKAGE)})
    code, printed = classroom_command("collect", course, ASSIGNMENT, "--zip", archive, "--roster", tmp_path / "class.csv")
    assert code == 0 and submission(tmp_path, "alice") == PACKAGE
    assert "名单：3 名学生，1 名有提交" in printed and "缺交（在名单上，没有提交）：2\n    mary_ann\n    carol" in printed
    archive = download(tmp_path / "download.zip", {"alice.zip": zipped(PACKAGE)})
    code, printed = classroom_command("collect", course, ASSIGNMENT, "--zip", archive)
    assert code == 1 and "alice.zip：不是 LMS 给出的文件名" in printed and "Canvas: <sortable name>" in printed
    archive = download(tmp_path / "download.zip", {"wucarol_3001_90003_02_gradients.zip": zipped(PACKAGE)})
    code, printed = classroom_command("collect", course, ASSIGNMENT, "--zip", archive)  # no roster.csv in the course
    assert (code, printed) == (1, "wucarol_3001_90003_02_gradients.zip：Canvas 的下载用 Canvas 用户 ID 标识每个学生，"
                                  "而名单中没有这些 ID：请提供含 student_id 和 canvas_id 两列的名单（--roster，或课程根目录下"
                                  "的 roster.csv；Canvas 成绩册的导出文件即可）\n")
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["alice"]


def symlink_zip():
    upload = io.BytesIO()
    with zipfile.ZipFile(upload, "w") as archive:
        link = zipfile.ZipInfo(f"{ASSIGNMENT}/minigrad/tensor.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    return upload.getvalue()


UNSAFE = [  # (upload, why it is refused)
    (zipped({"../../outside.py": b"x"}), "../../outside.py, a path outside the submission"),
    (zipped({"/etc/cron.d/x": b"x"}, top=""), "/etc/cron.d/x, a path outside the submission"),
    (zipped({"C:/Windows/x.py": b"x"}, top=""), "C:/Windows/x.py, a path outside the submission"),
    (symlink_zip(), "a link (02_gradients/minigrad/tensor.py)"),
    (zipped({f"f{i}.py": b"" for i in range(lms.MAX_FILES + 1)}), f"more than {lms.MAX_FILES} files"),
    (b"not a zip", "not a zip file"),
]


# Named by the reason, not the bytes: a zip holds the time it was made, which may differ between the processes
# of pytest-xdist, and every process must collect the same test ids.
@pytest.mark.parametrize("upload, why", UNSAFE, ids=[why for _, why in UNSAFE])
def test_an_unsafe_zip_is_refused_and_the_class_goes_on(tmp_path, roster, upload, why):
    collected = collected_from(tmp_path, roster, {"lee_1234_90001_02_gradients.zip": upload,
                                                  "smithalice_2001_90002_02_gradients.zip": zipped(PACKAGE)})
    assert list(collected.students) == ["alice"] and submission(tmp_path, "alice") == PACKAGE
    assert why in collected.refused["mary_ann"].said("en")
    assert not (tmp_path / "course" / "submitted" / "mary_ann").exists()
    assert not list(tmp_path.rglob("outside.py"))


def test_loose_files_outside_the_submission_or_too_many_are_refused(tmp_path, roster, monkeypatch):
    monkeypatch.setattr(lms, "MAX_FILES", 2)
    folder = "Alice Smith_77_assignsubmission_file/"
    collected = collected_from(tmp_path, roster, {
        folder + "../../outside.py": b"x",
        "Mary Ann_Lee_78_assignsubmission_file/a.py": b"", "Mary Ann_Lee_78_assignsubmission_file/b/c.py": b"",
        "Mary Ann_Lee_78_assignsubmission_file/d.py": b""}, worksheet=WORKSHEET)
    assert not collected.students and not list(tmp_path.rglob("outside.py"))
    assert "../../outside.py, a path outside the submission" in collected.refused["alice"].said("en")
    assert collected.refused["mary_ann"].said("en") == "Mary Ann_Lee (Moodle 78) holds more than 2 files"


def test_a_download_that_is_not_a_zip_is_refused(tmp_path, roster):
    (tmp_path / "download.zip").write_text("an HTML error page")
    with pytest.raises(Refused) as refused:
        lms.read(tmp_path / "download.zip", roster)
    assert refused.value.said("en").endswith("download.zip is not a zip file that can be read")


def test_the_roster_check_lists_missing_unknown_twice_late_and_refused(tmp_path, roster):
    collected = collected_from(tmp_path, roster, {
        "lee_late_1234_90001_02_gradients.zip": zipped(PACKAGE),
        "lee_late_1234_90003_02_gradients.zip": zipped(PACKAGE),
        "stranger_9999_90002_02_gradients.zip": zipped(PACKAGE),
        "smithalice_2001_90004_02_gradients.zip": zipped({"../x.py": b""}),
    })
    lines = rosters.check("en", roster, ["mary_ann", "dave"], collected)
    assert lines == [
        "roster: 3 students, 1 with a submission",
        "  missing (in the roster, no submission): 2", "    alice", "    carol",
        "  unknown (submitted, not in the roster): 2", "    stranger (Canvas 9999)", "    dave",
        "  submitted twice (the later upload is graded): 1", "    mary_ann: lee_late_1234_90003_02_gradients.zip",
        "  not collected (beside the zip graded): 1", "    mary_ann: lee_late_1234_90001_02_gradients.zip",
        "  late (as the LMS marks it): 1", "    mary_ann",
        "  refused (not collected): 1",
        "    alice: smithalice_2001_90004_02_gradients.zip holds 02_gradients/../x.py, a path outside the submission",
    ]
    chinese = rosters.check("zh", roster, ["mary_ann", "dave"], collected)
    assert len(chinese) == len(lines) and chinese[0] != lines[0] and "    stranger (Canvas 9999)" in chinese


def test_without_a_roster_nothing_is_checked_and_the_roster_says_what_it_needs(tmp_path):
    assert rosters.check("en", rosters.read(tmp_path / "absent.csv"), ["alice"])[0].startswith("no roster")
    for table, why in [("id,name\n1,Alice\n", "needs a student_id column"),
                       ("student_id\nalice\nalice\n", "alice is in the roster twice"),
                       ("student_id\n../alice\n", "../alice cannot be a student id")]:
        (tmp_path / "roster.csv").write_text(table)
        with pytest.raises(Refused) as refused:
            rosters.read(tmp_path / "roster.csv")
        assert why in refused.value.said("en")
    with pytest.raises(Refused) as refused:
        rosters.of_course(tmp_path, tmp_path / "class.csv")
    assert refused.value.said("en").endswith("class.csv: no such roster file")


def test_a_download_the_roster_cannot_name_is_refused_whole(tmp_path, roster):
    canvas = download(tmp_path / "canvas.zip", {"smithalice_2001_90002_02_gradients.zip": zipped(PACKAGE)})
    with pytest.raises(Refused) as refused:
        lms.read(canvas, rosters.Roster())
    assert refused.value.said("en") == (
        "smithalice_2001_90002_02_gradients.zip: a Canvas download names each student by their Canvas user id, and "
        "the roster gives none: give a roster with the columns student_id and canvas_id (--roster, or roster.csv in "
        "the course root; Canvas's gradebook export is one)")
    moodle = download(tmp_path / "moodle.zip", {"Alice Smith_77_assignsubmission_file_a.zip": zipped(PACKAGE)})
    (tmp_path / "worksheet.csv").write_text(WORKSHEET)
    (tmp_path / "ids only.csv").write_text("student_id,canvas_id\nalice,2001\n")
    with pytest.raises(Refused) as refused:
        lms.read(moodle, rosters.read(tmp_path / "ids only.csv"), tmp_path / "worksheet.csv")
    assert refused.value.said("en") == (
        "Alice Smith_77_assignsubmission_file_a.zip: a Moodle download names each student through their e-mail "
        "address, and the roster gives none: give a roster with the columns student_id and email (--roster, or "
        "roster.csv in the course root)")


def test_every_upload_is_collected_or_named(tmp_path, roster):
    collected = collected_from(tmp_path, roster, {
        "smithalice_2001_90002_02_gradients.zip": zipped(PACKAGE),
        "smithalice_2001_90003_02_gradients.ipynb": b"{}",
        "smithalice_2001_90004_02_gradients-1.zip": zipped(PACKAGE),
        "stranger_9999_90005_02_gradients.zip": zipped(PACKAGE),
    })
    assert list(collected.students) == ["alice"] and collected.unknown == ["stranger (Canvas 9999)"]
    assert rosters.check("en", roster, ["alice"], collected)[4:] == [
        "  unknown (submitted, not in the roster): 1", "    stranger (Canvas 9999)",
        "  submitted twice (the later upload is graded): 1", "    alice: smithalice_2001_90004_02_gradients-1.zip",
        "  not collected (beside the zip graded): 2", "    alice: smithalice_2001_90002_02_gradients.zip",
        "    alice: smithalice_2001_90003_02_gradients.ipynb"]


# Canvas's gradebook export as it comes (Grades > Export): a posting-policy row, the points, Student View's student.
CANVAS_EXPORT = """\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Chapter 2 (5502),Current Score,Final Score
,,,,,Manual Posting,,
    Points Possible,,,,,10.00,(read only),(read only)
"Lee, Mary Ann",1234,S1,mlee,A,8.00,80.00,80.00
"Smith, Alice",2001,S2,,B,,,
"Student, Test",9999,,,A,,,
"""


def test_canvas_gradebook_export_is_a_roster_as_it_comes(tmp_path):
    (tmp_path / "export.csv").write_text(CANVAS_EXPORT, encoding="utf-8")
    roster = rosters.read(tmp_path / "export.csv")
    assert roster.students == {
        "mlee": {"student_id": "mlee", "name": "Lee, Mary Ann", "canvas_id": "1234", "sis_user_id": "S1",
                 "sis_login_id": "mlee", "section": "A"},
        "2001": {"student_id": "2001", "name": "Smith, Alice", "canvas_id": "2001", "sis_user_id": "S2",
                 "sis_login_id": "", "section": "B"}}
    collected = collected_from(tmp_path, roster, {"lee_1234_90001_02_gradients.zip": zipped(PACKAGE)})
    assert list(collected.students) == ["mlee"] and submission(tmp_path, "mlee") == PACKAGE
