"""Class-wide commands: every student of an assignment (or of several) graded in parallel worker processes.

Each worker is a process that loads nbgrader's API once (nbgrader takes seconds to start)
and then grades one student at a time, under a watchdog (``tools.workers``). The workers
share the gradebook: SQLite makes a writer wait for its turn, PostgreSQL takes concurrent
writers. A student whose grading fails, stalls or kills its worker does not stop the others. Progress is printed as students finish, then a summary:
who was graded (score, and what the sandbox stopped), who could not be graded and why.
"""
import json
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from sqlalchemy.exc import SAWarning

from . import class_report, collect, deadlines, feedback_page, grading_report, ledger, limits, nbgraderapp, workers
from .instructor_messages import N_, say
from .sandbox import UNSANDBOXED, Sandbox, bwrap_works

_api = None  # each worker's nbgrader API
WARNING = N_("WARNING: {what}")
KEPT = N_("{count} submissions graded by an earlier run keep their grades (--regrade grades them again)")
KEPT_NOTE = N_("kept from an earlier run")
PROGRESS = N_("[{done:>3}/{total}] {who} {status} ({seconds:.1f} s)")
OK, FAILED = N_("ok"), N_("FAILED: {error}")
GRADED = N_("{assignment}: {count} submissions, {done} graded, {noted} with notes, {failed} failed")
FEEDBACK_WRITTEN = N_("{assignment}: feedback for {done} of {count} students, {failed} failed")
FAILED_HEADING = N_("failed:")
NO_REPORT = N_("its grading report was missing or unreadable")


@dataclass
class Result:
    """What happened to one student's submission."""
    student: str
    ok: bool
    seconds: float
    notes: list = field(default_factory=list)  # repairs, and what the sandbox stopped
    error: str = ""
    score: float | None = None
    max_score: float | None = None
    assignment: str = ""


def autograde(root, assignment, jobs=None, students=None, out=sys.stdout, regrade=False, shard=None):
    """Autograde every submission of ``assignment`` (or only ``students``); print progress and a summary.

    ``assignment`` is one assignment's name, or a list of them: their submissions are graded
    together, by one pool of workers, and summed up one assignment after another. A submission
    graded to the end by an earlier run, and not handed in again since, keeps its grade unless
    ``regrade``; ``shard`` ((K, N), see ``tools.ledger``) takes only that share of the class.
    """
    root = Path(root).resolve()
    language = nbgraderapp.course_language(root)
    assignments = [assignment] if isinstance(assignment, str) else list(dict.fromkeys(assignment))
    tasks = [(name, student) for name in assignments for student in students or collect.students(root, name)
             if ledger.in_shard(student, shard)]
    api = nbgraderapp.api(root)
    _open_gradebook(api.coursedir)
    sandboxed = bwrap_works(Sandbox(parent=api).bwrap)
    if not sandboxed:
        print(say(WARNING, language, what=say(UNSANDBOXED, language)), file=out)
    with nbgraderapp.gradebook(api.coursedir) as gradebook:
        kept = [] if regrade else [task for task in tasks if _graded_before(root, gradebook, *task)]
    if kept:
        print(say(KEPT, language, count=len(kept)), file=out)
    results = _in_parallel(root, _autograde_one, [task for task in tasks if task not in kept], jobs, out)
    results += [Result(student, True, 0.0, [say(KEPT_NOTE, language)], assignment=name) for name, student in kept]
    with nbgraderapp.gradebook(api.coursedir) as gradebook:
        for result in results:
            if result.ok:
                result.notes += _incidents(root, result.assignment, result.student, language)
                submission = gradebook.find_submission(result.assignment, result.student)
                result.notes += deadlines.notes(root, submission, language)
                result.score, result.max_score = submission.score, submission.max_score
    results.sort(key=lambda r: (r.assignment, r.student))
    for name in assignments:
        _summary(name, [r for r in results if r.assignment == name], out, language)
    for name in assignments:
        page, table = class_report.write(root, name, [r for r in results if r.assignment == name], language)
        print(say(class_report.WRITTEN, language, page=page.relative_to(root), table=table.relative_to(root)), file=out)
    if not sandboxed:
        print(say(WARNING, language, what=say(UNSANDBOXED, language)), file=out)
    return results


def feedback(root, assignment, jobs=None, students=None, out=sys.stdout):
    """Generate the feedback of every autograded submission (hidden tests left out), only the pages kept;
    print a summary of where each student's went."""
    root = Path(root).resolve()
    language = nbgraderapp.course_language(root)
    students = students or sorted(p.parent.name for p in (root / "autograded").glob(f"*/{assignment}"))
    results = _in_parallel(root, _feedback_one, [(assignment, student) for student in students], jobs, out)
    done = [r for r in results if r.ok]
    print("\n" + say(FEEDBACK_WRITTEN, language, assignment=assignment, done=len(done), count=len(results),
                     failed=len(results) - len(done)), file=out)
    width = _width(results)
    for result in done:
        pages = sorted((root / "feedback" / result.student / assignment).glob("*.html"))
        print(f"  {result.student:<{width}} {', '.join(str(p.relative_to(root)) for p in pages)}", file=out)
    _failures(results, out, language, width)
    return results


def _in_parallel(root, task, tasks, jobs, out):
    """Run ``task(assignment, student)`` for each pair in ``tasks`` in worker processes under a watchdog
    (``tools.workers``), printing each one as it ends; return every Result, sorted.

    A submission whose grading outlives the course's ``Limits.watchdog_seconds()``, kills its worker, or
    comes back garbled fails alone, with the reason; the others are graded.
    """
    results = []
    several = len({assignment for assignment, _ in tasks}) > 1
    language = nbgraderapp.course_language(root)
    width = max([len(f"{a} {s}" if several else s) for a, s in tasks] or [0])

    def done(pair, answer):
        assignment, student = pair
        if isinstance(answer, workers.TaskFailed):
            result = Result(student, False, 0.0, error=str(answer))
        else:
            result = _result_of(answer, student)
        result.assignment = assignment
        results.append(result)
        status = say(OK, language) if result.ok else say(FAILED, language, error=result.error)
        who = f"{assignment} {student}" if several else student
        print(say(PROGRESS, language, done=len(results), total=len(tasks), who=f"{who:<{width}}", status=status,
                  seconds=result.seconds), file=out, flush=True)

    budget = limits.of_course(root).watchdog_seconds()
    workers.run(task, tasks, jobs or default_jobs(), budget, _start_worker, (str(root),), done)
    return sorted(results, key=lambda r: (r.assignment, r.student))


def _result_of(answer, student):
    """A worker's answer as a Result, if it is one (else a failed Result saying so)."""
    fields = {"ok": bool, "seconds": (int, float), "notes": list, "error": str}
    if any(not isinstance(answer.get(name), kind) for name, kind in fields.items()) or \
            not all(isinstance(note, str) for note in answer["notes"]):
        return Result(student, False, 0.0, error="its grading process answered garbage")
    return Result(student, answer["ok"], float(answer["seconds"]), answer["notes"], answer["error"][:300])


def default_jobs():
    """One worker more than CPUs: while a worker waits for its sandbox to start or stop, another computes."""
    return len(os.sched_getaffinity(0)) + 1


def _start_worker(root):
    global _api
    warnings.filterwarnings("ignore", category=SAWarning)  # nbgrader 0.9 on SQLAlchemy 2: noise to an instructor
    _api = nbgraderapp.api(root)


def _autograde_one(assignment, student):
    """Grade one submission, made gradable first (grading's report says what was repaired)."""
    root = _api.coursedir.root
    collect.make_gradable(root, assignment, student)
    answer = _timed(lambda: _api.autograde(assignment, student, force=True, create=True))
    if answer["ok"]:
        ledger.record(root, assignment, student)
    return answer


def _graded_before(root, gradebook, assignment, student):
    """Whether an earlier run graded this submission, as it stands, to the end (and the gradebook has it)."""
    if not ledger.is_graded(root, assignment, student):
        return False
    try:
        gradebook.find_submission(assignment, student)
    except MissingEntry:
        return False
    return True


def _feedback_one(assignment, student):
    answer = _timed(lambda: _api.generate_feedback(assignment, student, force=True))
    if answer["ok"]:  # what goes back to a student is the page: not a copy of the package, nor a report
        feedback_page.keep_pages(Path(_api.coursedir.root) / "feedback" / student / assignment)
    return answer


def _timed(call, notes=()):
    """What a worker answers for one task (the fields of a Result that it knows)."""
    start = time.monotonic()
    outcome = call()
    return {"ok": outcome["success"], "seconds": time.monotonic() - start, "notes": list(notes),
            "error": _why(outcome)}


def _why(outcome):
    """The line of nbgrader's log or traceback that says what went wrong ("" on success)."""
    if outcome["success"]:
        return ""
    lines = (outcome.get("log", "") + "\n" + outcome.get("error", "")).splitlines()
    raised = [line.strip() for line in lines if re.match(r"^\s*\w+(Error|Exception)\b.*:", line)]
    return (raised or [line for line in lines if line.strip()] or ["unknown error"])[0][:300]


def _open_gradebook(coursedir):
    """Create the gradebook's course rows once, before the workers race to do it."""
    for course in (coursedir.course_id, "default_course"):  # nbgrader's preprocessors use the default course
        Gradebook(coursedir.db_url, course).close()


def _incidents(root, assignment, student, language):
    """What grading noted about a graded submission (its report), in ``language``; read as untrusted."""
    try:
        with open(Path(root) / "autograded" / student / assignment / grading_report.REPORT, "rb") as report:
            return [note[:300] for note in grading_report.said(json.loads(report.read(1 << 20)), language)]
    except (OSError, ValueError):
        return [say(NO_REPORT, language)]


def _summary(assignment, results, out, language):
    """Every student's score and notes, then who could not be graded and why; columns as wide as the ids."""
    done = [r for r in results if r.ok]
    noted = [r for r in done if r.notes]
    print("\n" + say(GRADED, language, assignment=assignment, count=len(results), done=len(done),
                     noted=len(noted), failed=len(results) - len(done)), file=out)
    width = _width(results)
    for result in done:
        score = f"{result.score:g}/{result.max_score:g}" if result.score is not None else "-"
        print(f"  {result.student:<{width}} {score:>9}", file=out)
        for note in result.notes:
            print(f"      - {note}", file=out)
    _failures(results, out, language, width)


def _failures(results, out, language, width):
    failed = [r for r in results if not r.ok]
    if failed:
        print(say(FAILED_HEADING, language), file=out)
        for result in failed:
            print(f"  {result.student:<{width}} {result.error}", file=out)


def _width(results):
    """The width of the student column: the longest id's."""
    return max([len(r.student) for r in results] or [0])
