"""Nothing a learner reads before solving a step gives its answer away.

What a learner reads: the notebooks of both languages, and every text file of the learner edition — the
package around each stub (docstrings, comments, neighbouring code), the first two hints and every message of
the checks, with their Chinese. A step's answer is the expressions listed beside it (``steps/chapterN/guarded.py``)
and the lines of its solution region that compute something; each is searched for with every space removed, so
``grad@mat2.T`` is found however it is spaced. The last hints are sealed (``steps/sealed.py``) and not searched.
"""
import json
import re

import pytest

from conftest import ROOT
from minigrad import steps
from tools import build, editions

STEPS = sorted(steps.load_all(), key=editions.ids.order)
LEARNER = ROOT / "minigrad"
READ = (".py", ".po", ".json")  # the learner edition's text files; .mo and .dat are not read by accident
OPERATOR = re.compile(r"[\w)\]](\*\*|[-+*/@])[\w(]")  # a line that computes something: a binary operator
SHORTEST = 12  # characters, spaces removed: shorter lines (``grad*x``) are too common to mean an answer


def squeezed(text):
    return re.sub(r"\s+", "", text)


def guarded(step):
    """The expressions ``step``'s answer is made of: listed beside it, and taken from its solution region."""
    chapter = editions.ids.chapter_of(step)
    listed = _listed(chapter).get(step, ())
    return {squeezed(e) for e in listed} | set(_computed_lines(step))


def _listed(chapter):
    path = build.PACKAGE / "steps" / f"chapter{chapter}" / "guarded.py"
    namespace = {}
    exec(path.read_text(encoding="utf-8"), namespace)  # noqa: S102 - the project's own data file
    return namespace["GUARDED"]


def _computed_lines(step):
    """The solution's lines for ``step`` that compute something, without ``return`` or the name assigned."""
    for path in sorted(build.PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "BEGIN SOLUTION" not in text:
            continue
        for found, _, _, body, _ in editions.regions(text):
            if found != step:
                continue
            for line in body:
                code = line.split("  #")[0].strip()
                code = re.sub(r"^return\s+", "", code)
                code = re.sub(r"^[\w.,\s\[\]]+\s=\s(?!=)", "", code)
                code = squeezed(code)
                if len(code) >= SHORTEST and OPERATOR.search(code) and not re.search(r"\*(args|kwargs|grads)", code):
                    yield code


def learner_pages():
    """What a learner can read, by name: every text file of the learner edition, and each notebook's cells."""
    pages = {}
    for path in sorted(LEARNER.rglob("*")):
        if path.suffix in READ and "__pycache__" not in path.parts:
            pages[str(path.relative_to(ROOT))] = squeezed(path.read_text(encoding="utf-8"))
    for path in sorted((ROOT / "course").glob("*/*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        pages[str(path.relative_to(ROOT))] = squeezed("\n".join("".join(cell["source"]) for cell in cells))
    return pages


def leaks(pages, expressions):
    """``(expression, page)`` for each expression found on a page."""
    return sorted((e, name) for e in expressions for name, text in pages.items() if e in text)


@pytest.fixture(scope="module")
def pages():
    return learner_pages()


@pytest.mark.parametrize("step", STEPS)
def test_nothing_a_learner_reads_shows_the_answer(step, pages):
    assert leaks(pages, guarded(step)) == []


def test_every_step_guards_its_answer():
    """No step is left without an expression to look for."""
    assert [step for step in STEPS if not guarded(step)] == []


def test_every_step_lists_its_expressions_beside_it():
    """Each chapter's list names exactly that chapter's steps."""
    for chapter in sorted({editions.ids.chapter_of(step) for step in STEPS}):
        assert sorted(_listed(chapter), key=editions.ids.order) == [s for s in STEPS if editions.ids.chapter_of(s) == chapter]


def test_a_formula_planted_in_a_docstring_is_found(pages):
    """2.4's formula written into the docstring above its stub is a leak of 2.4."""
    planted = dict(pages)
    planted["minigrad/rules/chapter2.py"] += squeezed('"""out = self @ mat2: the gradients are grad @ mat2.T and self.T @ grad."""')
    assert leaks(pages, guarded("2.4")) == []
    assert {name for _, name in leaks(planted, guarded("2.4"))} == {"minigrad/rules/chapter2.py"}
