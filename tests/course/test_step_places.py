"""A step lives in one place: its chapter's folder, ``minigrad/steps/chapterN/``.

There sit its checks, its hints, the reference's observations, its named mistakes (in the reference edition
only) and the Chinese of every sentence of the folder. Adding a step touches its chapter's source, its
solution region and that folder.
"""
import importlib
import json

import pytest

from conftest import EDITION
from minigrad import hints, steps
from minigrad.steps import ids
from tools import build, catalogues, update_catalogues

FOLDER = build.PACKAGE / "steps"
CHAPTERS = sorted({ids.chapter_of(step) for step in steps.load_all()})


def test_every_step_is_checked_in_its_chapters_folder():
    for step, checks in steps.load_all().items():
        folders = {check.__module__.rsplit(".", 1)[0] for check in checks}
        assert folders == {f"minigrad.steps.chapter{ids.chapter_of(step)}"}, step


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chapters_hints_and_observations_are_its_own_steps(chapter):
    own = {step for step in steps.load_all() if ids.chapter_of(step) == chapter}
    assert set(importlib.import_module(f"minigrad.steps.chapter{chapter}.hints").HINTS) == own
    assert set(json.loads((FOLDER / f"chapter{chapter}" / steps.EXPECTED).read_text())) == own
    assert set(hints.HINTS) >= own


@pytest.mark.skipif(EDITION == "learner", reason="the mistakes stay in the reference edition")
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chapters_mistakes_are_its_own_steps(chapter):
    mistakes = importlib.import_module(f"minigrad.steps.chapter{chapter}.mistakes")
    assert mistakes.MUTANTS and {ids.chapter_of(step) for step, _, _ in mistakes.MUTANTS.values()} == {chapter}


def test_each_sentence_is_translated_in_the_folder_it_is_written_in():
    """A message written only in one chapter's folder is in that chapter's ``.po``; any other in the main one
    (``update_catalogues.split``, the rule ``python -m tools.update_catalogues`` files them by)."""
    template = update_catalogues.extracted(build.PACKAGE)
    for main in catalogues.catalogues():
        held = {path: {m.id for m in catalogues.read(path) if m.id} for path in catalogues.parts(main)}
        wanted = {path: {m.id for m in part if m.id} for path, part in update_catalogues.split(template, main).items()}
        assert held == wanted
        assert len(held) == 1 + len(CHAPTERS)
