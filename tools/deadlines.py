"""Due dates and the late policy of each chapter, applied by nbgrader's own late-submission machinery.

nbgrader holds half of it: an assignment's ``duedate`` in the gradebook, each submission's
``timestamp.txt`` (the exchange writes it; autograde stores it as the submission's time), and a
``LateSubmissionPlugin`` that autograde asks for each late notebook's penalty, stored as its
``late_submission_penalty``. nbgrader's CSV export and its feedback both take the score as
``max(0, score - penalty)``. What it lacks is written here:

- ``deadlines.json`` in the course root: each chapter's due date (with the instructor's time zone)
  and its policy, set by ``python -m tools.classroom due ROOT NAME DATE --late POLICY``:
  ``none`` (lateness is only reported), ``penalty=P/day`` (P points off for each day or part of a
  day late, never below 0), ``refuse`` (late work is not graded: its penalty is its whole score, and
  the grade is left blank in the exports). Setting it again (another date, another policy) sets the
  penalty of every graded submission anew in the gradebook: no grading runs again.
- ``LatePolicy``, the plugin autograde asks (``configure`` wires it into ``nbgrader_config.py``).
- the times an LMS download gives, stored as nbgrader's ``timestamp.txt`` when it is collected:
  Moodle's grading worksheet has each submission's "Last modified (submission)", written in the
  downloading teacher's own time zone with no zone said: it is read in the due date's zone (the
  machine's, when the chapter has no due date yet: set it before collecting). Canvas gives no time,
  only a ``late`` in the file's name: that flag is kept as ``late.txt`` beside the submission, and its
  time is taken as one second after the due date (so it counts as one day late), written again
  whenever the due date changes.
- the sentence that says how late a submission was and what it cost: in the autograde summary and
  on the feedback page.
"""
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import LateSubmissionPlugin

from . import nbgraderapp
from .instructor_messages import N_, Refused, say
from .roster import rows

FILE = "deadlines.json"
CANVAS_FLAG = "late.txt"  # beside a submission Canvas marked late
TIMESTAMP = "timestamp.txt"  # nbgrader's
DAY = 86400
MOODLE_TIME = "Last modified (submission)"
MOODLE_NONE = {"", "-"}  # Moodle's cell for a participant who submitted nothing
WIRING = """
# Each chapter's due date and late policy (python -m tools.classroom due), applied by autograde.
from tools import deadlines
deadlines.configure(c)
"""

BAD_DUE = N_("{given}: not a due date with its time zone; write it as 2026-12-01T23:59+08:00")
BAD_POLICY = N_("{given}: not a late policy; write none, penalty=POINTS/day (e.g. penalty=1/day) or refuse")
BAD_MOODLE_TIME = N_("{file}: the \"{column}\" of {who} reads \"{given}\", not a time as Moodle writes it "
                     "(e.g. Thursday, 26 November 2026, 11:05 PM)")
DUE_SET = N_("{assignment}: due {due}; late work: {policy}")
PENALTIES_SET = N_("late penalties set again under this policy for {count} graded submissions")
POLICIES = {
    "none": N_("no penalty (lateness is only reported)"),
    "penalty": N_("minus {points:g} for each day or part of a day late (never below 0)"),
    "refuse": N_("not graded (the grade is left blank in the exports)"),
}
LATE_BY = N_("handed in {late} after the due date ({due})")
CANVAS_LATE = N_("marked late by Canvas, which gives no time, so counted as one day late (due {due})")
REFUSED = N_("{assignment}: handed in late, so not graded (late policy: refuse): {students}")
COSTS = {
    "none": N_("{when}: no penalty"),
    "penalty": N_("{when}: late penalty {penalty:g}, {score:g}/{max_score:g} after it"),
    "refuse": N_("{when}: late work is not graded, the grade is left blank in the exports"),
}
UNITS = (N_("{n} d"), N_("{n} h"), N_("{n} min"), N_("{n} s"))
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
# Moodle's "strftimedaydatetime" in English ("Thursday, 26 November 2026, 11:05 PM", or 23:05) and Chinese
# ("2026年11月26日 星期四 23:05"); the day's name is not read.
MOODLE_EN = re.compile(r"(?:\w+,\s*)?(?P<day>\d{1,2})\s+(?P<month>[a-z]+)\s+(?P<year>\d{4}),?\s+"
                       r"(?P<hour>\d{1,2}):(?P<minute>\d{2})\s*(?P<ampm>am|pm)?", re.I)
MOODLE_ZH = re.compile(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*日\s*(?:\S+\s+)?"
                       r"(?P<hour>\d{1,2}):(?P<minute>\d{2})")


@dataclass(frozen=True)
class Policy:
    """What lateness costs: ``kind`` none, penalty (``per_day`` points a day started) or refuse."""
    kind: str = "none"
    per_day: float = 0.0

    @classmethod
    def parse(cls, text):
        text = text.strip().lower()
        if text in ("none", "refuse"):
            return cls(text)
        found = re.fullmatch(r"penalty=(\d+(?:\.\d+)?)/day", text)
        if not found or float(found[1]) <= 0:
            raise Refused(BAD_POLICY, given=text)
        return cls("penalty", float(found[1]))

    def __str__(self):
        return f"penalty={self.per_day:g}/day" if self.kind == "penalty" else self.kind

    def penalty(self, score, seconds_late):
        """The points a notebook scoring ``score`` loses for being ``seconds_late``: never more than its score."""
        if seconds_late <= 0 or self.kind == "none":
            return 0.0
        if self.kind == "refuse":
            return score
        return min(score, self.per_day * math.ceil(seconds_late / DAY))

    def said(self, language):
        return say(POLICIES[self.kind], language, points=self.per_day)


def parse_due(text):
    """A due date as the instructor writes it (ISO 8601 with its time zone) as an aware datetime."""
    try:
        due = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise Refused(BAD_DUE, given=text) from None
    if due.tzinfo is None:
        raise Refused(BAD_DUE, given=text)
    return due


def of_course(root):
    """{assignment: (due date, Policy)} of the course root."""
    path = Path(root) / FILE
    stored = json.loads(path.read_text()) if path.is_file() else {}
    return {name: (datetime.fromisoformat(rule["due"]), Policy.parse(rule["late"])) for name, rule in stored.items()}


def set_due(root, assignment, due_text, late_text="none", out=None):
    """Set ``assignment``'s due date and late policy: in ``deadlines.json``, in the gradebook (nbgrader's
    duedate), in Canvas-flagged submissions' times, and in the penalty of every graded submission; say so."""
    root = Path(root).resolve()
    due, policy = parse_due(due_text), Policy.parse(late_text)
    stored = {name: {"due": d.isoformat(), "late": str(p)} for name, (d, p) in of_course(root).items()}
    stored[assignment] = {"due": due.isoformat(), "late": str(policy)}
    (root / FILE).write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    _wire(root)
    api = nbgraderapp.api(root)
    with nbgraderapp.gradebook(api.coursedir) as gradebook:
        gradebook.update_or_create_assignment(assignment, duedate=due)
        _restamp_canvas(root, gradebook, assignment, due)
        count = _penalise_again(gradebook, assignment, policy)
    language = nbgraderapp.course_language(root)
    if out:
        print(say(DUE_SET, language, assignment=assignment, due=shown(due), policy=policy.said(language)), file=out)
        if count:
            print(say(PENALTIES_SET, language, count=count), file=out)
    return due, policy


def shown(due):
    """A due date as the instructor reads it: ``2026-12-01 23:59 +08:00``."""
    return f"{due:%Y-%m-%d %H:%M} {due.isoformat()[-6:] if due.utcoffset() else 'UTC'}"


def _wire(root):
    """Make sure the course's nbgrader_config.py asks ``LatePolicy`` for penalties (a root made before it did)."""
    if nbgraderapp.config(root).AssignLatePenalties.get("plugin_class") is not LatePolicy:
        with open(Path(root) / nbgraderapp.CONFIG_FILE, "a") as config:
            config.write(WIRING)


def configure(c):
    """Have autograde ask ``LatePolicy`` for each late notebook's penalty (in nbgrader_config.py)."""
    c.AssignLatePenalties.plugin_class = LatePolicy


class LatePolicy(LateSubmissionPlugin):
    """nbgrader's late-submission plugin, with the chapter's own policy from ``deadlines.json``."""

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        root = CourseDirectory(parent=self).root
        _, policy = of_course(root).get(self.parent.assignment_id, (None, Policy()))
        return policy.penalty(score, total_seconds_late)


def _penalise_again(gradebook, assignment, policy):
    """Set the penalty of every graded notebook of ``assignment`` under ``policy``; how many submissions."""
    submissions = gradebook.find_assignment(assignment).submissions
    for submission in submissions:
        for notebook in submission.notebooks:
            late = submission.total_seconds_late
            notebook.late_submission_penalty = policy.penalty(notebook.score, late) if late > 0 else None
    gradebook.db.commit()
    return len(submissions)


def _restamp_canvas(root, gradebook, assignment, due):
    """Give each Canvas-flagged submission of ``assignment`` the time one second after ``due``."""
    time = _canvas_time(due)
    for flag in sorted(Path(root).glob(f"submitted/*/{assignment}/{CANVAS_FLAG}")):
        (flag.parent / TIMESTAMP).write_text(time.isoformat())
        try:
            gradebook.find_submission(assignment, flag.parent.parent.name).timestamp = time.astimezone(
                timezone.utc).replace(tzinfo=None)
        except MissingEntry:
            pass


def _canvas_time(due):
    return due + timedelta(seconds=1)


def times_of(root, assignment, collected, worksheet=None):
    """{student: when submitted} of an LMS download (``lms.read``'s ``collected``), read before anything is
    unpacked: a datetime (Moodle), ``CANVAS_FLAG`` (Canvas marked it late), absent when the download says
    nothing. A time that cannot be read is refused, in one sentence."""
    due = of_course(root).get(assignment, (None,))[0]
    cells = _moodle_times(worksheet) if worksheet else {}
    times = {}
    for student, entries in collected.students.items():
        if any(entry.late for entry in entries):
            times[student] = CANVAS_FLAG
        moodle = [cells[e.lms_id] for e in entries if e.lms == "Moodle" and cells.get(e.lms_id, "") not in MOODLE_NONE]
        if moodle:
            times[student] = parse_moodle_time(moodle[0], due.tzinfo if due else None, worksheet,
                                               entries[0].who())
    return times


def _moodle_times(worksheet):
    """{participant id: its "Last modified (submission)" cell} of a Moodle worksheet (none if it lacks them)."""
    return {row["Identifier"].removeprefix("Participant").strip(): (row.get(MOODLE_TIME) or "").strip()
            for row in rows(worksheet)}


def parse_moodle_time(text, zone, file="", who=""):
    """A Moodle worksheet's time (English or Chinese) as an aware datetime in ``zone`` (None: this machine's)."""
    english, chinese = MOODLE_EN.fullmatch(text.strip()), MOODLE_ZH.fullmatch(text.strip())
    found = english or chinese
    try:
        month = (MONTHS.index(found["month"].lower()) + 1) if english else int(found["month"])
        hour = int(found["hour"])
        if english and found["ampm"]:
            if not 1 <= hour <= 12:
                raise ValueError(hour)
            hour = hour % 12 + (12 if found["ampm"].lower() == "pm" else 0)
        naive = datetime(int(found["year"]), month, int(found["day"]), hour, int(found["minute"]))
    except (TypeError, ValueError):  # no match (found is None), an unknown month, a day or an hour out of range
        raise Refused(BAD_MOODLE_TIME, file=file, column=MOODLE_TIME, who=who, given=text) from None
    return naive.replace(tzinfo=zone) if zone else naive.astimezone()


def stamp(root, assignment, times, students):
    """Write the times of ``times`` beside each unpacked submission of ``students`` (as nbgrader's exchange
    would): Canvas's flag as ``late.txt``, with a time if the chapter has a due date."""
    due = of_course(root).get(assignment, (None,))[0]
    for student in students:
        folder, time = Path(root) / "submitted" / student / assignment, times.get(student)
        if time == CANVAS_FLAG:
            (folder / CANVAS_FLAG).write_text("Canvas marks this upload late, and gives no time\n")
            time = _canvas_time(due) if due else None
        if time:
            (folder / TIMESTAMP).write_text(time.isoformat())


def notes(root, submission, language):
    """The sentence about a graded ``submission``'s lateness (nbgrader's SubmittedAssignment), or none."""
    late = submission.total_seconds_late
    if late <= 0:
        return []
    due, policy = of_course(root).get(submission.assignment.name, (None, Policy()))
    due = due or submission.duedate.replace(tzinfo=timezone.utc)
    flagged = (Path(root) / "submitted" / submission.student.id / submission.assignment.name / CANVAS_FLAG).exists()
    when = (say(CANVAS_LATE, language, due=shown(due)) if flagged else
            say(LATE_BY, language, late=duration(late, language), due=shown(due)))
    penalty = submission.late_submission_penalty
    return [say(COSTS[policy.kind], language, when=when, penalty=penalty, max_score=submission.max_score,
                score=max(0.0, submission.score - penalty))]


def notes_of(coursedir, ids, language):
    """``notes`` of the submission a feedback page is for (``ids``: nbgrader's resources, with its student and
    assignment), from the course's gradebook (none if it has no such submission)."""
    with nbgraderapp.gradebook(coursedir) as gradebook:
        try:
            return notes(coursedir.root, gradebook.find_submission(ids["assignment"], ids["student"]), language)
        except MissingEntry:
            return []


def duration(seconds, language):
    """``seconds`` as days, hours and minutes (seconds only under a minute): ``1 d 2 h 5 min``."""
    seconds = int(seconds)
    parts = [(seconds // DAY, UNITS[0]), (seconds % DAY // 3600, UNITS[1]), (seconds % 3600 // 60, UNITS[2])]
    said = [say(unit, language, n=n) for n, unit in parts if n]
    return " ".join(said) or say(UNITS[3], language, n=seconds)


def refused(root):
    """{(assignment, student)} of the late submissions a ``refuse`` policy leaves without a grade."""
    refusing = [name for name, (_, policy) in of_course(root).items() if policy.kind == "refuse"]
    if not refusing:
        return set()
    with nbgraderapp.gradebook(nbgraderapp.api(root).coursedir) as gradebook:
        return {(name, submission.student.id) for name in refusing for submission in _submissions(gradebook, name)
                if submission.total_seconds_late > 0}


def _submissions(gradebook, assignment):
    try:
        return gradebook.find_assignment(assignment).submissions
    except MissingEntry:
        return []


def said_refused(refused, language):
    """The export's lines naming, per assignment, the late submissions left without a grade (``refused``)."""
    return [say(REFUSED, language, assignment=name, students=", ".join(sorted(s for a, s in refused if a == name)))
            for name in sorted({name for name, _ in refused})]
