"""How the course's errors look in a notebook: one sentence in the learner's language.

A check that fails, or a cell that reaches a step not written yet, is the learner's
next task, not a crash: IPython shows it as its message alone, without a traceback
through the checker or the package. The cell still fails (nbgrader counts it as failed);
any other error keeps its full traceback.
"""
import sys

from .check import CheckFailed, StepNotImplemented
from .messages import N_, say
from .steps.ids import stubbed_step

NOT_WRITTEN_YET = N_(
    "Step {step} is not written yet, and this cell needs it: write it in the minigrad package (find the line "
    "marked \"step {step}\"), save the file, restart the kernel and run the cell again."
)


def show_as_sentences(shell):
    """Make ``shell`` (IPython's) show check verdicts and unwritten steps as sentences."""
    shell.set_custom_exc((CheckFailed, NotImplementedError), _sentence)


def _sentence(shell, etype, value, tb, tb_offset=None):
    """Show one of the course's errors as its sentence (IPython's error output, with that sentence
    as its whole traceback); show any other error as usual."""
    stubbed = stubbed_step(str(value))
    if issubclass(etype, (CheckFailed, StepNotImplemented)):
        shell._showtraceback(etype, value, [str(value)])
    elif stubbed is not None:
        shell._showtraceback(etype, value, [say(NOT_WRITTEN_YET, step=stubbed)])
    else:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def show_as_sentences_in_ipython():
    """Inside a notebook (IPython already loaded and running), show the course's errors as sentences."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        show_as_sentences(shell)
