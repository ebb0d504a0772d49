"""Time what a learner waits for: one ``minigrad.check`` and ``minigrad.progress()``.

    PYTHONPATH=solutions python bench/bench_checks.py [--repeat 7]

Both run as in a notebook: minigrad is imported once here (the kernel), and each call
starts the fresh process that runs the checks. Each figure is the best and the median
of several calls, wall-clock time. Targets: one check under 0.5 s, progress() a few seconds.
"""
import argparse
import contextlib
import io
import statistics
import sys
import time

import minigrad
from minigrad import steps

STEPS = ("1.1", "2.3", "4.4", "6.2")  # the lightest check, the engine, freeing memory, hooks


def timed(call, repeat):
    """Best and median wall-clock seconds of ``call()`` over ``repeat`` runs, its output hidden."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            call()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def startup(repeat):
    """The fresh process alone: Python starting and importing minigrad, no check run."""
    import subprocess

    return timed(lambda: subprocess.run([sys.executable, "-c", "import minigrad.steps"], check=True), repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    rows = [("python -c 'import minigrad.steps'", *startup(repeat))]
    rows += [(f'minigrad.check("{step}")', *timed(lambda s=step: minigrad.check(s), repeat)) for step in STEPS]
    rows.append((f"minigrad.progress() ({len(steps.load_all())} steps)", *timed(minigrad.progress, max(3, repeat // 2))))
    print(f"| call | best (s) | median (s) |\n| --- | ---: | ---: |")
    for label, best, median in rows:
        print(f"| `{label}` | {best:.2f} | {median:.2f} |")


if __name__ == "__main__":
    main()
