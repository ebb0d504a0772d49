"""Chapter 7's program, run outside its notebook: minigrad's first losses are PyTorch's, the recording is
PyTorch's, and each language trains on its own words."""
import pytest

import minigrad
from minigrad import capstone
from tools import capstone as program

COMPARED = 20  # the steps the chapter sets beside PyTorch's


def relative_differences(losses, recorded):
    return [abs(mine - theirs) / abs(theirs) for mine, theirs in zip(losses, recorded)]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_minigrad_trains_as_pytorch_did(language):
    """The learner's engine (here the reference) gives PyTorch 2.13's recorded losses for the first steps."""
    run = program.run(minigrad, language, COMPARED)
    assert minigrad.messages.language() == "en"  # the process's language is left as it was
    recorded = capstone.recorded(language)
    assert len(run["losses"]) == COMPARED and run["steps"] == COMPARED
    assert max(relative_differences(run["losses"], recorded["losses"])) <= capstone.TOLERANCE
    assert run["losses"][-1] < run["losses"][0] - 0.5  # it learns, within the first steps already


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_recording_is_pytorchs(language):
    """PyTorch, running the chapter's cells now, gives the recorded losses (not bytes: values within the
    tolerance), so a recording cannot drift from the chapter's code."""
    torch = pytest.importorskip("torch")
    assert torch.__version__.startswith("2.13.")
    run = program.run(torch, language, COMPARED)
    assert max(relative_differences(run["losses"], capstone.recorded(language)["losses"])) <= capstone.TOLERANCE


def test_a_full_recorded_run_learned():
    for language, first, last in (("en", 3.3, 2.3), ("zh", 8.0, 6.0)):
        run = capstone.recorded(language)
        assert run["losses"][0] == pytest.approx(first, abs=0.05)
        assert run["final"] < last and run["validation"] < run["losses"][0]


def test_each_language_has_its_words():
    names, idioms = capstone.words("en"), capstone.words("zh")
    assert len(names) == 5163 and names[:3] == ["aaron", "abbey", "abbie"]
    assert all(name.isalpha() and name.islower() and name.isascii() for name in names)
    assert len(idioms) == 22192 and idioms[:2] == ["一一列举", "一丁不识"]
    assert all(len(idiom) == 4 and all("\u4e00" <= c <= "\u9fff" for c in idiom) for idiom in idioms)


@pytest.mark.parametrize("language, words", [("en", "equal within 0.0001"), ("zh", "相等")])
def test_beside_says_whether_they_agree(language, words, capsys):
    minigrad.set_language(language)
    try:
        recorded = capstone.recorded(language)["losses"][:3]
        assert capstone.beside(recorded) == 0.0
        assert words in capsys.readouterr().out
        assert capstone.beside([loss * 1.01 for loss in recorded]) == pytest.approx(0.01, rel=1e-6)
        assert "0.0001" in capsys.readouterr().out
    finally:
        minigrad.set_language("en")
