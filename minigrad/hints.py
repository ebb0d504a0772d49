"""``minigrad.hint("2.3")``: help for a stuck learner, one rung at a time.

Each step has up to three hints, from least to most telling: the idea, then the shape
of the algorithm, then pseudocode. Never the code itself: the learner still writes every
line. Each call shows the next hint of that step, so a learner who needs one idea reads
only that one. The hints are catalogue messages, shown in the learner's language.
"""
from .messages import N_, say
from .steps.chapter1 import hints as chapter1
from .steps.chapter2 import hints as chapter2
from .steps.chapter3 import hints as chapter3
from .steps.chapter4 import hints as chapter4
from .steps.chapter5 import hints as chapter5
from .steps.chapter6 import hints as chapter6

# Each chapter's hints live in its folder, beside its checks.
HINTS = {**chapter1.HINTS, **chapter2.HINTS, **chapter3.HINTS, **chapter4.HINTS, **chapter5.HINTS, **chapter6.HINTS}

SHOWN = N_("Hint {n} of {total} for step {step}:\n{hint}")
LAST = N_("(That was the last hint for step {step}: reread it, or the step's text, and try a small example by hand.)")
NO_STEP = N_("There is no step {step}. The steps are: {steps}.")

_given = {}  # step -> how many of its hints this kernel has shown


def hint(step):
    """Print the next hint for ``step`` ("2.3"): the idea first, the pseudocode last."""
    step = str(step)
    if step not in HINTS:
        print(say(NO_STEP, step=step, steps=", ".join(HINTS)))
        return
    hints = HINTS[step]
    n = min(_given.get(step, 0) + 1, len(hints))
    _given[step] = n
    print(say(SHOWN, step=step, n=n, total=len(hints), hint=say(hints[n - 1])))
    if n == len(hints):
        print(say(LAST, step=step))
