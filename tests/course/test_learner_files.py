"""A learner's code lives in few short files: each step in one, the stubs before the machinery.

A learner of chapters 1-6 edits at most 15 files; the optional capstone, chapter 7, is counted apart and adds
only ``rules/chapter7.py``. Each file is under 300 lines in either edition; every step's stubs sit in one file;
and a file a learner opens starts with an exercise, not with code they need not read (its first class or
function holds a stub).
"""
import ast
from collections import Counter

import pytest

from conftest import ROOT
from tools import build, editions

LEARNER = ROOT / "minigrad"
FILES = editions.steps_by_file(build.PACKAGE)


CAPSTONE = 7  # the optional chapter: its files are counted apart from those of chapters 1-6
MOST_FILES = 15


def files_of(files, chapters):
    """The files holding a step of one of ``chapters``."""
    return sorted(name for name, held in files.items() if any(editions.ids.chapter_of(s) in chapters for s in held))


def too_many(files):
    """The files of chapters 1-6 when there are more than ``MOST_FILES`` of them (or none), else None."""
    core = files_of(files, range(1, CAPSTONE))
    return None if 0 < len(core) <= MOST_FILES else core


def test_a_learner_of_chapters_1_to_6_edits_at_most_15_files():
    assert too_many(FILES) is None


def test_the_capstone_adds_one_file_of_its_own():
    assert files_of(FILES, {CAPSTONE}) == ["rules/chapter7.py"]
    assert "rules/chapter7.py" not in files_of(FILES, range(1, CAPSTONE))


def test_a_sixteenth_file_of_chapters_1_to_6_is_too_many():
    """The count can fail: a file more for chapter 6 is refused, one more for chapter 7 is not counted."""
    planted = dict(FILES, **{f"planted{n}.py": ["6.1"] for n in range(MOST_FILES + 1 - len(files_of(FILES, range(1, CAPSTONE))))})
    assert too_many(planted) is not None
    assert too_many(dict(FILES, **{"planted.py": ["7.1"]})) is None


def test_each_step_is_written_in_one_file():
    places = Counter(step for steps in FILES.values() for step in steps)
    assert {step for step, count in places.items() if count > 1} == set()
    assert set(places) == set(editions.steps_in(build.PACKAGE))


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_a_learner_edits_is_under_300_lines(name):
    for package in (build.PACKAGE, LEARNER):
        assert len((package / name).read_text().splitlines()) < 300, package / name


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_file_a_learner_edits_opens_with_an_exercise(name):
    text = (LEARNER / name).read_text()
    first = next(node for node in ast.parse(text).body if isinstance(node, (ast.FunctionDef, ast.ClassDef)))
    body = "\n".join(text.splitlines()[first.lineno - 1:first.end_lineno])
    assert any(editions.ids.stub_marker(step) in body for step in FILES[name]), (name, first.name)
