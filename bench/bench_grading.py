"""Time autograding one class both ways, and print the figures.

    .venv/bin/python bench/bench_grading.py [--students 42] [--jobs 3] [--cores 2]

Two identical course roots get the same submissions of chapter 2 (a third complete, a
third half done, a third untouched). One is graded by serial nbgrader, the single command
``nbgrader autograde 02_gradients``; the other by ``python -m tools.classroom autograde
--jobs N``. Both use the same configuration (sandbox, fresh checks), so the difference is the
parallelism and nbgrader's start-up cost paid once per worker rather than per command. The
whole run is pinned to ``--cores`` CPUs; the grades of the two runs must be identical.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.submissions import ASSIGNMENT, HONEST, hand_in  # noqa: E402
from tools import classroom, classwide, nbgraderapp  # noqa: E402


def course(root, students, scratch):
    """A released chapter 2 with ``students`` submissions, cycling through the honest kinds."""
    classroom.init(root, "en")
    classroom.release(root, ASSIGNMENT)
    kinds = sorted(HONEST)
    for number in range(students):
        kind = kinds[number % len(kinds)]
        hand_in(root, f"s{number:02d}_{kind}", HONEST[kind], scratch)


def timed(command, cwd):
    start = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                                                     os.environ["PATH"]])))
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return time.monotonic() - start


def scores(root):
    with nbgraderapp.gradebook(nbgraderapp.api(root).coursedir) as gradebook:
        return {s.student.id: s.score for s in gradebook.assignment_submissions(ASSIGNMENT)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=42)
    parser.add_argument("--jobs", type=int, help="workers of classroom autograde (default: its own, CPUs + 1)")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:args.cores])  # children inherit the pinning
    with tempfile.TemporaryDirectory(prefix="minigrad-bench-") as scratch:
        serial, parallel = Path(scratch) / "serial", Path(scratch) / "parallel"
        for root in (serial, parallel):
            course(root, args.students, Path(scratch) / "work" / root.name)
        load = os.getloadavg()[0]
        serial_s = timed([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT], serial)
        jobs = args.jobs or classwide.default_jobs()
        parallel_s = timed([sys.executable, "-m", "tools.classroom", "autograde", str(parallel), ASSIGNMENT,
                            "--jobs", str(jobs)], ROOT)
        same = scores(serial) == scores(parallel)
    print(f"{args.students} submissions of {ASSIGNMENT}, {len(os.sched_getaffinity(0))} cores, "
          f"load average before {load:.1f}")
    print(f"{'':<36} {'wall':>8} {'per submission':>15}")
    print(f"{'serial nbgrader autograde':<36} {serial_s:7.1f}s {serial_s / args.students:14.2f}s")
    print(f"{f'classroom autograde --jobs {jobs}':<36} {parallel_s:7.1f}s {parallel_s / args.students:14.2f}s")
    print(f"{'speed-up':<36} {serial_s / parallel_s:7.2f}x")
    print(f"{'identical grades':<36} {str(same):>8}")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
