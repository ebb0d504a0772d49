"""``minigrad.check_answer``: the kind of an answer, unknown questions, the misconception behind a wrong answer."""
import pytest

from minigrad import check_answer, messages, practice
from minigrad.check import CheckFailed, StepNotImplemented
from minigrad.steps import answers
from minigrad.steps.judge import judge


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setattr(messages, "_language", "en")


def failure(question, answer):
    with pytest.raises((CheckFailed, StepNotImplemented)) as raised:
        check_answer(question, answer)
    return str(raised.value)


def test_every_question_has_a_kind_and_its_answer_is_of_that_kind():
    assert set(practice.QUESTIONS) == set(answers.ANSWERS)
    for question, wrongs in practice.MISCONCEPTIONS.items():
        for wrong, _ in wrongs:
            assert practice.kind_of(wrong) == practice.QUESTIONS[question] and not answers.is_right(question, wrong)


def test_the_text_false_is_not_false(capsys):
    check_answer("q3.1", False)
    assert capsys.readouterr().out.strip() == "✓ q3.1: right."
    assert failure("q3.1", "False") == ("✗ q3.1: the answer is True or False, and 'False' is text (a string in quotes). "
                                        "Write it without quotes if it is a number or True/False, in quotes if it is text.")
    assert "the answer is a number, and '2' is text" in failure("q1.1", "2")
    assert "the answer is a number, and True is True or False" in failure("q1.1", True)
    assert "the answer is text (a string in quotes), and [1] is list" in failure("q5.1", [1])


def test_an_unknown_question_is_refused_with_the_list():
    assert failure("q9.9", 1) == f"There is no practice question q9.9. The questions are: {', '.join(practice.QUESTIONS)}."


def test_a_common_wrong_answer_is_explained_in_the_learners_language(monkeypatch):
    assert failure("q2.1", 13) == ("✗ q2.1: 13 is not the answer. Read the section again and retry.\n"
                                   "13 is d out / dh = 2h + 1; the chain rule multiplies it by dh/dx = 2.")
    assert failure("q5.1", " ExpBackward ").endswith("the node that made apply's input, x * 2.")
    assert "\n" not in failure("q2.1", 99)  # no misconception known: the plain sentence
    monkeypatch.setattr(messages, "_language", "zh")
    assert failure("q6.3", 1).endswith("v 是 a 的视图：它们共用一个版本计数器，所以 a.mul_(2) 也算在 v 头上。")


@pytest.mark.parametrize("language, said", [("en", "✓ Step 9.1 passed (1 check)."), ("zh", "✓ 第 9.1 步通过（1 项检查）。")])
def test_one_check_is_said_in_the_singular(language, said):
    one = {"only": [{"label": "x", "value": 1}, {"end": "done"}]}
    assert judge("9.1", one, one, language)["message"] == said
