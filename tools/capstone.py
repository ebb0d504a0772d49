"""Chapter 7's GPT outside its notebook: the chapter's own cells, run by PyTorch or by minigrad.

The cells tagged ``capstone`` in ``solutions/07_capstone/07_capstone.md`` are the whole program: the words, the
model, the batches and the training loop. ``run`` executes them in order with ``torch`` bound to the engine given,
as the notebook does after ``import minigrad as torch``. ``tools.record_capstone`` runs them with PyTorch to
record the losses the chapter compares with; the tests and ``bench/bench_capstone.py`` run them with minigrad.
"""
import contextlib
import io
import math
import os
import time
from pathlib import Path

import jupytext

SOURCE = Path(__file__).resolve().parent.parent / "solutions" / "07_capstone" / "07_capstone.md"
TAG = "capstone"


def cells():
    """The source of each code cell tagged ``capstone``, in order."""
    notebook = jupytext.read(SOURCE, fmt="md:myst")
    return [cell.source for cell in notebook.cells
            if cell.cell_type == "code" and TAG in cell.metadata.get("tags", ())]


def run(torch, language, steps=None):
    """Run the chapter's program with ``torch`` as its engine, on ``language``'s words, for ``steps`` training
    steps (all of them when None); its printed lines are kept, not shown, and the language in effect before is
    restored. Returns the program's variables."""
    import minigrad.capstone
    from minigrad.messages import language as language_now
    before = language_now()
    minigrad.set_language(language)
    namespace = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional, "capstone": minigrad.capstone,
                 "math": math, "time": time, "__name__": "capstone"}
    saved = os.environ.get(minigrad.capstone.STEPS_VARIABLE)
    if steps is not None:
        os.environ[minigrad.capstone.STEPS_VARIABLE] = str(steps)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            for source in cells():
                exec(compile(source, str(SOURCE), "exec"), namespace)
    finally:
        minigrad.set_language(before)
        if saved is None:
            os.environ.pop(minigrad.capstone.STEPS_VARIABLE, None)
        else:
            os.environ[minigrad.capstone.STEPS_VARIABLE] = saved
    namespace["printed"] = printed.getvalue()
    return namespace
