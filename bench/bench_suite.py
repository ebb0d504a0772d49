"""How long the fast tests take: ``make core``, timed on this machine, for README.md.

    .venv/bin/python bench/bench_suite.py

Runs ``make core`` once (the environment already installed) and writes its wall time, with the day and
the machine, to ``bench/results/suite.json``; ``make build`` puts it in README.md. Run it on an idle
machine: the time is the machine's as much as the suite's.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAVED = ROOT / "bench" / "results" / "suite.json"


def main():
    start = time.perf_counter()
    done = subprocess.run(["make", "core"], cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"make core failed (exit {done.returncode}): no time recorded")
    run = {"date": time.strftime("%Y-%m-%d"), "cores": len(os.sched_getaffinity(0)), "make core": round(seconds, 1)}
    SAVED.parent.mkdir(exist_ok=True)
    SAVED.write_text(json.dumps(run, indent=1) + "\n")
    print(f"make core: {seconds:.0f} s; written to {SAVED.relative_to(ROOT)}; run `make build` to put it in README.md")


if __name__ == "__main__":
    main()
