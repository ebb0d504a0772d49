"""What chapter 7's notebook needs besides PyTorch's API: its words, a live loss plot, PyTorch's recorded losses.

The chapter's model and training loop are plain PyTorch code; only these three things are the course's:

- ``words()``: what the model learns to write, in the learner's language: the first names of the US census
  that the ``names`` package ships (English), or the four-character idioms (成语) of the dictionary that
  ``jieba`` ships (its entries tagged ``i``; Chinese). Both packages are MIT-licensed and installed with the
  course.
- ``LossPlot``: the loss curve (``viz.plot_losses``), redrawn in place while the model trains (only in a notebook).
- ``recorded()`` and ``beside()``: the losses PyTorch 2.13 computed for the same program, seed and data
  (``capstone_losses.json``, written by ``python -m tools.record_capstone``), shown beside the learner's. minigrad
  draws PyTorch's random numbers, so the first steps agree to float32 rounding; later ones drift apart, as two
  float32 programs that sum in different orders do.
"""
import json
import os
from importlib.resources import files
from pathlib import Path

from .messages import N_, language, say
from .viz.plot import plot_losses

RECORDED = Path(__file__).resolve().parent / "capstone_losses.json"
STEPS_VARIABLE = "MINIGRAD_CAPSTONE_STEPS"  # a shorter run: the tests set it
TOLERANCE = 1e-4  # the largest relative difference from PyTorch's loss allowed over the compared steps


def words(lang=None):
    """The training words of ``lang`` (the learner's language by default), sorted, each once."""
    if (lang or language()) == "zh":
        entries = (line.split() for line in files("jieba").joinpath("dict.txt").read_text("utf-8").splitlines())
        return sorted({entry[0] for entry in entries if len(entry) == 3 and entry[2] == "i" and len(entry[0]) == 4})
    lists = (files("names").joinpath(name).read_text() for name in ("dist.female.first", "dist.male.first"))
    return sorted({line.split()[0].lower() for text in lists for line in text.splitlines() if line.strip()})


def training_steps(full):
    """``full``, or the shorter count the tests ask for (``MINIGRAD_CAPSTONE_STEPS``)."""
    return int(os.environ.get(STEPS_VARIABLE, full))


class LossPlot:
    """``viz.plot_losses`` drawn again in place every ``every`` losses, while the model trains."""

    def __init__(self, name, every=100):
        self.name, self.every, self.losses = name, every, []
        self._shown = None

    def add(self, loss):
        self.losses.append(loss)
        if len(self.losses) % self.every == 1:
            self.show()

    def show(self):
        from IPython import get_ipython
        if get_ipython() is None:  # a script or a test: nothing to draw on
            return
        from IPython.display import display
        picture = plot_losses(self.losses, self.name)
        if self._shown is None:
            self._shown = display(picture, display_id=True)
        else:
            self._shown.update(picture)


def recorded(lang=None):
    """PyTorch's recorded run for ``lang``: ``{"losses": [the first steps' losses], "steps": its length, "final":
    the last step's loss, "validation": the validation loss after training}``."""
    return json.loads(RECORDED.read_text())[lang or language()]


def beside(losses, lang=None):
    """Print the first steps' losses beside PyTorch's, and say whether they agree within ``TOLERANCE``.
    Returns the largest relative difference (None before any training step)."""
    if not losses:
        print(say(N_("No losses yet: train the model first (section 5).")))
        return None
    theirs = recorded(lang)["losses"][:len(losses)]
    print(f"{say(N_('step')):>6} {'minigrad':>12} {'PyTorch 2.13':>12}")
    worst = 0.0
    for number, (mine, torch_loss) in enumerate(zip(losses, theirs)):
        worst = max(worst, abs(mine - torch_loss) / abs(torch_loss))
        print(f"{number:>6} {mine:>12.6f} {torch_loss:>12.6f}")
    verdict = N_("equal within {tolerance:g}: the largest relative difference is {worst:.1e}.") \
        if worst <= TOLERANCE else N_("not equal: the largest relative difference is {worst:.1e}, above {tolerance:g}.")
    print(say(verdict, tolerance=TOLERANCE, worst=worst))
    run = recorded(lang)
    print(say(N_("PyTorch, after all {steps} steps: training loss {final:.3f}, validation loss {validation:.3f}."),
              **run))
    return worst
