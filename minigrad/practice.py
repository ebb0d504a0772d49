"""What ``minigrad.check_answer`` knows of each practice question besides its answer.

The kind of value each question asks for (a number, ``True``/``False``, text), so that
the text ``'False'`` is not taken for ``False``; and, for the wrong answers learners
commonly give, the misconception behind each, said in the learner's language. The
answers themselves are kept as hashes in ``steps/answers.py``.
"""
import numbers

from .messages import N_, say

KINDS = {"number": N_("a number"), "truth": N_("True or False"), "text": N_("text (a string in quotes)")}

QUESTIONS = {  # question id -> the kind of its answer
    "q1.1": "number", "q1.2": "number", "q2.1": "number", "q2.2": "number", "q3.1": "truth", "q3.2": "truth",
    "q3.3": "number", "q4.1": "number", "q4.2": "number", "q5.1": "text", "q5.2": "number", "q5.3": "number",
    "q6.1": "number", "q6.2": "number", "q6.3": "number", "q7.1": "number", "q7.2": "number",
}

MISCONCEPTIONS = {  # question id -> (a common wrong answer, what it misunderstands)
    "q1.1": (
        (1, N_("requires_grad spreads: d = c + b is computed from b, which requires grad, so d requires grad too.")),
        (3, N_("c = a * 2 is computed from a and a number, neither of which requires grad: c does not.")),
    ),
    "q1.2": (
        (4, N_("Every stretched axis is summed: the new leading axis of size 4 and the last axis, stretched from 1 "
               "to 3.")),
        (3, N_("The leading axis of size 4 was added by broadcasting: it is summed too, not only the last one.")),
    ),
    "q2.1": (
        (13, N_("13 is d out / dh = 2h + 1; the chain rule multiplies it by dh/dx = 2.")),
        (24, N_("h is used twice: in h * h and in + h. The gradient from + h (1, times dh/dx = 2) adds up too.")),
    ),
    "q2.2": (
        (2, N_("h * h uses h twice: that is two edges into h's node, plus one from + h.")),
    ),
    "q3.1": (
        (True, N_("Inside no_grad nothing is recorded: y gets no grad_fn and does not require grad, although x does.")),
    ),
    "q3.2": (
        (False, N_("detach() returns a tensor without history: no grad_fn makes it a leaf, one that needs no gradient.")),
    ),
    "q3.3": (
        (4, N_("Frozen parameters (requires_grad=False) get no AccumulateGrad node: only the trainable ones do.")),
    ),
    "q4.1": (
        (3, N_("Gradients accumulate: the second backward adds its 3 to the 3 already in .grad.")),
    ),
    "q4.2": (
        (4, N_("4 is dy/dx at x = 2; backward(v) weighs it by v[1] = 0.1.")),
    ),
    "q5.1": (
        ("ExpBackward", N_("That is y.grad_fn itself; its next_functions lead to the node that made apply's input, "
                           "x * 2.")),
        ("AccumulateGrad", N_("apply's input is x * 2, not x: the edge leads to the node of that product.")),
    ),
    "q5.2": (
        (1, N_("backward returns one value per argument of forward, tensor or not: None for k.")),
    ),
    "q6.1": (
        (0, N_("add_ is an in-place operation: it counts one version.")),
        (2, N_("b = a * 2 makes a new tensor at version 0; only add_ changes it.")),
    ),
    "q6.2": (
        (4, N_("The hook's result replaces the gradient: 2x = 4, times 3.")),
    ),
    "q6.3": (
        (1, N_("v is a view of a: they share one version counter, so a.mul_(2) counts for v too.")),
    ),
    "q7.1": (
        (2, N_("Row 1 was looked up twice: each lookup sends back its gradient, [1, 1], and the two add up.")),
        (6, N_("6 is the sum of the whole table's gradient (rows 1, 1 and 3); the question asks for row 1 alone.")),
    ),
    "q7.2": (
        (16, N_("Where the mask is True, out holds 0.0 whatever x is: those 6 positions get no gradient.")),
        (6, N_("The mask is True above the diagonal, where the value is put in: those 6 positions get no gradient, "
               "the other 10 get 1 each.")),
    ),
}


def kind_of(answer):
    """``"number"``, ``"truth"``, ``"text"``, or None for anything else (a tensor, a list, ...)."""
    if isinstance(answer, bool) or type(answer).__name__ == "bool_":
        return "truth"
    if isinstance(answer, numbers.Real):
        return "number"
    if isinstance(answer, str):
        return "text"
    return None


def misconception(question, answer):
    """What the common wrong ``answer`` to ``question`` misunderstands, or None."""
    for wrong, explanation in MISCONCEPTIONS.get(question, ()):
        if kind_of(wrong) == kind_of(answer) and (answer.strip() == wrong if isinstance(answer, str) else answer == wrong):
            return say(explanation)
    return None
