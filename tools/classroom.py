"""The instructor's command line: an nbgrader course root made from the course's own sources, and
the class-wide steps of grading it. nbgrader's own commands keep working in the course root.

Each chapter becomes one assignment (in one language) holding the chapter's notebook
and a snapshot of the package in which the steps of earlier chapters are solved and
this chapter's steps (and later ones) are stubs. The source notebook keeps the answers
to practice questions between nbgrader's ``### BEGIN SOLUTION``/``### END SOLUTION``
markers: the release leaves them out, the instructor's copy holds them. nbgrader's autograde restores every
non-notebook file from the instructor's copy unless told otherwise, so the config
lists exactly the files the learner writes in ``Autograde.exclude_overwriting``:
those are what get graded.

    python -m tools.classroom init ROOT --lang zh [--db URL] [--exchange DIR]
    python -m tools.classroom release ROOT 02_gradients [--to-exchange]
    python -m tools.classroom collect ROOT 02_gradients [--zip LMS_DOWNLOAD.zip [--worksheet MOODLE.csv]]
                                                       [--roster ROSTER.csv]
    python -m tools.classroom autograde ROOT 02_gradients [03_no_grad ...] [--jobs 3] [--student alice ...]
                                        [--regrade] [--shard 1/2]
    python -m tools.classroom feedback ROOT 02_gradients [--to-exchange]
    python -m tools.classroom export ROOT [--to grades.csv] [--roster ROSTER.csv]
"""
import argparse
import sys
import warnings
from pathlib import Path

from . import build, classwide, collect, editions, gradesheets, ledger, limits, nbgraderapp, notebooks
from . import roster as rosters
from .instructor_messages import N_, Refused, course_language, say

CONFIG = '''\
# nbgrader configuration written by `python -m tools.classroom init`.
import sys

sys.path.insert(0, {repo!r})  # the grading code, in tools/
from tools import grading

c = get_config()
c.CourseDirectory.course_id = "minigrad"
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db_url!r}
c.Exchange.root = {exchange!r}
# A practice question's answer is cut from the release: its cell keeps "answer_qN_M = None" (nbgrader's own
# stub would raise NotImplementedError in the learner's notebook).
c.ClearSolutions.code_stub = {{"python": ""}}
# Keep the learner's own package files from each submission; restore all others.
c.Autograde.exclude_overwriting = {exclude!r}
# Notebooks run in a sandbox; graded cells are judged by fresh checks; feedback hides hidden tests.
grading.configure(c, language={language!r})
# Every limit grading puts on a submission (see tools/limits.py; `python -m tools.limits ROOT` prints them):
{limits}
'''


def chapter_of(step):
    return int(step.split(".")[0])


def learner_files(chapter):
    """The package files (relative to the assignment) holding the steps of ``chapter``."""
    files = set()
    for path in sorted(build.PACKAGE.rglob("*.py")):
        if any(chapter_of(step) == chapter for step, *_ in editions.regions(path.read_text())):
            files.add(("minigrad" / path.relative_to(build.PACKAGE)).as_posix())
    return sorted(files)


def assignments():
    """(assignment name, chapter number, chapter source) for every chapter, in order."""
    return [(source.stem, int(source.stem[:2]), source) for source in build.chapter_sources()]


def write_assignment(source_dir, chapter, source, language):
    """One assignment folder: the chapter's notebook (answers marked for nbgrader) and its package snapshot."""
    source_dir.mkdir(parents=True, exist_ok=True)
    notebook = notebooks.for_language(notebooks.read_source(source), language, source.stem, solutions="marked")
    (source_dir / f"{source.stem}.ipynb").write_text(notebooks.text_of(notebook))
    solved = {step for step in editions.steps_in(build.PACKAGE) if chapter_of(step) < chapter}
    editions.write_package(build.PACKAGE, source_dir / "minigrad", keep=solved)


def init(root, language, db_url=None, exchange=None):
    """Write a course root with one assignment per chapter; return the assignment names.

    The gradebook is SQLite in the course root unless ``db_url`` names another database
    (e.g. ``postgresql+psycopg2://grader@dbhost/minigrad``, for several graders at once).
    """
    root = Path(root).resolve()
    exclude = {}
    for name, chapter, source in assignments():
        write_assignment(root / "source" / name, chapter, source, language)
        exclude[name] = learner_files(chapter)
    # Parallel graders share the SQLite file: each waits its turn to write (up to a minute) instead of failing.
    db_url = db_url or f"sqlite:///{root / 'gradebook.db'}?timeout=60"
    exchange = Path(exchange).resolve() if exchange else root / "exchange"
    if not exchange.exists():
        exchange.mkdir(parents=True)
        exchange.chmod(0o777)  # as nbgrader makes it: every student drops submissions in it
    (root / "nbgrader_config.py").write_text(CONFIG.format(
        repo=str(build.ROOT), root=str(root), db_url=db_url, exchange=str(exchange), exclude=exclude,
        language=language, limits=limits.settings()))
    return list(exclude)


def release(root, assignment, to_exchange=False):
    """Make the student version of ``assignment`` (solutions and hidden tests removed); publish it."""
    api = nbgraderapp.api(root)
    nbgraderapp.succeed(api.generate_assignment(assignment, force=True), "generate_assignment")
    if to_exchange:
        nbgraderapp.succeed(api.release_assignment(assignment), "release_assignment")


def collect_submissions(root, assignment, archive=None, roster=None, worksheet=None, out=sys.stdout):
    """Collect from the exchange, or from an LMS download; list who submitted what; check the roster."""
    roster = rosters.of_course(root, roster)
    collected = None
    if archive:
        collected = collect.from_zip(root, assignment, archive, roster, worksheet)
    else:
        collect.from_exchange(root, assignment)
    learner = nbgraderapp.config(root).Autograde.exclude_overwriting.get(assignment, [])
    found = collect.students(root, assignment)
    print(f"{assignment}: {len(found)} submissions", file=out)
    for student in found:
        folder = Path(root) / "submitted" / student / assignment
        missing = [name for name in learner if not (folder / name).is_file()]
        print(f"  {student:<24} {'missing: ' + ', '.join(missing) if missing else 'all package files'}", file=out)
    print("\n".join(rosters.check(course_language(root), roster, found, collected)), file=out)
    return found


def feedback(root, assignment, jobs=None, to_exchange=False, out=sys.stdout):
    """Write each student's feedback; with ``to_exchange``, hand it back to those who submitted through it.

    Students collected from an LMS get theirs through the LMS: upload ``feedback/STUDENT/ASSIGNMENT/``.
    """
    results = classwide.feedback(root, assignment, jobs=jobs, out=out)
    if to_exchange:
        api = nbgraderapp.api(root)
        for result in results:  # nbgrader knows when these were submitted: their timestamp.txt came with them
            if (Path(root) / "feedback" / result.student / assignment / "timestamp.txt").exists():
                with warnings.catch_warnings():  # nbgrader 0.9.6 passes itself a misspelt argument here
                    warnings.simplefilter("ignore", DeprecationWarning)
                    released = api.release_feedback(assignment, result.student)
                if not released["success"]:
                    print(f"  {result.student}: feedback not released: {released.get('error', '')}", file=out)
    return results


def export(root, to="grades.csv", roster=None, out=sys.stdout):
    """Write nbgrader's CSV of every grade, and beside it each chapter's files for Canvas and Moodle."""
    nbgraderapp.command(root, "export", "--to", str(Path(to).resolve()))
    language = course_language(root)
    print(say(N_("every grade: {path}"), language, path=to), file=out)
    roster = rosters.of_course(root, roster)
    if not roster.students:
        print(say(N_("no roster ({file}): no files for Canvas or Moodle"), language, file=rosters.FILE), file=out)
        return []
    written = gradesheets.write(root, to, roster)
    print(say(N_("for Canvas and Moodle, per chapter:"), language), file=out)
    for path in written:
        print(f"  {path}", file=out)
    graded = {student for grades, _ in gradesheets.scores(to).values() for student in grades}
    if graded - set(roster.students):
        print(say(N_("graded but not in the roster, so in no file for an LMS: {students}"), language,
                  students=", ".join(sorted(graded - set(roster.students)))), file=out)
    return written


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
    grades = commands.add_parser("export", help="write every grade to a CSV file")
    grades.add_argument("root")
    grades.add_argument("--to", default="grades.csv")
    for command in (commands.choices["collect"], grades):
        command.add_argument("--roster", help="the class list (CSV; default: ROOT/roster.csv)")
    args = parser.parse_args(argv)
    try:
        _run(args)
    except Refused as refused:  # a download or a roster that cannot be read (collect, export)
        sys.exit(refused.said(course_language(args.root)))


def _run(args):
    if args.command == "init":
        for name in init(args.root, args.lang, args.db, args.exchange):
            print(f"source/{name}")
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
    else:
        export(args.root, args.to, args.roster)


if __name__ == "__main__":
    main()
