"""The checks' command line, run in a fresh process on the package beside it.

    python -m minigrad.steps observe 2.3 --out FILE [--seed 0 --seed 77 ...]
        run step 2.3's checks on this package; write what they saw (plain data) to FILE
    python -m minigrad.steps observe 2.1 2.2 2.3 --out - [--seed 0 ...]
        the checks of each step in turn, in this one process; as each step ends, print a line
        ``{"step": "2.1", "seen": {seed: observations}}`` (the grader reads them)
    python -m minigrad.steps observe all --out FILE
        every step's checks, seed 0, in this one process: ``{step: observations}`` (``progress()``)
    python -m minigrad.steps 2.3 [--lang zh]      (or several steps, 2.1 2.2 2.3, or ``all``)
        observe and judge at once, against the recorded reference (``expected.json``):
        one JSON verdict per step, for the tests and the maintainers
    python -m minigrad.steps record
        print the reference observations (run on the reference edition by ``make build``)
    python -m minigrad.steps agree RECORDED FRESH
        whether two files ``record`` wrote say the same, by the judge's rule (``judge.agree``): exit 1
        naming each step where they differ (``make build``'s staleness check, on the reference edition)

``observe`` is the only command a grade relies on: it reports, and the judging happens
in another process (``minigrad.check``, or the grader), from the file it wrote.
"""
import argparse
import json
from pathlib import Path

from ..messages import languages
from . import expected_observations, load_all, observe_all, observe_step, observe_steps
from .ids import order
from .judge import agree, judge


def disagreeing(recorded, fresh):
    """The steps of two files of observations that differ by the judge's rule, or that one file lacks."""
    return (set(recorded) ^ set(fresh)) | {s for s in recorded if s in fresh and not agree(recorded[s], fresh[s])}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", help='"observe", "record", "agree", a step ("1.2") or "all"')
    parser.add_argument("steps", nargs="*", help="observe: the steps, or all; agree: the two files")
    parser.add_argument("--out", help="observe: the file to write the observations to")
    parser.add_argument("--seed", type=int, action="append", help="observe: a seed for the checks' inputs")
    parser.add_argument("--lang", default="en", choices=languages())
    arguments = parser.parse_args()
    if arguments.command == "observe":
        seeds = arguments.seed or [0]
        if arguments.out == "-":
            for step, seen in observe_steps(arguments.steps, seeds):
                print("\n" + json.dumps({"step": step, "seen": seen}), flush=True)  # a line of its own
            return
        if arguments.steps == ["all"]:
            seen = observe_all()
        elif len(arguments.steps) == 1:
            seen = {str(seed): observe_step(arguments.steps[0], seed) for seed in seeds}
        else:
            parser.error("observe --out FILE takes one step, or all (several steps: --out -)")
        with open(arguments.out, "w") as out:
            json.dump(seen, out)
    elif arguments.command == "agree":
        files = [json.loads(Path(name).read_text()) for name in arguments.steps]
        differing = [disagreeing(recorded, fresh) for recorded, fresh in zip(files[0::2], files[1::2])]
        for differ in differing:  # a line per pair of files
            print(" ".join(sorted(differ, key=order)))
        raise SystemExit(1 if any(differing) else 0)
    elif arguments.command == "record":
        print(json.dumps({step: observe_step(step, 0) for step in sorted(load_all(), key=order)}, indent=1))
    else:
        steps = sorted(load_all(), key=order) if arguments.command == "all" else [arguments.command, *arguments.steps]
        recorded = expected_observations()
        for step in steps:
            verdict = judge(step, observe_step(step, 0), recorded.get(step, {}), arguments.lang)
            print(json.dumps(dict(verdict, step=step), ensure_ascii=False))


if __name__ == "__main__":
    main()
