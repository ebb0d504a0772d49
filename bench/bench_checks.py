"""Time what a learner waits for: one ``minigrad.check`` and ``minigrad.progress()``.

    PYTHONPATH=solutions python bench/bench_checks.py [--repeat 7] [--all]

Both run as in a notebook: minigrad is imported once here (the kernel), and each call
starts the fresh process that runs the checks, which caches its compiled modules as Python
does by default (``PYTHONDONTWRITEBYTECODE`` is dropped: without the cache, each check
compiles some 80 modules again, about half a second). Each figure is the best and the median
of several calls, wall-clock time, and the CPU time of the fresh process. Targets: one check
under 0.5 s, progress() a few seconds. ``--all`` times every step and challenge of the course, not only four.
"""
import argparse
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import time

import minigrad
from minigrad import steps
from minigrad.steps import ids

STEPS = ("1.1", "2.3", "4.4", "6.2")  # the lightest check, the engine, freeing memory, hooks


def timed(call, repeat):
    """Best and median wall-clock seconds of ``call()`` over ``repeat`` runs, its output hidden, and the
    best CPU seconds of the processes it started: on a busy machine wall time waits for a core, CPU time
    does not."""
    times, cpu = [], []
    for _ in range(repeat):
        before = _children_cpu()
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            call()
        times.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - before)
    return min(times), statistics.median(times), min(cpu)


def _children_cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def startup(repeat):
    """The fresh process alone: Python starting and importing minigrad, no check run."""
    return timed(lambda: subprocess.run([sys.executable, "-c", "import minigrad.steps"], check=True), repeat)


def main():
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a learner's machine: compiled modules are cached
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--all", action="store_true", help="time every step's check, not only four")
    arguments = parser.parse_args()
    repeat = arguments.repeat
    chosen = sorted(steps.load_all(), key=ids.order) if arguments.all else STEPS
    rows = [("python -c 'import minigrad.steps'", *startup(repeat))]
    rows += [(f'minigrad.check("{step}")', *timed(lambda s=step: minigrad.check(s), repeat)) for step in chosen]
    rows.append((f"minigrad.progress() ({len(steps.load_all())} steps)", *timed(minigrad.progress, max(3, repeat // 2))))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| call | best (s) | median (s) | CPU of the fresh process (s) |\n| --- | ---: | ---: | ---: |")
    for label, best, median, cpu in rows:
        print(f"| `{label}` | {best:.2f} | {median:.2f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
