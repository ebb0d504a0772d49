"""``minigrad.hint``: up to three hints per step, in the learner's language, never the code."""
import pytest

from conftest import ROOT
from minigrad import hints, messages, steps
from minigrad.steps import ids
from tools import editions

STEPS = sorted(steps.load_all(), key=ids.order)


@pytest.fixture(autouse=True)
def fresh_kernel(monkeypatch):
    """Each test starts as a kernel that has shown no hint yet, in English."""
    monkeypatch.setattr(hints, "_given", {})
    monkeypatch.setattr(messages, "_language", "en")


def test_every_step_has_one_to_three_hints():
    assert list(hints.HINTS) == STEPS
    assert all(1 <= len(hints.ladder(step)) <= 3 for step in STEPS)


def test_the_last_hints_are_sealed_and_in_both_languages():
    """Each step's last hint is read from its chapter's sealed file, in the learner's language."""
    assert set(hints.last_hints()) == set(STEPS)
    for step in STEPS:
        english, chinese = hints.ladder(step, "en")[-1], hints.ladder(step, "zh")[-1]
        assert english and chinese and english != chinese, step
        assert english not in (ROOT / "minigrad" / "steps").joinpath(f"chapter{ids.chapter_of(step)}", "last_hints.dat").read_text()


def test_each_call_shows_the_next_hint_then_says_it_was_the_last(capsys):
    ladder = hints.ladder("2.3")
    for n, text in enumerate(ladder, 1):
        hints.hint("2.3")
        shown = capsys.readouterr().out
        assert shown.startswith(f"Hint {n} of {len(ladder)} for step 2.3:\n{text}")
        assert ("last hint" in shown) == (n == len(ladder))
    hints.hint("2.3")
    assert ladder[-1] in capsys.readouterr().out


def test_hints_come_in_the_learners_language(capsys):
    messages.set_language("zh")
    hints.hint("1.3")
    shown = capsys.readouterr().out
    assert shown.startswith("第 1.3 步的提示 1/") and "广播" in shown


def test_an_unknown_step_gets_the_list_of_steps(capsys):
    hints.hint("2.9")
    assert capsys.readouterr().out.strip() == f"There is no step 2.9. The steps are: {', '.join(STEPS)}."


def _solution_lines(step):
    """The lines of ``step``'s solution long enough to give something away."""
    for path in sorted((ROOT / "solutions" / "minigrad").rglob("*.py")):
        for found, _, _, body, _ in editions.regions(path.read_text()):
            if found == step:
                yield from (line.strip() for line in body if len(line.strip()) > 20)


@pytest.mark.parametrize("step", STEPS)
def test_no_hint_holds_a_line_of_the_solution(step):
    every_hint = "\n".join(hints.ladder(step, "en") + hints.ladder(step, "zh"))
    assert not [line for line in _solution_lines(step) if line in every_hint]
