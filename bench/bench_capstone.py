"""Chapter 7's full training, in each language: how long minigrad takes and the loss it reaches.

    PYTHONPATH=solutions:. .venv/bin/python bench/bench_capstone.py [--save] [--language en]

Runs the chapter's own cells (``tools/capstone.py``) with the reference minigrad for all their steps, and
prints the time, the last training loss and the validation loss beside PyTorch's recorded run
(``solutions/minigrad/capstone_losses.json``). ``--save`` keeps the run in ``bench/results/capstone.json``.
The tests train for 20 steps only; this is the run the chapter promises ("about two minutes").
"""
import argparse
import json
import os
import time
from pathlib import Path

import minigrad
from minigrad import capstone as course
from tools import capstone

SAVED = Path(__file__).resolve().parent / "results" / "capstone.json"


def measure(language):
    start = time.perf_counter()
    program = capstone.run(minigrad, language)
    seconds = time.perf_counter() - start
    pytorch = course.recorded(language)
    return {"seconds": round(seconds, 1), "steps": program["steps"], "final": round(program["losses"][-1], 4),
            "validation": round(program["val_loss"], 4), "pytorch final": round(pytorch["final"], 4),
            "pytorch validation": round(pytorch["validation"], 4)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", choices=("en", "zh"), action="append", help="one language (default: both)")
    parser.add_argument("--save", action="store_true", help="keep the run in bench/results/capstone.json")
    arguments = parser.parse_args()
    runs = {}
    for language in arguments.language or ("en", "zh"):
        runs[language] = measure(language)
        print(language, runs[language], flush=True)
    if arguments.save:
        saved = {"date": time.strftime("%Y-%m-%d"), "cores": len(os.sched_getaffinity(0)), **runs}
        SAVED.write_text(json.dumps(saved, indent=1) + "\n")
        print(f"written to {SAVED}")


if __name__ == "__main__":
    main()
