"""A learner's code lives in few short files: each step in one, the stubs before the machinery.

A learner of chapters 1-6 edits at most 15 files, each under 300 lines in either edition; every step's
stubs sit in one file; and a file a learner opens starts with an exercise, not with code they need not read
(its first class or function holds a stub).
"""
import ast
from collections import Counter

import pytest

from conftest import ROOT
from tools import build, editions

LEARNER = ROOT / "minigrad"
FILES = editions.steps_by_file(build.PACKAGE)


def test_a_learner_edits_at_most_15_files():
    assert 0 < len(FILES) <= 15, sorted(FILES)


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
