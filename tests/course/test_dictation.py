"""The text explains a step; it does not dictate it.

A step's answer "stands in the text" when one of its lines, or that line's right-hand side
(what is assigned or returned), appears in its chapter's prose, spaces aside. Fewer than a
quarter of each step's lines may: the exercise says what a function must do, why, its
invariants and an example with numbers, and the learner finds the code.
"""
import keyword
import re

import pytest

from minigrad.steps import ids
from tools import build, editions, notebooks

SHORTEST = 6  # characters without spaces: "x = y" says nothing by itself, nor does a bare name ("tensor")
MOST = 0.25


def squeezed(text):
    return re.sub(r"\s+", "", text)


def step_lines():
    """Each step's code lines (no blanks, no comments), gathered over the files that hold its regions."""
    lines = {}
    for path in sorted(build.PACKAGE.rglob("*.py")):
        for step, _, _, body, _ in editions.regions(path.read_text()):
            code = [line.strip() for line in body if line.strip() and not line.strip().startswith("#")]
            lines.setdefault(step, []).extend(code)
    return lines


def prose():
    """Each chapter's markdown, both languages, spaces removed."""
    text = {}
    for source in build.chapter_sources():
        cells = notebooks.read_source(source).cells
        text[int(source.stem[:2])] = squeezed("".join(c.source for c in cells if c.cell_type == "markdown"))
    return text


def parts(line):
    """The line itself and its right-hand side, each worth looking for when long enough. A ``raise`` names
    PyTorch's own error text, which the chapter quotes on purpose: it is not looked for."""
    if line.startswith("raise ") or keyword.iskeyword(line.rstrip(":")):
        return []
    right = re.split(r"(?<![=!<>])=(?!=)|^return\b|^yield\b", line, maxsplit=1)[-1]
    return [p for p in {squeezed(line), squeezed(right)} if len(p) >= SHORTEST and not p.isidentifier()]


def dictated(lines, text):
    return [line for line in lines if any(p in text for p in parts(line))]


LINES, PROSE = step_lines(), prose()


@pytest.mark.parametrize("step", sorted(LINES, key=ids.order))
def test_the_text_does_not_give_the_answer(step):
    found = dictated(LINES[step], PROSE[ids.chapter_of(step)])
    assert len(found) < MOST * len(LINES[step]) or not found, (
        f"step {step}: {len(found)} of its {len(LINES[step])} lines stand in the chapter's text: {found}")


def test_a_line_of_the_text_is_found_and_a_new_one_is_not():
    text = squeezed("Return `grad * other` for `self`.")
    assert dictated(["grad_self = grad * other", "grad_other = grad * self_"], text) == ["grad_self = grad * other"]
