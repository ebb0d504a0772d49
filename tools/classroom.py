"""The instructor's command line: an nbgrader course root made from the course's own sources, and
the class-wide steps of grading it. nbgrader's own commands keep working in the course root.

Each chapter becomes one assignment (in one language) holding the chapter's notebook
and a snapshot of the package in which the steps of earlier chapters are solved and
this chapter's steps (and later ones) are stubs. The source notebook keeps the answers
to practice questions between nbgrader's ``### BEGIN SOLUTION``/``### END SOLUTION``
markers: the release leaves them out, the instructor's copy holds them, and grading judges
answers against it (the snapshot's package holds no key of its own). nbgrader's autograde
restores every non-notebook file from the instructor's copy unless told otherwise, so the config
lists exactly the files the learner writes in ``Autograde.exclude_overwriting``:
those are what get graded.

    python -m tools.classroom init ROOT --lang zh [--db URL] [--exchange DIR]
    python -m tools.classroom release ROOT 02_gradients [--to-exchange]
    python -m tools.classroom collect ROOT 02_gradients [--zip LMS_DOWNLOAD.zip [--worksheet MOODLE.csv]]
                                                       [--roster ROSTER.csv]
    python -m tools.classroom autograde ROOT 02_gradients [03_no_grad ...] [--jobs 3] [--student alice ...]
                                        [--regrade] [--shard 1/2]
    python -m tools.classroom feedback ROOT 02_gradients [--to-exchange]
    python -m tools.classroom due ROOT 02_gradients 2026-12-01T23:59+08:00 [--late none|penalty=1/day|refuse]
    python -m tools.classroom export ROOT [--to FILE.csv|FOLDER] [--roster ROSTER.csv] [--missing blank|zero]
"""
import argparse
import os
import re
import sys
import warnings
from pathlib import Path

from . import (build, classwide, collect, deadlines, editions, feedback_page, gradebook_db, gradesheets, ledger,
               limits, nbgraderapp, notebooks)
from . import roster as rosters
from .instructor_messages import N_, Refused, say

INITIALISED = N_("""course root {root}: {count} assignments ({names}), in source/
gradebook: {gradebook}
exchange: {exchange}
next: release an assignment (python -m tools.classroom release ROOT NAME --to-exchange)""")
RELEASED = N_("{assignment} released in {folder}: {notebooks}, and the package, of which the student writes "
              "{count} files ({files})")
TO_EXCHANGE = N_("published to nbgrader's exchange ({exchange}): every student of the course can fetch it now")
NOT_TO_EXCHANGE = N_("not published: zip {folder} for your LMS, or run again with --to-exchange")
COLLECTED = N_("{assignment}: {count} submissions")
CHANGED = N_("changed: {files}")
UNCHANGED = N_("no package file changed since the release")
MISSING = N_("missing: {files}")
REPLACES = N_("replaces the submission collected before, which differed in {files} (kept in {folder})")
SAME_AGAIN = N_("the same as the submission collected before")
NO_GRADE = {  # where a student has no grade (not handed in, or not autograded yet), by export --missing
    "blank": N_("no grade (not handed in, or not autograded yet): an empty cell, which leaves the LMS's grade as it "
                "was (--missing zero writes 0)"),
    "zero": N_("no grade (not handed in, or not autograded yet): 0 (--missing zero)")}
MOODLE_SCALE = N_("moodle/{assignment}.csv: grades out of {maximum}, as Moodle imports them: the assignment's "
                  "Maximum grade in Moodle must be {maximum}")
CANNOT_WRITE = N_("{path}: the grades cannot be written there, {folder} is not a folder you can write in; give "
                  "another --to")
BUNDLED = N_("every page in one zip for your LMS (a folder per student): {bundle}")
RETURNED = N_("returned through nbgrader's exchange to {count} students (those who submitted there)")
NOT_RETURNED = N_("  {student}: feedback not returned: {error}")
UNKNOWN_ASSIGNMENT = N_("The course root {root} has no assignment {assignment}: its assignments are {names}. "
                        "Run the command again with one of these names.")
OLD_LAYOUT = N_("The course root {root} was made for an earlier layout of the package (its {assignment} grades "
                "{old} as the student's files; the course's are now {new}): grading with it would keep stubs in place "
                "of students' code. Make a new course root with `minigrad-classroom init NEW_ROOT`, release from it, "
                "and ask students who worked on the old release to run `minigrad-migrate` on their package first.")
NOTHING_COLLECTED = N_("Nothing is collected for {assignment} in {root} yet: run `minigrad-classroom collect {root} "
                       "{assignment}` first (with --zip for an LMS download), then this command again.")

CONFIG = '''\
# nbgrader configuration written by `python -m tools.classroom init`.
import os
import sys

sys.path.insert(0, {repo!r})  # the grading code, in tools/
from tools import feedback_page, grading

# The course root is the folder of this file, wherever it is now: a copied or moved root grades into itself.
root = os.path.dirname(os.path.abspath(__file__))
c = get_config()
c.CourseDirectory.course_id = "minigrad"
c.CourseDirectory.root = root
c.CourseDirectory.db_url = {db_url}
c.Exchange.root = {exchange}
# A practice question's answer is cut from the release: its cell keeps "answer_qN_M = None" (nbgrader's own
# stub would raise NotImplementedError in the learner's notebook).
c.ClearSolutions.code_stub = {{"python": ""}}
# Keep the learner's own package files from each submission; restore all others.
c.Autograde.exclude_overwriting = {exclude!r}
# Notebooks run in a sandbox; graded cells are judged by fresh checks; feedback hides hidden tests.
grading.configure(c, language={language!r})
# Feedback pages in the course's language: each graded cell named by its step, maths drawn offline.
feedback_page.configure(c, language={language!r})
# Every limit grading puts on a submission (see tools/limits.py; `python -m tools.limits ROOT` prints them):
{limits}
'''


# Parallel graders share the SQLite file: each waits its turn to write (up to a minute) instead of failing.
SQLITE_IN_ROOT = '"sqlite:///" + os.path.join(root, "gradebook.db") + "?timeout=60"'


def learner_files(chapter):
    """The package files (relative to the assignment) holding the steps of ``chapter``."""
    return sorted(f"minigrad/{name}" for name, steps in editions.steps_by_file(build.PACKAGE).items()
                  if any(editions.ids.chapter_of(step) == chapter for step in steps))


def assignments():
    """(assignment name, chapter number, chapter source) for every chapter, in order."""
    return [(source.stem, int(source.stem[:2]), source) for source in build.chapter_sources()]


def write_assignment(source_dir, chapter, source, language):
    """One assignment folder: the chapter's notebook (answers marked for nbgrader) and its package snapshot."""
    source_dir.mkdir(parents=True, exist_ok=True)
    notebook = notebooks.for_language(notebooks.read_source(source), language, source.stem, solutions="marked")
    (source_dir / f"{source.stem}.ipynb").write_text(notebooks.text_of(notebook))
    solved = {step for step in editions.steps_in(build.PACKAGE) if editions.ids.chapter_of(step) < chapter}
    editions.write_package(build.PACKAGE, source_dir / "minigrad", keep=solved)
    without_key(source_dir / "minigrad" / "steps" / "answers.py")


def without_key(answers):
    """Empty the self-study key of practice answers in a graded snapshot: its short hashes could be reversed
    by trying, and grading judges the answers against the source notebook instead."""
    text, emptied = re.subn(r"^ANSWERS = \{.*?^\}\n", "ANSWERS = {}\n", answers.read_text(), flags=re.M | re.S)
    text, graded = re.subn(r"^GRADED = False\b", "GRADED = True", text, flags=re.M)
    if (emptied, graded) != (1, 1):
        raise ValueError(f"{answers}: no self-study key to take out (ANSWERS and GRADED not found)")
    answers.write_text(text)


def init(root, language, db_url=None, exchange=None):
    """Write a course root with one assignment per chapter; return the assignment names.

    The gradebook is SQLite in the course root unless ``db_url`` names another database
    (e.g. ``postgresql+psycopg2://grader@dbhost/minigrad``, for several graders at once): it must
    answer, and hold no password (``gradebook_db``), before anything is written.
    """
    if db_url:
        gradebook_db.check(db_url, language)
    root = Path(root).resolve()
    exclude = {}
    for name, chapter, source in assignments():
        write_assignment(root / "source" / name, chapter, source, language)
        exclude[name] = learner_files(chapter)
    exchange = Path(exchange).resolve() if exchange else root / "exchange"
    if not exchange.exists():
        exchange.mkdir(parents=True)
        exchange.chmod(0o777)  # as nbgrader makes it: every student drops submissions in it
    (root / "nbgrader_config.py").write_text(CONFIG.format(
        repo=str(build.ROOT), db_url=repr(db_url) if db_url else SQLITE_IN_ROOT,
        exchange=repr(str(exchange)) if exchange != root / "exchange" else 'os.path.join(root, "exchange")',
        exclude=exclude, language=language, limits=limits.settings()))
    return list(exclude)


def release(root, assignment, to_exchange=False, out=sys.stdout):
    """Make the student version of ``assignment`` (solutions and hidden tests removed); publish it; say where."""
    api = nbgraderapp.api(root)
    nbgraderapp.succeed(api.generate_assignment(assignment, force=True), "generate_assignment")
    if to_exchange:
        nbgraderapp.succeed(api.release_assignment(assignment), "release_assignment")
    language = nbgraderapp.course_language(root)
    folder = Path(root).resolve() / "release" / assignment
    notebooks_ = sorted(p.name for p in folder.glob("*.ipynb"))
    learner = nbgraderapp.config(root).Autograde.exclude_overwriting.get(assignment, [])
    print(say(RELEASED, language, assignment=assignment, folder=folder, notebooks=", ".join(notebooks_),
              count=len(learner), files=", ".join(learner)), file=out)
    if to_exchange:
        print(say(TO_EXCHANGE, language, exchange=nbgraderapp.config(root).Exchange.root), file=out)
    else:
        print(say(NOT_TO_EXCHANGE, language, folder=folder), file=out)


def collect_submissions(root, assignment, archive=None, roster=None, worksheet=None, out=sys.stdout):
    """Collect from the exchange, or from an LMS download; list who submitted what; check the roster."""
    roster = rosters.of_course(root, roster)
    collected, kept = None, collect.keep_previous(root, assignment)
    try:
        if archive:
            collected = collect.from_zip(root, assignment, archive, roster, worksheet)
        else:
            collect.from_exchange(root, assignment)
    finally:
        replaced = collect.replaced(root, assignment, kept)
    language = nbgraderapp.course_language(root)
    learner = nbgraderapp.config(root).Autograde.exclude_overwriting.get(assignment, [])
    found = collect.students(root, assignment)
    print(say(COLLECTED, language, assignment=assignment, count=len(found)), file=out)
    width = max([len(student) for student in found] or [0])
    brought = set(collected.students) if collected else set(found)  # a download brings only its own students
    for student in found:
        again = ([say(REPLACES, language, files=", ".join(replaced[student][0]),
                      folder=replaced[student][1].relative_to(Path(root)))] if student in replaced else
                 [say(SAME_AGAIN, language)] if student in kept and student in brought else [])
        said = "; ".join([handed_in(root, assignment, student, learner, language), *again])
        print(f"  {student:<{width}} {said}", file=out)
    print("\n".join(rosters.check(language, roster, found, collected)), file=out)
    return found


def handed_in(root, assignment, student, learner, language):
    """Which of the learner's files a submission changed from the release, and which it lacks, in a line."""
    folder, released = Path(root) / "submitted" / student / assignment, Path(root) / "release" / assignment
    missing = [name for name in learner if not (folder / name).is_file()]
    changed = [name for name in learner if name not in missing and (not (released / name).is_file() or
                                                                      (folder / name).read_bytes() !=
                                                                      (released / name).read_bytes())]
    said = [say(CHANGED, language, files=", ".join(changed)) if changed else say(UNCHANGED, language)]
    if missing:
        said.append(say(MISSING, language, files=", ".join(missing)))
    return "; ".join(said)


def feedback(root, assignment, jobs=None, to_exchange=False, out=sys.stdout):
    """Write each student's feedback page and a zip of them all for an LMS; with ``to_exchange``, hand each
    back to those who submitted through nbgrader's exchange. Say where it all went."""
    language = nbgraderapp.course_language(root)
    results = classwide.feedback(root, assignment, jobs=jobs, out=out)
    print(say(BUNDLED, language, bundle=feedback_page.bundle(root, assignment)), file=out)
    if to_exchange:
        api, returned = nbgraderapp.api(root), 0
        for result in results:  # nbgrader knows when these were submitted: their timestamp.txt came with them
            if (Path(root) / "feedback" / result.student / assignment / "timestamp.txt").exists():
                with warnings.catch_warnings():  # nbgrader 0.9.6 passes itself a misspelt argument here
                    warnings.simplefilter("ignore", DeprecationWarning)
                    released = api.release_feedback(assignment, result.student)
                if released["success"]:
                    returned += 1
                else:
                    print(say(NOT_RETURNED, language, student=result.student, error=released.get("error", "")),
                          file=out)
        print(say(RETURNED, language, count=returned), file=out)
    return results


def export(root, to=None, roster=None, missing="blank", out=sys.stdout):
    """Write nbgrader's CSV of every grade, and beside it each chapter's files for Canvas and Moodle, a
    missing grade blank or 0 in all of them alike (``tools/gradesheets.py``); say where, and what to know."""
    language, to = nbgraderapp.course_language(root), _export_path(root, to)
    roster = rosters.of_course(root, roster)
    nbgraderapp.export_grades(root, to)
    graded = gradesheets.submissions(root)
    late = deadlines.refused(root)  # a late submission under a "refuse" policy has no grade
    scores = gradesheets.without_missing(to, graded - late, missing)
    print(say(N_("every grade: {path}"), language, path=to), file=out)
    print(say(NO_GRADE[missing], language), file=out)
    for assignment in sorted(scores):
        waiting = [student for student in collect.students(root, assignment) if (assignment, student) not in graded]
        if waiting:
            print(say(N_("{assignment}: collected but not autograded yet, so no grade: {students}"), language,
                      assignment=assignment, students=", ".join(waiting)), file=out)
    for line in deadlines.said_refused(late, language):
        print(line, file=out)
    if not roster.students:
        print(say(N_("no roster ({file}): no files for Canvas or Moodle"), language, file=rosters.FILE), file=out)
        return []
    written = gradesheets.write(root, to.parent, scores, roster, missing)
    print(say(N_("for Canvas and Moodle, per chapter:"), language), file=out)
    for path in written:
        print(f"  {path}", file=out)
    for assignment in sorted(scores):
        print(say(MOODLE_SCALE, language, assignment=assignment,
                  maximum=f"{gradesheets.moodle_maximum(root, assignment):.2f}"), file=out)
    outside = {student for _, student in graded} - set(roster.students)
    if outside:
        print(say(N_("graded but not in the roster, so in no file for an LMS: {students}"), language,
                  students=", ".join(sorted(outside))), file=out)
    return written


def _export_path(root, to):
    """Where nbgrader's CSV goes: ``to`` (``grades.csv`` inside it if it is a folder; its folder made if
    missing), by default ``ROOT/exports/grades.csv``: the grades stay in the course root."""
    path = Path(to).resolve() if to else Path(root).resolve() / "exports" / "grades.csv"
    if path.is_dir():
        path = path / "grades.csv"
    there = next(folder for folder in path.parents if folder.exists())  # the folders after it are made
    if not there.is_dir() or not os.access(there, os.W_OK):
        raise Refused(CANNOT_WRITE, path=path, folder=there)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _shard(text):
    try:
        return ledger.parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("init", help="create a course root with one assignment per chapter")
    make.add_argument("root")
    make.add_argument("--lang", choices=notebooks.LANGUAGES, default="en")
    make.add_argument("--db", help="gradebook URL (default: SQLite in the course root)")
    make.add_argument("--exchange", help="nbgrader exchange folder (default: ROOT/exchange)")
    for name, text in [("release", "generate the student version of an assignment"),
                       ("collect", "collect submissions from the exchange or an LMS download"),
                       ("autograde", "grade every submission, in parallel, in the sandbox"),
                       ("feedback", "write each student's feedback (without hidden tests)")]:
        command = commands.add_parser(name, help=text)
        command.add_argument("root")
        if name == "autograde":
            command.add_argument("assignment", nargs="+", help="one assignment, or several graded together")
        else:
            command.add_argument("assignment")
        if name in ("release", "feedback"):
            command.add_argument("--to-exchange", action="store_true", help="also publish to nbgrader's exchange")
        if name in ("autograde", "feedback"):
            command.add_argument("--jobs", type=int, help="parallel workers (default: one more than CPUs)")
    commands.choices["collect"].add_argument("--zip", help="an LMS download (Canvas, Moodle): the zip as it comes")
    commands.choices["collect"].add_argument("--worksheet", help="Moodle: the assignment's grading worksheet (CSV)")
    commands.choices["autograde"].add_argument("--student", action="append", help="only this student (repeatable)")
    commands.choices["autograde"].add_argument("--regrade", action="store_true",
                                               help="grade again the submissions an earlier run graded")
    commands.choices["autograde"].add_argument("--shard", type=_shard, metavar="K/N",
                                               help="only the K-th of N shares of the class (graders sharing a "
                                                    "PostgreSQL gradebook)")
    due = commands.add_parser("due", help="set a chapter's due date and late policy (tools/deadlines.py)")
    due.add_argument("root")
    due.add_argument("assignment")
    due.add_argument("date", help="ISO 8601 with its time zone, e.g. 2026-12-01T23:59+08:00")
    due.add_argument("--late", default="none", help="none (default), penalty=POINTS/day, or refuse")
    grades = commands.add_parser("export", help="write every grade to a CSV file")
    grades.add_argument("root")
    grades.add_argument("--to", help="nbgrader's CSV of every grade, or a folder for it (default: "
                                      "ROOT/exports/grades.csv); the files for Canvas and Moodle go beside it")
    grades.add_argument("--missing", choices=gradesheets.MISSING, default="blank",
                        help="a student without a grade: an empty cell, which an LMS leaves as it was (default), or 0")
    for command in (commands.choices["collect"], grades):
        command.add_argument("--roster", help="the class list (CSV; default: ROOT/roster.csv)")
    args = parser.parse_args(argv)
    language = args.lang if args.command == "init" else "en"  # until the course root says which
    try:
        if args.command != "init":
            language = nbgraderapp.course_language(nbgraderapp.course_root(args.root))
            _check_assignments(args)
        _run(args)
    except Refused as refused:  # an instructor's mistake, or a download or a roster that cannot be read
        sys.exit(refused.said(language))


def _check_assignments(args):
    """Refuse a course root made for another layout of the package, an assignment it does not have, and grading
    what nothing was collected for."""
    names, given = nbgraderapp.config(args.root).Autograde.exclude_overwriting, getattr(args, "assignment", [])
    for name, chapter, _ in assignments():
        if name in names and list(names[name]) != learner_files(chapter):
            raise Refused(OLD_LAYOUT, root=args.root, assignment=name, old=", ".join(names[name]),
                          new=", ".join(learner_files(chapter)))
    for assignment in [given] if isinstance(given, str) else given:
        if assignment not in names:
            raise Refused(UNKNOWN_ASSIGNMENT, root=args.root, assignment=assignment, names=", ".join(names))
        if args.command in ("autograde", "feedback") and not collect.students(args.root, assignment):
            raise Refused(NOTHING_COLLECTED, root=args.root, assignment=assignment)


def _run(args):
    if args.command == "init":
        try:
            names = init(args.root, args.lang, args.db, args.exchange)
        except gradebook_db.GradebookUnreachable as error:
            sys.exit(str(error))
        config = nbgraderapp.config(args.root)
        print(say(INITIALISED, args.lang, root=Path(args.root).resolve(), count=len(names), names=", ".join(names),
                  gradebook=config.CourseDirectory.db_url, exchange=config.Exchange.root))
    elif args.command == "release":
        release(args.root, args.assignment, args.to_exchange)
    elif args.command == "collect":
        collect_submissions(args.root, args.assignment, args.zip, args.roster, args.worksheet)
    elif args.command == "autograde":
        results = classwide.autograde(args.root, args.assignment, jobs=args.jobs, students=args.student,
                                      regrade=args.regrade, shard=args.shard)
        sys.exit(0 if all(r.ok for r in results) else 1)
    elif args.command == "feedback":
        feedback(args.root, args.assignment, args.jobs, args.to_exchange)
    elif args.command == "due":
        deadlines.set_due(args.root, args.assignment, args.date, args.late, out=sys.stdout)
    else:
        export(args.root, args.to, args.roster, args.missing)


if __name__ == "__main__":
    main()
