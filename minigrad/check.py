"""``minigrad.check("1.2")``: run one exercise step's checks and say what happened.

The checks run in a fresh Python process that imports minigrad from the same folder
as this one, so they always see the files as they are on disk now (not the copy this
kernel imported before your last edit). That process only reports what your code
returned, as plain data in a file; the verdict is taken here, by comparing it with the
reference solution's results (``steps/expected.json``), in the notebook's language.
"""
import json
import os
import subprocess
import sys
import tempfile


from . import practice
from .messages import N_, language, say
from .steps import expected_observations, loop_causes
from .steps.ids import chapter_of, is_challenge, order
from .steps.answers import GRADED, is_right
from .steps.judge import judge

TIMEOUT = N_("✗ Step {step}: the checks did not finish in {seconds} s (an endless loop?)")
LOOPED = N_("✗ Step {step}: the checks were stopped after {seconds} s, and an honest one takes under a second: "
            "your code runs a loop that never ends.")
USUAL_LOOPS = N_("The usual causes at this step:")
STEP_SECONDS = 15  # one step's checks, from a fresh interpreter: under a second when the code is right
CRASHED = N_("✗ Step {step}: the checks could not run:\n{tail}")
UNANSWERED = N_("question {question} is not answered yet: set the variable above and run both cells again.")
WRONG_ANSWER = N_("✗ {question}: {answer} is not the answer. Read the section again and retry.")
RIGHT_ANSWER = N_("✓ {question}: right.")
NO_QUESTION = N_("There is no practice question {question}. The questions are: {questions}.")
WRONG_KIND = N_("✗ {question}: the answer is {kind}, and {answer} is {got}. Write it without quotes if it is "
                "a number or True/False, in quotes if it is text.")
PROGRESS = N_("Progress: {passed} of {total} steps passed, {failing} failing, {todo} not started.")
CHAPTER = N_("chapter {n}:")
NEEDS = N_(" (needs {missing})")
CHALLENGES = N_("optional challenges:")
CHALLENGE_NOT_STARTED = N_("· Challenge {step} is optional and not started yet; nothing is graded here. Take it when "
                           "you want more: minigrad.hint(\"{step}\") gives a first idea.")
FAILING = N_("Failing: {steps}. Run minigrad.check(\"{first}\") to see why.")
MARKS = {"passed": "✓", "failed": "✗", "not_implemented": "·"}
JUDGED_AT_GRADING = N_("✓ {question}: your answer is recorded; your instructor's grading judges it.")
MAX_REPORT = 4 << 20  # bytes of observations read back: far more than any step writes


class StepNotImplemented(NotImplementedError):
    """A step (or a step it builds on) is still a stub."""


class CheckFailed(AssertionError):
    """A step runs but gives a wrong answer."""


def check(step, *, timeout=STEP_SECONDS):
    """Run the checks of ``step`` ("1.2", or the number 1.2) in a fresh interpreter; raise if they fail.

    A step whose checks outlive ``timeout`` is stopped and named as a loop that never ends, with the usual
    mistakes that cause one at that step."""
    step = str(step)
    try:
        seen = _observe(step, timeout).get("0", {})
    except _Stopped as stopped:
        if stopped.template == TIMEOUT:
            raise CheckFailed(_looped(step, timeout)) from None
        raise CheckFailed(stopped.message(step)) from None
    verdict = judge(step, seen, expected_observations().get(step, {}), language())
    if verdict["status"] == "passed":
        print(verdict["message"])
        return None
    if verdict["status"] == "not_implemented" and is_challenge(step):
        print(say(CHALLENGE_NOT_STARTED, step=step))  # optional: "Run all" goes on past it
        return None
    error = StepNotImplemented if verdict["status"] == "not_implemented" else CheckFailed
    raise error(verdict["message"]) from None


def _looped(step, seconds):
    """What a learner reads when the checks of ``step`` ran out of time."""
    causes = loop_causes(step)
    lines = [say(LOOPED, step=step, seconds=seconds)]
    if causes:
        lines += [say(USUAL_LOOPS)] + [f"- {say(cause)}" for cause in causes]
    return "\n".join(lines)


def progress(*, timeout=120):
    """Print every step of the course as passed, failing or not started (one fresh process for all)."""
    expected = expected_observations()
    try:
        seen = _observe("all", timeout)
    except _Stopped as stopped:  # named as the span of steps: "✗ Step 1.1–6.3: ..."
        steps = sorted(expected, key=order)
        print(stopped.message(f"{steps[0]}–{steps[-1]}"))
        return
    verdicts = {step: judge(step, seen.get(step, {}), expected[step], language()) for step in sorted(expected, key=order)}
    print(progress_report(verdicts))


def progress_report(verdicts):
    """The learner's view of ``verdicts`` (step -> judge's verdict): a count, then a line per chapter, then the
    optional challenges (counted apart: the course is done without them)."""
    counts, chapters, challenges = {"passed": 0, "failed": 0, "not_implemented": 0}, {}, []
    for step, verdict in verdicts.items():
        status = verdict["status"]
        missing = verdict.get("missing", step)
        mark = MARKS[status] + " " + step + (say(NEEDS, missing=missing) if missing != step else "")
        if is_challenge(step):
            challenges.append(mark)
            continue
        counts[status] += 1
        chapters.setdefault(chapter_of(step), []).append(mark)
    lines = [say(PROGRESS, passed=counts["passed"], total=sum(counts.values()), failing=counts["failed"],
                 todo=counts["not_implemented"])]
    lines += [say(CHAPTER, n=n) + "   " + "   ".join(marks) for n, marks in chapters.items()]
    if challenges:
        lines.append(say(CHALLENGES) + "   " + "   ".join(challenges))
    failing = [step for step, verdict in verdicts.items() if verdict["status"] == "failed"]
    if failing:
        lines.append(say(FAILING, steps=", ".join(failing), first=failing[0]))
    return "\n".join(lines)


class _Stopped(Exception):
    """The checking process did not give its report: it ran out of time, or died."""

    def __init__(self, template, **fields):
        self.template, self.fields = template, fields

    def message(self, step):
        return say(self.template, step=step, **self.fields)


def _observe(step, timeout):
    """The report of the checks of ``step`` ("all": every step) on the package on disk, from a fresh process."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "seen.json")
        command = [sys.executable, "-m", "minigrad.steps", "observe", step, "--out", report]
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, cwd=package_root)
        except subprocess.TimeoutExpired:
            raise _Stopped(TIMEOUT, seconds=timeout) from None
        if not os.path.exists(report) or os.path.getsize(report) > MAX_REPORT:
            raise _Stopped(CRASHED, tail="\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])) from None
        with open(report) as file:
            return json.load(file)


def check_answer(question, answer):
    """Check the answer to a practice question ("q3.1"); raise if it is missing, of the wrong kind, or wrong."""
    if question not in practice.QUESTIONS:
        raise CheckFailed(say(NO_QUESTION, question=question, questions=", ".join(practice.QUESTIONS))) from None
    if answer is None:
        raise StepNotImplemented(say(UNANSWERED, question=question)) from None
    wanted, got = practice.QUESTIONS[question], practice.kind_of(answer)
    if got != wanted:
        raise CheckFailed(say(WRONG_KIND, question=question, answer=repr(answer), kind=say(practice.KINDS[wanted]),
                              got=say(practice.KINDS[got]) if got else type(answer).__name__)) from None
    if GRADED:
        print(say(JUDGED_AT_GRADING, question=question))
        return
    if not is_right(question, answer):
        message = say(WRONG_ANSWER, question=question, answer=repr(answer))
        explanation = practice.misconception(question, answer)
        raise CheckFailed(message if explanation is None else f"{message}\n{explanation}") from None
    print(say(RIGHT_ANSWER, question=question))
