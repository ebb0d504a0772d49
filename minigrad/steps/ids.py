"""Step IDs: how the course names its exercises, in one place for the package, the build, the grader and the tests.

- A step is ``<chapter>.<number>``: ``"2.3"``.
- A chapter's optional challenge is ``C<chapter>``: ``"C2"``. It is checked like a step, sorts after its
  chapter's steps, and is never graded.
- A question, answered in a notebook cell as ``answer_q3_1``, is ``q<chapter>.<number>``: ``"q3.1"``.

Every stub names its step in the same words (``stub_marker``), raising or quiet, so a check, a notebook
cell and the grader can all tell which step an unwritten body belongs to.
"""
import re

STEP = r"(?:\d+\.\d+|C\d+)"  # a step or a challenge, inside a larger pattern
QUESTION = r"q\d+\.\d+"
STUB = re.compile(rf"step ({STEP}): your code goes here")
CHALLENGE = 1000  # where a challenge sorts among its chapter's steps


def stub_marker(step):
    """The words every stub of ``step`` holds in the learner edition."""
    return f"step {step}: your code goes here"


def stubbed_step(text):
    """The step whose stub ``text`` (an error message, a line of source) names, else None."""
    found = STUB.search(text)
    return found.group(1) if found else None


def is_challenge(step):
    """``"C2"``: chapter 2's optional challenge."""
    return step.startswith("C")


def order(step):
    """Where a step sorts: ``"2.10"`` after ``"2.9"``, and ``"C2"`` after every step of chapter 2."""
    if is_challenge(step):
        return int(step[1:]), CHALLENGE
    chapter, number = step.split(".")
    return int(chapter), int(number)


def chapter_of(step):
    """``"2.3"`` and ``"C2"`` belong to chapter 2."""
    return order(step)[0]
