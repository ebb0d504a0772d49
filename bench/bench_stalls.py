"""Time a class's autograde with and without students who stall the grader, and print the figures.

    .venv/bin/python bench/bench_stalls.py [--students 12] [--copies 2] [--jobs 4] [--cores 2]

Two course roots get the same honest submissions of chapter 2 (a third complete, a third half
done, a third untouched); the second also gets ``--copies`` of each stalling kind of
``tests/support/stalls.py``. Both are graded by ``python -m tools.classroom autograde --jobs N``
under the small limits of ``stalls.LIMITS`` (the stress test's), pinned to ``--cores`` CPUs. What
the stalling students add is the wait for their limits, shared among the workers; the honest
students' grades must be the same in both runs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support import stalls  # noqa: E402
from support.submissions import ASSIGNMENT, HONEST, hand_in  # noqa: E402
from tools import classroom  # noqa: E402


def course(root, students, copies, scratch):
    """A released chapter 2 with ``students`` honest submissions and ``copies`` of each stalling kind."""
    classroom.init(root, "en")
    stalls.limit(root)
    classroom.release(root, ASSIGNMENT)
    kinds = sorted(HONEST)
    for number in range(students):
        kind = kinds[number % len(kinds)]
        hand_in(root, f"s{number:02d}_{kind}", HONEST[kind], scratch)
    for kind in stalls.KINDS:
        for copy in range(copies):
            kind.attack(hand_in(root, f"{kind.name}_{copy}", HONEST["partial"], scratch), None)


def graded(root, jobs):
    """Wall time of the class's autograde, the slowest submission's time, and the grades of the summary."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT,
                           "--jobs", str(jobs)], cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    slowest = max(float(s) for s in re.findall(r"^\[.*\((\d+\.\d+) s\)$", done.stdout, re.MULTILINE))
    grades = dict(re.findall(r"^  (\S+)\s+([\d.]+/[\d.]+)$", done.stdout, re.MULTILINE))
    return seconds, slowest, grades


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=12, help="honest students")
    parser.add_argument("--copies", type=int, default=2, help="students of each stalling kind")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:args.cores])  # children inherit the pinning
    with tempfile.TemporaryDirectory(prefix="minigrad-bench-") as scratch:
        honest, stalling = Path(scratch) / "honest", Path(scratch) / "stalling"
        course(honest, args.students, 0, Path(scratch) / "work" / "honest")
        course(stalling, args.students, args.copies, Path(scratch) / "work" / "stalling")
        load = os.getloadavg()[0]
        rows = [("honest students only", graded(honest, args.jobs)),
                (f"with {args.copies} of each of {len(stalls.KINDS)} stalling kinds", graded(stalling, args.jobs))]
    stallers = args.copies * len(stalls.KINDS)
    print(f"{args.students} honest students of {ASSIGNMENT}, --jobs {args.jobs}, {len(os.sched_getaffinity(0))} "
          f"cores, load average before {load:.1f}; limits {stalls.LIMITS}")
    print(f"{'':<42} {'wall':>8} {'slowest':>9} {'graded':>7}")
    for name, (seconds, slowest, grades) in rows:
        print(f"{name:<42} {seconds:7.1f}s {slowest:8.1f}s {len(grades):>7}")
    print(f"{'added per stalling student':<42} {(rows[1][1][0] - rows[0][1][0]) / max(stallers, 1):7.1f}s")
    honest_grades = rows[0][1][2]
    same = all(rows[1][1][2].get(student) == grade for student, grade in honest_grades.items())
    complete = len(rows[1][1][2]) == args.students + stallers
    print(f"{'honest grades identical, everyone graded':<42} {str(same and complete):>8}")
    sys.exit(0 if same and complete else 1)


if __name__ == "__main__":
    main()
