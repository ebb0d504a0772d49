"""Each mistake an instructor makes on the command line ends in one sentence (what is wrong, what to run
instead) and a non-zero exit, in the course's language, before anything is written; a course root is safe by
construction: no password kept, a copy grades into itself, a submission collected again is kept."""
import functools
import io
import math
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from support.submissions import ASSIGNMENT, HONEST, hand_in
from tools import classroom, limits, nbgraderapp

pytestmark = pytest.mark.grading
CHAPTER_1 = "01_graph"
NAMES = "01_graph, 02_gradients, 03_no_grad, 04_vjp, 05_function, 06_internals, 07_capstone"


def run(*args, module="tools.classroom"):
    """A command line as the instructor types it (``python -m MODULE ARGS``): its exit code and what it printed
    (stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    return done.returncode, done.stdout, done.stderr


def main(capsys, *args, module=classroom):
    """The same command line's ``main`` in this process (a Python starts in seconds on a busy machine): its exit
    code and what the instructor reads, as ``run`` gives them."""
    capsys.readouterr()
    try:
        module.main(list(map(str, args)))
        code, message = 0, ""
    except SystemExit as exit_:
        code, message = (1, f"{exit_.code}\n") if isinstance(exit_.code, str) else (exit_.code, "")
    out, err = capsys.readouterr()
    return code, out, err + message


@pytest.fixture(scope="module", params=["en", "zh"])
def course(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"mistakes_{request.param}") / "course"
    classroom.init(root, request.param)
    for assignment in (CHAPTER_1, ASSIGNMENT):
        classroom.release(root, assignment, out=io.StringIO())
    return root


def said(course, en, zh, **fields):
    """The sentence in the course's language, its fields filled in."""
    return (en if nbgraderapp.config(course).SandboxedExecute.language == "en" else zh).format(root=course, **fields)


def test_an_assignment_the_course_does_not_have_is_named_with_those_it_has(course, capsys):
    for command, name in [("release", "07_attention"), ("collect", "02_gradient"), ("autograde", "2"),
                          ("feedback", "02_gradient")]:
        ran = run if command == "release" else functools.partial(main, capsys)
        assert ran(command, course, name) == (1, "", said(
            course, f"The course root {{root}} has no assignment {name}: its assignments are {NAMES}. Run the "
                    "command again with one of these names.\n",
            f"课程根目录 {{root}} 中没有作业 {name}：它的作业是 {NAMES}。请用其中一个名称重新运行该命令。\n")), command


def test_grading_before_collecting_says_what_to_run(course, capsys):
    for command in ("autograde", "feedback"):
        assert main(capsys, command, course, ASSIGNMENT) == (1, "", said(
            course, "Nothing is collected for 02_gradients in {root} yet: run `minigrad-classroom collect {root} "
                    "02_gradients` first (with --zip for an LMS download), then this command again.\n",
            "{root} 中还没有收取 02_gradients 的任何提交：请先运行 `minigrad-classroom collect {root} 02_gradients`"
            "（LMS 的下载文件加 --zip），再重新运行该命令。\n"))


def test_a_folder_that_is_not_a_course_root_is_named_in_english(tmp_path, capsys):
    sentence = (f"{tmp_path} is not a course root (it has no nbgrader_config.py): make one with `minigrad-classroom "
                f"init {tmp_path} --lang en` (or --lang zh), or give the folder init made.\n")
    assert run("release", tmp_path, ASSIGNMENT) == (1, "", sentence)
    assert main(capsys, "export", tmp_path) == (1, "", sentence)
    assert main(capsys, tmp_path, module=limits) == (1, "", sentence)


def test_limits_speak_the_course_language(course, capsys):
    code, out, _ = main(capsys, course, module=limits)
    first = out.splitlines()[0].split(None, 2)
    assert (code, first) == (0, ["c.Limits.cell_seconds", "60", said(course, "wall time of one notebook cell",
                                                                         "笔记本中一个单元格的墙钟时间")])


def test_limits_project_a_class_size_from_the_measured_rate(course, capsys):
    code, out, _ = main(capsys, course, "--students", 200, module=limits)
    minutes = math.ceil(200 * limits.CORE_SECONDS_PER_SUBMISSION / len(os.sched_getaffinity(0)) / 60)
    each, cores = f"{limits.CORE_SECONDS_PER_SUBMISSION:.1f}", len(os.sched_getaffinity(0))
    assert (code, out.splitlines()[-1]) == (0, said(
        course, f"200 submissions: about {minutes} min on {cores} cores ({each} s of a core each, as measured in "
                "bench/README.md); a submission whose step stalls adds up to 60 s, and none takes more than 930 s.",
        f"200 份提交：在 {cores} 个核心上约需 {minutes} 分钟（每份约占一个核心 {each} 秒，见 bench/README.md 中的实测）；"
        "某一步卡住的提交最多再多用 60 秒，任何一份都不会超过 930 秒。"))


def test_the_console_script_works_from_any_folder(course, tmp_path):
    """``minigrad-classroom``, installed with the project (``pip install -e .``), runs from outside the repository."""
    script = Path(sys.executable).parent / "minigrad-classroom"
    done = subprocess.run([script, "release", course, "07_attention"], cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (1, said(
        course, f"The course root {{root}} has no assignment 07_attention: its assignments are {NAMES}. Run the "
                "command again with one of these names.\n",
        f"课程根目录 {{root}} 中没有作业 07_attention：它的作业是 {NAMES}。请用其中一个名称重新运行该命令。\n"))


ROSTER = "student_id,name,email,canvas_id\njdoe,Jane Doe,jdoe@example.edu,1001\n"
WORKSHEET = "Identifier,Full name,Email address,Status,Grade,Maximum Grade\nParticipant 42,Jane Doe,jdoe@example.edu,,,\n"


def moodle_download(path, folder):
    with zipfile.ZipFile(path, "w") as download:
        for file in sorted(folder.rglob("*")):
            download.write(file, f"Jane Doe_42_assignsubmission_file/{file.relative_to(folder)}")
    return path


def canvas_download(path, folder, top):
    upload = io.BytesIO()
    with zipfile.ZipFile(upload, "w") as inner:
        for file in sorted(folder.rglob("*")):
            inner.write(file, f"{top}/{file.relative_to(folder)}")
    with zipfile.ZipFile(path, "w") as download:
        download.writestr(f"doejane_1001_88001_{top}.zip", upload.getvalue())
    return path


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_another_chapters_download_is_refused_before_anything_is_written(course, tmp_path, capsys):
    (course / "roster.csv").write_text(ROSTER)
    (tmp_path / "worksheet.csv").write_text(WORKSHEET)
    earlier = hand_in(course, "jdoe", None, tmp_path / "scratch")
    before = snapshot(course)
    chapter_1 = course / "release" / CHAPTER_1
    for download, extra in [(moodle_download(tmp_path / "moodle.zip", chapter_1), ["--worksheet", tmp_path /
                                                                                    "worksheet.csv"]),
                            (canvas_download(tmp_path / "canvas.zip", chapter_1, CHAPTER_1), [])]:
        names = "01_graph.ipynb" if "moodle" in download.name else "01_graph/01_graph.ipynb"
        assert main(capsys, "collect", course, ASSIGNMENT, "--zip", download, *extra) == (1, "", said(
            course, f"{download} holds the work of 01_graph ({names}), not of 02_gradients: nothing was collected. "
                    "Collect it as 01_graph, or download 02_gradients's submissions from your LMS.\n",
            f"{download} 中是 01_graph 的作业（{names}），而不是 02_gradients 的：没有收取任何提交。请把它作为 01_graph "
            "收取，或从 LMS 下载 02_gradients 的提交。\n"))
        assert snapshot(course) == before and earlier.is_dir()
    shutil.rmtree(course / "submitted")
    (course / "roster.csv").unlink()


def test_collecting_again_keeps_the_previous_submission_and_says_what_changed(course, tmp_path):
    (course / "roster.csv").write_text(ROSTER)
    first = shutil.copytree(course / "release" / ASSIGNMENT, tmp_path / "first")
    second = shutil.copytree(first, tmp_path / "second")
    (second / "minigrad/autograd/engine.py").write_text("# the second try\n")
    lines = []
    for folder in (first, second, second):
        out = io.StringIO()
        classroom.collect_submissions(course, ASSIGNMENT, canvas_download(tmp_path / "dl.zip", folder, ASSIGNMENT),
                                      out=out)
        lines.append(out.getvalue().splitlines()[1])
    kept = next((course / "replaced").iterdir()) / "jdoe" / ASSIGNMENT
    assert lines == ["  jdoe " + said(course, "no package file changed since the release", "包文件与发布时相比没有任何改动"),
                     "  jdoe " + said(course, "changed: {files}; replaces the submission collected before, which "
                                              "differed in {files} (kept in {kept})",
                                      "改动了：{files}; 替换了之前收取的提交，两者在 {files} 上不同（之前的提交保存在 {kept}）",
                                      files="minigrad/autograd/engine.py", kept=kept.relative_to(course)),
                     "  jdoe " + said(course, "changed: minigrad/autograd/engine.py; the same as the submission "
                                              "collected before",
                                      "改动了：minigrad/autograd/engine.py; 与之前收取的提交相同")]
    assert snapshot(kept) == snapshot(first) and len(list((course / "replaced").iterdir())) == 1
    shutil.rmtree(course / "submitted")
    shutil.rmtree(course / "replaced")
    (course / "roster.csv").unlink()


@pytest.mark.parametrize("url", [
    "postgresql://grader:S3cret@localhost/minigrad",
    "postgresql://grader@localhost/minigrad?password=S3cret",
    "postgresql://grader@localhost/minigrad?PASSWORD=S3cret",
    "postgresql://grader@localhost/minigrad?%70assword=S3cret",
    "postgresql://grader@localhost/minigrad?passwd=S3cret",
    "postgresql://grader@localhost/minigrad?sslpassword=S3cret",
    "postgresql://grader@localhost/minigrad?dsn=postgresql://grader:S3cret@localhost/minigrad",
])
def test_no_password_is_written_or_printed_whatever_its_spelling(tmp_path, url, capsys):
    code, out, err = main(capsys, "init", tmp_path / "course", "--db", url)
    assert (code, out, err) == (1, "", "The gradebook URL holds a password, which nbgrader_config.py would keep in "
                                       "plain text. Leave it out of the URL, and give it to every grader in "
                                       "~/.pgpass or in PGPASSWORD.\n")
    assert not (tmp_path / "course").exists()


def test_a_copied_course_root_grades_into_itself(tmp_path):
    original, copy = tmp_path / "course", tmp_path / "copy"
    classroom.init(original, "en")
    classroom.release(original, ASSIGNMENT, out=io.StringIO())
    before = snapshot(original)
    shutil.copytree(original, copy, symlinks=True)
    hand_in(copy, "alice", HONEST["reference"], tmp_path / "scratch")
    assert run("autograde", copy, ASSIGNMENT, "--jobs", "1")[0] == 0
    config = nbgraderapp.config(copy)
    assert (config.CourseDirectory.root, config.Exchange.root) == (str(copy), str(copy / "exchange"))
    assert snapshot(original) == before and (copy / "autograded" / "alice" / ASSIGNMENT).is_dir()


def test_a_course_root_made_before_the_files_moved_is_refused_before_grading(course, tmp_path, capsys):
    """A root whose chapter 1 still grades the files of the layout before 2026-11-28 would keep the stubs in place
    of what students wrote in ``rules/chapter1.py``: every command refuses it, saying how to move on."""
    old = tmp_path / "old_course"
    shutil.copytree(course, old, ignore=shutil.ignore_patterns("gradebook.db", "exchange"))
    config = old / "nbgrader_config.py"
    before = "'minigrad/autograd/graph.py', 'minigrad/ops/arithmetic.py', 'minigrad/ops/pointwise.py', " \
             "'minigrad/ops/powers.py', 'minigrad/shape.py'"
    now = "'minigrad/autograd/graph.py', 'minigrad/rules/chapter1.py', 'minigrad/shape.py'"
    assert now in config.read_text()
    config.write_text(config.read_text().replace(now, before))
    files = ", ".join(classroom.learner_files(1))
    sentence = said(
        old, "The course root {root} was made for an earlier layout of the package (its 01_graph grades {old} as the "
             "student's files; the course's are now {new}): grading with it would keep stubs in place of students' "
             "code. Make a new course root with `minigrad-classroom init NEW_ROOT`, release from it, and ask students "
             "who worked on the old release to run `minigrad-migrate` on their package first.\n",
        "课程根目录 {root} 是为包的旧布局创建的（它的 01_graph 把 {old} 当作学生的文件来评分；课程现在的是 {new}）：用它评分会把"
        "学生的代码换成桩代码。请用 `minigrad-classroom init NEW_ROOT` 新建一个课程根目录并从它发布作业，并请在旧版本上做过作业"
        "的学生先对自己的包运行 `minigrad-migrate`。\n", old=before.replace("'", ""), new=files)
    for command in ("release", "autograde", "export"):
        args = (command, old) if command == "export" else (command, old, ASSIGNMENT)
        assert main(capsys, *args) == (1, "", sentence), command
