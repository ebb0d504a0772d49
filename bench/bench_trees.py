"""Two versions of minigrad side by side: W1 and W2 of ``bench_autograd.py``, run in turns.

A change to the code every operation runs (the recording skeleton, ``Tensor._wrap``) must
not make minigrad slower. Timings on a shared machine drift by a few per cent within
minutes, so one run of each tree proves nothing: this script runs the two trees in
alternating child processes, several rounds, A B B A A B ..., and compares each tree's
fastest child (the least disturbed) and the median child. Each tree is a checkout of the project (a ``git worktree`` of ``main``
next to the working tree, for instance)::

    git worktree add /tmp/main-tree main
    .venv/bin/python bench/bench_trees.py /tmp/main-tree . --rounds 8

It prints one table; a ratio below 1 means the second tree is faster. The children run
numpy's BLAS on one thread: W2's matrix products then wait for no other thread, and its
times drift far less from run to run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# Run in a child whose minigrad is the tree's: the best times of W1 (with grad, and its
# forward under no_grad, the path where nothing is recorded) and W2, as JSON.
CHILD = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import minigrad
from bench_autograd import best_time, chain_of_ops, w1, w2
x = minigrad.ones(4)
with minigrad.no_grad():
    no_grad = best_time(lambda: chain_of_ops(minigrad, x, 1000), 30)
print(json.dumps({**{"W1 " + k: v for k, v in w1(minigrad, 30).items()}, "W1 forward, no_grad": no_grad,
                  "W2 total": w2(minigrad)["total"]}))
"""


def measure(tree):
    """One child's best times for ``tree``, in milliseconds."""
    solutions = Path(tree).resolve() / "solutions"
    child = subprocess.run([sys.executable, "-c", CHILD, str(solutions), str(BENCH)],
                           capture_output=True, text=True, check=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    return {name: seconds * 1000 for name, seconds in json.loads(child.stdout).items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", help="the tree to compare against (main)")
    parser.add_argument("second", help="the tree with the change")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of one child per tree (default 8)")
    args = parser.parse_args()
    runs = {args.first: [], args.second: []}
    for number in range(args.rounds):
        order = (args.first, args.second) if number % 2 == 0 else (args.second, args.first)
        for tree in order:
            runs[tree].append(measure(tree))
    print(f"{args.rounds} rounds, trees in alternating order; each child's best time, in ms\n")
    print(f"| workload | {args.first}: fastest child | {args.second} | ratio | median child | median | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in runs[args.first][0]:
        cells = []
        for summary in (min, statistics.median):
            first = summary(run[name] for run in runs[args.first])
            second = summary(run[name] for run in runs[args.second])
            cells += [f"{first:.2f}", f"{second:.2f}", f"{second / first:.3f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
