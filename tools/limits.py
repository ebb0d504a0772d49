"""Every limit that grading puts on a submission, in one place.

A course sets them in its ``nbgrader_config.py`` (``c.Limits.cell_seconds = 60``). Each wait
of the grader is bounded by one of them: a cell by ``cell_seconds``, the notebook's run by
``notebook_seconds``, one step's checks (or one answer's judgement) by ``checks_seconds``, and
everything done for one submission by ``submission_seconds``. Above the grading workers a
watchdog kills and replaces a worker still busy with one submission ``grace_seconds`` after
its ``submission_seconds``: what no other deadline caught ends there. ``python -m tools.limits
[ROOT]`` prints the table in force (the course root's, or the defaults); with ``--students N``, also
how long grading a class of N takes (``projection``).
"""
import argparse
import math
import os
import sys

from traitlets import Integer
from traitlets.config import Configurable

from . import nbgraderapp
from .instructor_messages import N_, Refused, languages, say

# name -> what it bounds (a message of the instructor's catalogue), in the order of the table.
MEANINGS = {
    "cell_seconds": N_("wall time of one notebook cell"),
    "notebook_seconds": N_("wall time of a notebook's whole run"),
    "checks_seconds": N_("wall time of one step's checks (or one answer's judgement)"),
    "submission_seconds": N_("wall time of everything done for one submission"),
    "grace_seconds": N_("beyond that, until the watchdog kills the worker"),
    "cpu_seconds": N_("CPU time of one sandboxed process"),
    "memory_mb": N_("address space of one sandboxed process (MiB)"),
    "processes": N_("processes and threads at once (grader as root)"),
    "file_mb": N_("largest file a sandboxed process writes (MiB)"),
    "output_mb": N_("what a notebook, or one step's checks, may print (MiB)"),
    "message_mb": N_("largest message the grader takes from a kernel (MiB)"),
}


def _help(name):
    return " / ".join(say(MEANINGS[name], language) for language in languages())


class Limits(Configurable):
    """The limits in force (see the module's docstring; each trait's help says what it bounds)."""

    cell_seconds = Integer(60, help=_help("cell_seconds")).tag(config=True)
    notebook_seconds = Integer(300, help=_help("notebook_seconds")).tag(config=True)
    checks_seconds = Integer(60, help=_help("checks_seconds")).tag(config=True)
    submission_seconds = Integer(900, help=_help("submission_seconds")).tag(config=True)
    grace_seconds = Integer(30, help=_help("grace_seconds")).tag(config=True)
    cpu_seconds = Integer(60, help=_help("cpu_seconds")).tag(config=True)
    memory_mb = Integer(2048, help=_help("memory_mb")).tag(config=True)
    processes = Integer(64, help=_help("processes")).tag(config=True)
    file_mb = Integer(64, help=_help("file_mb")).tag(config=True)
    output_mb = Integer(8, help=_help("output_mb")).tag(config=True)
    message_mb = Integer(8, help=_help("message_mb")).tag(config=True)

    def watchdog_seconds(self):
        """How long a worker may spend on one submission before the watchdog kills it."""
        return self.submission_seconds + self.grace_seconds

    def table(self, language="en"):
        """The limits as a plain-text table, in ``language``."""
        rows = [(f"c.Limits.{name}", str(getattr(self, name)), say(meaning, language))
                for name, meaning in MEANINGS.items()]
        width = max(len(name) for name, _, _ in rows)
        return "\n".join(f"{name:<{width}}  {value:>5}  {meaning}" for name, value, meaning in rows)


# Cores' seconds one submission of a class takes, graded by ``classroom autograde`` with its default workers:
# ``bench/bench_class.py`` (200 students of chapter 2, the mix of a real class), on the project's 2-core
# machine; bench/README.md keeps the run.
CORE_SECONDS_PER_SUBMISSION = 2 * 568 / 200
PROJECTION = N_("{students} submissions: about {minutes} min on {cores} cores ({each:.1f} s of a core each, as "
                "measured in bench/README.md); a submission whose step stalls adds up to {checks} s, and none "
                "takes more than {watchdog} s.")


def projection(limits, students, cores, language="en"):
    """How long grading ``students`` submissions takes on ``cores`` cores, in a sentence: the measured rate of
    a class, and what a stalling submission may add."""
    minutes = math.ceil(students * CORE_SECONDS_PER_SUBMISSION / cores / 60)
    return say(PROJECTION, language, students=students, minutes=minutes, cores=cores,
               each=CORE_SECONDS_PER_SUBMISSION, checks=limits.checks_seconds, watchdog=limits.watchdog_seconds())


def settings():
    """The default limits as lines of an nbgrader_config.py, each saying what it bounds."""
    defaults = Limits()
    return "\n".join(f"c.Limits.{name} = {getattr(defaults, name)}  # {en}" for name, en in MEANINGS.items())


def main(argv=None):
    """Print the limits in force in a course root (its nbgrader_config.py), in the course's language, or the
    defaults."""
    parser = argparse.ArgumentParser(description="The limits grading puts on a submission.")
    parser.add_argument("root", nargs="?", help="a course root (default: show the defaults)")
    parser.add_argument("--lang", choices=languages(), help="default: the course's language (English without ROOT)")
    parser.add_argument("--students", type=int, help="also say how long grading a class of this size takes")
    args = parser.parse_args(argv)
    limits, language = Limits(), args.lang or "en"
    if args.root:
        try:
            nbgraderapp.course_root(args.root)
        except Refused as refused:
            sys.exit(refused.said(language))
        limits, language = of_course(args.root), args.lang or nbgraderapp.course_language(args.root)
    print(limits.table(language))
    if args.students:
        print("\n" + projection(limits, args.students, len(os.sched_getaffinity(0)), language))


def of_course(root):
    """The limits a course root's nbgrader_config.py sets (the defaults for those it leaves out)."""
    return Limits(config=nbgraderapp.config(root))


if __name__ == "__main__":
    main()
