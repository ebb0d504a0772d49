"""``minigrad.hint("2.3")``: help for a stuck learner, one rung at a time.

Each step has up to three hints, from least to most telling: the idea, then the shape
of the answer, then the answer in words. Never the code itself: the learner still writes
every line. Each call shows the next hint of that step, so a learner who needs one idea
reads only that one, in their language.

The first hints are catalogue messages, in each chapter's ``hints.py``; the last ones are
sealed (``steps/sealed.py``) in its ``last_hints.dat``, in both languages, so that reading
the package around a stub does not show a step's answer.
"""
from functools import cache

from .messages import N_, say
from .messages import language as current_language
from .steps import HERE as STEPS_FOLDER
from .steps import sealed
from .steps.chapter1 import hints as chapter1
from .steps.chapter2 import hints as chapter2
from .steps.chapter3 import hints as chapter3
from .steps.chapter4 import hints as chapter4
from .steps.chapter5 import hints as chapter5
from .steps.chapter6 import hints as chapter6
from .steps.chapter7 import hints as chapter7

# Each chapter's first hints live in its folder, beside its checks.
HINTS = {**chapter1.HINTS, **chapter2.HINTS, **chapter3.HINTS, **chapter4.HINTS, **chapter5.HINTS, **chapter6.HINTS,
         **chapter7.HINTS}
LAST_HINTS = "last_hints" + sealed.SUFFIX  # in each chapter's folder

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
    hints = ladder(step)
    n = min(_given.get(step, 0) + 1, len(hints))
    _given[step] = n
    print(say(SHOWN, step=step, n=n, total=len(hints), hint=hints[n - 1]))
    if n == len(hints):
        print(say(LAST, step=step))


def ladder(step, language=None):
    """All of ``step``'s hints, least telling first, in ``language`` (the learner's by default)."""
    last = last_hints().get(step)
    return [say(h, language) for h in HINTS[step]] + ([last[language or current_language()]] if last else [])


@cache
def last_hints():
    """Every step's last hint, by step, in both languages: ``{"2.3": {"en": ..., "zh": ...}}``."""
    found = {}
    for path in sorted(STEPS_FOLDER.glob(f"chapter*/{LAST_HINTS}")):
        found.update(sealed.unseal(path.read_text()))
    return found
