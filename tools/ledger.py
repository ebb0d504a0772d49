"""Which submissions are graded, and which share of a class a grader takes.

An autograde killed halfway (SIGKILL, a reboot) and started again resumes: a submission whose
grading finished is kept, unless the instructor asks for a regrade or the student has handed in
something else since. The proof that a grading finished is a note written after nbgrader's
autograde returned success, inside the submission's autograded folder (which nbgrader empties
when it starts grading it again), holding a fingerprint of what was graded.

Several graders (machines) sharing one PostgreSQL gradebook split a class by shard: ``1/2`` and
``2/2`` take disjoint halves, decided by each student's id alone, so that neither needs the other's
list of students.
"""
import hashlib
import json
import zlib
from pathlib import Path

NOTE = "graded.json"


def record(root, assignment, student):
    """Note that ``student``'s submission of ``assignment`` is graded, as it stands now."""
    note = Path(root) / "autograded" / student / assignment / NOTE
    note.write_text(json.dumps({"submission": fingerprint(root, assignment, student)}))


def is_graded(root, assignment, student):
    """Whether the submission as it stands now was graded to the end."""
    note = Path(root) / "autograded" / student / assignment / NOTE
    try:
        return json.loads(note.read_text())["submission"] == fingerprint(root, assignment, student)
    except (OSError, ValueError, KeyError, TypeError):
        return False


def fingerprint(root, assignment, student):
    """A hash of every file of the submission, its name and its content."""
    folder = Path(root) / "submitted" / student / assignment
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def parse_shard(text):
    """``"K/N"`` as (K, N), with 1 <= K <= N."""
    try:
        share, shares = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"a shard is K/N, such as 1/2: not {text!r}") from None
    if not 1 <= share <= shares:
        raise ValueError(f"a shard K/N needs 1 <= K <= N: not {text!r}")
    return share, shares


def in_shard(student, shard):
    """Whether ``student`` belongs to ``shard`` ((K, N), or None for the whole class)."""
    if shard is None:
        return True
    share, shares = shard
    return zlib.crc32(student.encode()) % shares == share - 1
