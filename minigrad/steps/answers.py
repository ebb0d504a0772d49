"""The answers to the chapters' practice questions, kept as hashes: the self-study key.

A learner can still test a guess with ``minigrad.check_answer``, but reading this file
does not give the answers away at a glance. A short answer (``2``, ``True``) can be found
from its hash by trying, so a graded class's release holds no key at all (``GRADED``,
written by ``tools.classroom``): there the instructor's grading judges the answers.
``python -m minigrad.steps.answers VALUE`` prints the hash of a new answer.
"""
import hashlib
import sys

GRADED = False  # True in a graded class's release, whose ANSWERS is empty
ANSWERS = {  # question id -> hash of the canonical answer
    "q1.1": "d4735e3a265e16ee",
    "q1.2": "6b51d431df5d7f14",
    "q2.1": "5f9c4ab08cac7457",
    "q2.2": "4e07408562bedb8b",
    "q3.1": "60a33e6cf5151f2d",
    "q3.2": "3cbc87c7681f34db",
    "q3.3": "d4735e3a265e16ee",
    "q4.1": "e7f6c011776e8db7",
    "q4.2": "f3e360d89952f40d",
    "q5.1": "8bafea5ae90d5c47",
    "q5.2": "d4735e3a265e16ee",
    "q5.3": "ef2d127de37b942b",
    "q6.1": "6b86b273ff34fce1",
    "q6.2": "6b51d431df5d7f14",
    "q6.3": "d4735e3a265e16ee",
    "q7.1": "4b227777d4dd1fc6",
    "q7.2": "4a44dc15364204a8",
}


def canonical(answer):
    """One spelling per answer: numbers to 6 significant digits, text stripped, booleans as such."""
    if isinstance(answer, bool):
        return repr(answer)
    if isinstance(answer, (int, float)):
        return f"{float(answer):.6g}"
    if isinstance(answer, (tuple, list)):
        return "(" + ", ".join(canonical(a) for a in answer) + ")"
    return str(answer).strip()


def digest(answer):
    return hashlib.sha256(canonical(answer).encode()).hexdigest()[:16]


def is_right(question, answer):
    return ANSWERS.get(question) == digest(answer)


if __name__ == "__main__":
    print(digest(eval(sys.argv[1])))  # noqa: S307 - the maintainer's own expression
