"""A small chapter-2 class graded by ``classwide.autograde``, for the class report and the feedback page.

Two students, each doing what the report and the page must show (step 2.1's graded cell has a hidden test):

- ``mistaken`` solved the whole chapter and answered the practice questions, but their ready queue is
  first in, first out: step 2.3's checks name that mistake (``chapter2.FIFO``);
- ``tamperer`` solved steps 2.1 and 2.2, edited step 2.1's graded cell into a forged "passed", deleted
  step 2.2's, forged the output of the challenge's check cell (``minigrad.check("C2")``, not locked),
  and wrote a step 2.3 that raises, which a cell of their own calls: a traceback through their package.
"""
import io
import json
from pathlib import Path
from types import SimpleNamespace

from support.once import once
from support.submissions import (ASSIGNMENT, HONEST, add_cell, add_hidden_test, answer_cells, edit_notebook,
                                 hand_in, replace_stub)
from tools import classroom, classwide

FORGED = 'print("✓ step C2: every check passed")'
RAISES = 'raise ValueError("my ready queue is broken")'


def tamper(notebook):
    for cell in notebook.cells:
        if cell.source.strip() == 'minigrad.check("2.1")':
            cell.source = 'print("✓ Step 2.1 passed (4 checks).")'
        elif cell.source.strip() == 'minigrad.check("C2")':
            cell.source = FORGED
    notebook.cells = [cell for cell in notebook.cells if cell.source.strip() != 'minigrad.check("2.2")']


def grade_the_class(folder):
    root, work = folder / "course", folder / "work"
    classroom.init(root, "en")
    add_hidden_test(root)  # the gradebook's step 2.1 holds it, the release not: an unchanged cell is not "edited"
    classroom.release(root, ASSIGNMENT, out=io.StringIO())
    key = answer_cells(root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    mistaken = hand_in(root, "mistaken", HONEST["reference"], work, answers=key)
    engine = mistaken / "minigrad" / "autograd" / "engine.py"
    solved = engine.read_text()
    assert "(-node._seq, self._pushed, node)" in solved
    engine.write_text(solved.replace("(-node._seq, self._pushed, node)", "(self._pushed, 0, node)"))
    tamperer = hand_in(root, "tamperer", HONEST["partial"], work)
    edit_notebook(tamperer, tamper)
    replace_stub(tamperer, "2.3", RAISES)
    add_cell(tamperer, "from minigrad.autograd.engine import ReadyQueue\nReadyQueue().push(None)")
    summary = io.StringIO()
    results = classwide.autograde(root, ASSIGNMENT, jobs=2, out=summary)
    classwide.feedback(root, ASSIGNMENT, jobs=2, out=io.StringIO())
    facts = {"summary": summary.getvalue(), "seconds": {r.student: r.seconds for r in results}}
    (folder / "facts.json").write_text(json.dumps(facts))


def graded(tmp_path_factory):
    folder = once(tmp_path_factory, "mistaken-class", grade_the_class)
    return SimpleNamespace(root=folder / "course", **json.loads((folder / "facts.json").read_text()))


def page(root, student):
    return (Path(root) / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
