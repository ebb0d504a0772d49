"""Time grading a whole class as an instructor does it, and check every grade.

    .venv/bin/python bench/bench_class.py [--students 200] [--jobs N] [--cores 2] [--lang en]

One course root gets ``--students`` submissions of chapter 2, made as a real class hands them in:
most complete or partly done (a random number of steps, the practice answers right or left
out), and some broken (a syntax error in a learner file, a corrupt notebook, a step that loops
forever). They are graded by the instructor's command (``python -m tools.classroom autograde``),
pinned to ``--cores`` CPUs with the course's default limits. Printed: the wall time, the time per
submission, the slowest submissions, and whether every grade is the one its submission earns.
The issue's bar: a 200-student chapter within 10 minutes on this 2-core machine.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.submissions import (ASSIGNMENT, EARLIER, MINE, answer_cells, edit_notebook,  # noqa: E402
                                 hand_in, replace_stub)
from bench_grading import scores  # noqa: E402
from tools import classroom  # noqa: E402

LOOP = "while True:\n    pass"
TOLD = re.compile(r"^\[\s*\d+/\s*\d+\] (\S+)\s+(?:ok|FAILED.*) \(([\d.]+) s\)$", re.MULTILINE)


def the_class(students, seed):
    """(student id, what they hand in, the grade it earns) for a class of ``students``: a fixed mix."""
    draw, made = random.Random(seed), []
    for number in range(students):
        kind = draw.choices(["complete", "partial", "syntax", "corrupt", "loops"], [40, 45, 6, 5, 4])[0]
        steps = len(MINE) if kind == "complete" else draw.randrange(len(MINE))
        answered = draw.random() < 0.7
        made.append((f"s{number:03d}_{kind}", kind, steps, answered))
    return made


def hand_in_one(root, scratch, student, kind, steps, answered, key):
    """Hand in one submission; return the grade it earns (None: not predicted, a broken package)."""
    answers = key if answered else None
    folder = hand_in(root, student, EARLIER | set(MINE[:steps]), scratch, answers=answers)
    points = steps + (len(key) if answered else 0)
    if kind == "syntax":
        engine = folder / "minigrad" / "autograd" / "engine.py"
        engine.write_text(engine.read_text() + "\ndef broken(:\n")
        return None
    if kind == "corrupt":
        (folder / f"{ASSIGNMENT}.ipynb").write_text('{"cells": [')
        return float(steps)  # the released notebook stands in: its answers are not given
    if kind == "loops" and steps < len(MINE):
        replace_stub(folder, MINE[steps], LOOP)
    return float(points)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", type=int, help="workers of classroom autograde (default: its own)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:args.cores])  # children inherit the pinning
    with tempfile.TemporaryDirectory(prefix="minigrad-bench-class-") as scratch:
        root = Path(scratch) / "course"
        classroom.init(root, args.lang)
        classroom.release(root, ASSIGNMENT, out=open(os.devnull, "w"))
        source = root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        key = answer_cells(source)
        expected = {student: hand_in_one(root, Path(scratch) / "work", student, kind, steps, answered, key)
                    for student, kind, steps, answered in the_class(args.students, args.seed)}
        command = [sys.executable, "-m", "tools.classroom", "autograde", str(root), ASSIGNMENT]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        load, start = os.getloadavg()[0], time.monotonic()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.monotonic() - start
        got = scores(root)
    wrong = {s: (got.get(s), want) for s, want in expected.items() if want is not None and got.get(s) != want}
    slowest = sorted(((float(t), s) for s, t in TOLD.findall(done.stdout)), reverse=True)[:5]
    print(f"{args.students} submissions of {ASSIGNMENT} ({args.lang}), {args.cores} cores, "
          f"load average before {load:.1f}, exit {done.returncode}")
    print(f"whole class: {seconds:.0f} s ({seconds / args.students:.2f} s per submission)")
    print("slowest: " + ", ".join(f"{s} {t:.0f} s" for t, s in slowest))
    print(f"grades as earned: {len(expected) - len(wrong)} of {len(expected)}"
          + "".join(f"\n  {s}: got {g}, earns {w}" for s, (g, w) in sorted(wrong.items())))
    sys.exit(0 if not wrong else 1)


if __name__ == "__main__":
    main()
