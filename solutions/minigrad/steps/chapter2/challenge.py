"""Checks for chapter 2's optional challenge, C2: the backward rules of softmax and log_softmax.

Called as the engine calls them (arrays), then with tensors; one check runs a whole
backward through the learner's engine. Never graded.
"""
import numpy as np

from ...messages import N_
from ...nn.softmax import log_softmax, softmax
from ...tensor import Tensor
from .. import draw, step
from .rules import SHAPES, _engine_backward, _leaf, _one_gradient

SOFTMAX_ELEMENTWISE = N_(
    "the gradient was taken element by element, as for sigmoid: every output of softmax depends on every input "
    "of its slice (they share one denominator), so each input's gradient gathers a sum over its slice (reread the "
    "challenge)."
)
SUM_WRONG_DIM = N_(
    "the sum over the slice ran along the wrong dimension, or over everything: softmax normalises along dim "
    "alone, and the sum in its gradient runs along that same dim, one sum per slice (reread the challenge)."
)
LOG_SOFTMAX_NO_EXP = N_(
    "log_softmax saved log-probabilities: the probabilities its gradient needs are their exp, not the saved "
    "values themselves (reread the challenge)."
)


def _softmax_mistakes(s, grad, dim):
    """What the usual mistakes give for softmax's gradient: element by element, or summed along another axis."""
    wrong_dim = 1 - dim
    return [(grad * s * (1 - s), SOFTMAX_ELEMENTWISE),
            (s * (grad - (grad * s).sum(axis=wrong_dim, keepdims=True)), SUM_WRONG_DIM),
            (s * (grad - (grad * s).sum()), SUM_WRONG_DIM)]


@step("C2")
def softmax_backward_sums_over_its_slice(see):
    x = _leaf([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    grad = np.array([[1.0, 0.0, 0.0], [2.0, -1.0, 0.5]], dtype=np.float32)
    out = softmax(x, 1)
    got = _one_gradient(see, out.grad_fn, grad, (SHAPES, SUM_WRONG_DIM))
    see.near(got, N_("the gradient of softmax(x, 1) for x = [[1, 2, 3], [0, 0, 0]], for a gradient [[1, 0, 0], [2, -1, 0.5]]"),
             atol=1e-6, mistakes=_softmax_mistakes(out._array, grad, 1))


@step("C2")
def log_softmax_backward_uses_the_probabilities(see):
    x = _leaf([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    grad = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, -1.0]], dtype=np.float32)
    out = log_softmax(x, 1)
    got = _one_gradient(see, out.grad_fn, grad, (SHAPES, SUM_WRONG_DIM))
    log_p = out._array
    see.near(got, N_("the gradient of log_softmax(x, 1) for x = [[1, 2, 3], [0, 1, 0]], for a gradient "
                     "[[1, 0, 0], [0.5, 0.5, -1]]"), atol=1e-6,
             mistakes=[(grad - log_p * grad.sum(axis=1, keepdims=True), LOG_SOFTMAX_NO_EXP), (grad, SOFTMAX_ELEMENTWISE)])


@step("C2")
def softmax_rules_work_on_tensors(see):
    x = _leaf([[1.0, -1.0], [0.5, 2.0]])
    grad = Tensor._wrap(np.array([[1.0, 2.0], [0.0, -1.0]], dtype=np.float32))
    see.near(_one_gradient(see, softmax(x, 0).grad_fn, grad, (SHAPES, SUM_WRONG_DIM)),
             N_("the gradient of softmax(x, 0) for a tensor gradient, as with create_graph=True: a tensor"), atol=1e-6)
    see.near(_one_gradient(see, log_softmax(x, 0).grad_fn, grad, (SHAPES, SUM_WRONG_DIM)),
             N_("the gradient of log_softmax(x, 0) for a tensor gradient, as with create_graph=True: a tensor"), atol=1e-6)


@step("C2")
def a_softmax_classifier_of_drawn_values(see):
    x, w = Tensor._wrap(draw.values(see.rng, (4, 3))), _leaf(draw.values(see.rng, (3, 5)) / 2)
    z = x @ w
    out = log_softmax(z, 1) * Tensor._wrap(draw.values(see.rng, (4, 5))) + softmax(z, 0)
    _engine_backward(out, np.ones((4, 5), dtype=np.float32))
    see.near(w._grad, N_("w.grad through log_softmax(x @ w, 1) and softmax(x @ w, 0), values drawn at random"),
             atol=1e-5)
