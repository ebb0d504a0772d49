"""Checks for chapter 7, steps 7.1–7.4: the backward rules a small GPT needs.

As in chapter 2, each rule is called directly on a node made by the real operation, as the engine calls it
(arrays, grad mode off), then with tensors as ``create_graph=True`` gives it; one check of each step also runs a
whole backward through the learner's engine.
"""
import math

import numpy as np

from ...messages import N_
from ...nn.activations import gelu
from ...nn.normalization import layer_norm
from ...nn.sparse import embedding
from ...ops.linalg import matmul
from ...ops.selection import masked_fill
from ...tensor import Tensor
from .. import draw, step
from ..chapter1.checks import gradients_of, tensor_gradients_of
from ..chapter2.rules import _engine_backward, _leaf, _one_gradient

ROWS_ASSIGNED = N_(
    "a row looked up more than once got the gradient of one lookup only: writing into the table with an index "
    "that repeats keeps the last value written there, and every lookup of a row counts (reread exercise 7.1)."
)
PADDING_TRAINED = N_(
    "the padding row got a gradient: PyTorch never trains the padding_idx row, whatever looked it up, so its "
    "gradient is 0 (reread exercise 7.1)."
)
STATISTICS_AS_CONSTANTS = N_(
    "x's gradient was computed as if the mean or the variance were constants: both are computed from x, so each "
    "element of x also moves every output of its slice through them (reread exercise 7.2)."
)
PARAMETERS_WRONG_DIMS = N_(
    "the gradient of weight or bias does not have the normalised shape: each of their elements is used once at "
    "every leading position (every row), so its gradient gathers from all of them, over the leading dimensions "
    "only (reread exercise 7.2)."
)
PASSED_WHERE_FILLED = N_(
    "the gradient went through where the mask put the value: there out does not depend on x at all "
    "(reread exercise 7.3)."
)
FILLED_THE_WRONG_PLACES = N_(
    "the gradient was kept where the mask is True and taken away where it is False: the mask is True where "
    "the value was put in (reread exercise 7.3)."
)
VALUE_NOT_SUMMED = N_(
    "value's gradient came back with out's shape, or gathered positions the value never reached: value is one "
    "number, put at every position the mask chose, and only those (reread exercise 7.3)."
)
ONLY_THE_CDF = N_(
    "GELU's gradient came back as Φ(x) (or its tanh form) times the gradient: out = x · Φ(x) is a product, and x "
    "is in both of its factors (reread exercise 7.4)."
)
TANH_INNER_FORGOTTEN = N_(
    "the tanh approximation's gradient left out the derivative of tanh's argument, √(2/π) (x + 0.044715 x³): the "
    "chain rule goes through it too (reread exercise 7.4)."
)


def _indices(values):
    return Tensor._wrap(np.asarray(values, dtype=np.int64))


def _float32(values):
    return np.asarray(values, dtype=np.float32)


# ---------------------------------------------------------------- 7.1 EmbeddingBackward0


@step("7.1")
def a_row_looked_up_twice_gets_both_gradients(see):
    weight = _leaf(np.zeros((5, 2)))
    grad = _float32([[[1, 2], [3, 4], [5, 6]]])
    got = _one_gradient(see, embedding(_indices([[1, 1, 3]]), weight).grad_fn, grad)
    assigned = np.zeros((5, 2), np.float32)
    assigned[[1, 1, 3]] = grad.reshape(-1, 2)
    see(got, N_("the table's gradient for indices [[1, 1, 3]] into 5 rows, for a gradient [[[1, 2], [3, 4], [5, 6]]]"),
        mistakes=[(assigned, ROWS_ASSIGNED)])


@step("7.1")
def the_padding_row_gets_nothing(see):
    grad = draw.values(see.rng, (3, 3))
    node = embedding(_indices([0, 2, 1]), _leaf(np.zeros((4, 3))), padding_idx=0).grad_fn
    got = _one_gradient(see, node, grad)
    trained = np.zeros((4, 3), np.float32)
    trained[[0, 2, 1]] = grad
    see(got, N_("the table's gradient for indices [0, 2, 1] into 4 rows, padding_idx=0, values drawn at random"),
        mistakes=[(trained, PADDING_TRAINED)])


@step("7.1")
def embedding_backward_works_on_tensors(see):
    node = embedding(_indices([[1, 1], [3, 0]]), _leaf(np.zeros((4, 2))), padding_idx=3).grad_fn
    grad = Tensor._wrap(_float32([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]))
    see(_one_gradient(see, node, grad),
        N_("the table's gradient for a tensor gradient, as with create_graph=True, padding_idx=3: a tensor"))


@step("7.1")
def a_lookup_through_the_engine(see):
    weight = _leaf(draw.values(see.rng, (6, 3)))
    idx = _indices(see.rng.integers(0, 6, size=(2, 5)))  # five draws among six rows: some repeat
    out = embedding(idx, weight) * weight.sum()
    _engine_backward(out, draw.values(see.rng, (2, 5, 3)))
    see(weight._grad, N_("weight.grad for embedding(idx, weight) * weight.sum(), indices and values drawn at random"))


# ---------------------------------------------------------------- 7.2 NativeLayerNormBackward0


def _x_hat(x, dims):
    """x̂ as the forward computes it: the statistics in float64, kept in float32."""
    wide = x.astype(np.float64)
    mean = wide.mean(dims, keepdims=True).astype(np.float32)
    rstd = (1 / np.sqrt(wide.var(dims, keepdims=True) + 1e-5)).astype(np.float32)
    return (x - mean) * rstd, rstd


@step("7.2")
def one_row_normalised(see):
    x, grad = _float32([1, 2, 3]), _float32([1, 0, 0])
    grads = gradients_of(see, layer_norm(_leaf(x), (3,)).grad_fn, grad, inputs=3)
    _, rstd = _x_hat(x, (0,))
    see.near(grads[0], N_("x's gradient for layer_norm(x, (3,)), x = [1, 2, 3], for a gradient [1, 0, 0]"), atol=1e-4,
             mistakes=[(rstd * grad, STATISTICS_AS_CONSTANTS), (rstd * (grad - grad.mean()), STATISTICS_AS_CONSTANTS)])
    see(list(grads[1:]), N_("the gradients for weight and bias, for a layer that has neither"))


@step("7.2")
def weight_and_bias_gather_over_the_leading_dimensions(see):
    x, grad = see.rng.normal(size=(2, 3, 4)).astype(np.float32), draw.values(see.rng, (2, 3, 4))
    weight, bias = _leaf(draw.values(see.rng, (4,))), _leaf(draw.values(see.rng, (4,)))
    grads = gradients_of(see, layer_norm(_leaf(x), (4,), weight, bias).grad_fn, grad, inputs=3)
    x_hat, _ = _x_hat(x, (2,))
    see.near(grads[0], N_("x's gradient for layer_norm(x, (4,), weight, bias), x (2, 3, 4), values drawn at random"),
             atol=1e-4)
    see.near(grads[1], N_("weight's gradient for the same"), atol=1e-4,
             mistakes=[(np.sum(grad * x_hat, 2), PARAMETERS_WRONG_DIMS), (grad * x_hat, PARAMETERS_WRONG_DIMS),
                       (np.asarray(np.sum(grad * x_hat)), PARAMETERS_WRONG_DIMS)])
    see.near(grads[2], N_("bias's gradient for the same"), atol=1e-4,
             mistakes=[(np.sum(grad, 2), PARAMETERS_WRONG_DIMS), (grad, PARAMETERS_WRONG_DIMS),
                       (np.asarray(np.sum(grad)), PARAMETERS_WRONG_DIMS)])


@step("7.2")
def layer_norm_backward_works_on_tensors(see):
    x = _leaf([[1.0, 2.0, 4.0], [-1.0, 0.5, 3.0]])  # spread out: the second derivative stays well rounded
    weight, bias = _leaf(draw.values(see.rng, (3,))), _leaf(draw.values(see.rng, (3,)))
    grads = tensor_gradients_of(see, layer_norm(x, (3,), weight, bias).grad_fn, draw.values(see.rng, (2, 3)), inputs=3)
    see.near(list(grads), N_("the three gradients for a tensor gradient, as with create_graph=True: tensors"), atol=1e-4)
    # The gradient of x is a function of x: its own backward, through the learner's engine, is a second derivative.
    _engine_backward((grads[0] * grads[0]).sum(), 1.0)
    see.near(x._grad, N_("x.grad for the sum of the squares of that gradient of x: a second derivative"), atol=1e-3)


@step("7.2")
def a_layer_norm_through_the_engine(see):
    shape = ((4,), (3, 4))[int(see.rng.integers(0, 2))]
    x = _leaf(see.rng.normal(size=(2, 3, 4)))
    weight, bias = _leaf(draw.values(see.rng, shape)), _leaf(draw.values(see.rng, shape))
    _engine_backward(layer_norm(x * 2.0, shape, weight, bias), draw.values(see.rng, (2, 3, 4)))
    see.near(x._grad, N_("x.grad for layer_norm(x * 2, shape, weight, bias), shape (4,) or (3, 4), values drawn at "
                         "random"), atol=1e-4)
    see.near(weight._grad, N_("weight.grad for the same"), atol=1e-4)
    see.near(bias._grad, N_("bias.grad for the same"), atol=1e-4)


# ---------------------------------------------------------------- 7.3 MaskedFillBackward0 and 1


@step("7.3")
def the_filled_positions_pass_no_gradient(see):
    mask = np.array([[False, True], [False, False]])
    grad = _float32([[1, 2], [3, 4]])
    node = masked_fill(_leaf([[1, 2], [3, 4]]), Tensor._wrap(mask), float("-inf")).grad_fn
    got = _one_gradient(see, node, grad)
    see(got, N_("x's gradient for x.masked_fill(mask, -inf), mask [[False, True], [False, False]], for a gradient "
                "[[1, 2], [3, 4]]"),
        mistakes=[(grad, PASSED_WHERE_FILLED), (grad * mask, FILLED_THE_WRONG_PLACES)])


@step("7.3")
def the_value_tensor_gathers_the_filled_positions(see):
    mask = np.array([True, False, True, True])
    grad = draw.values(see.rng, (4,))
    value = _leaf(np.float32(0.0))
    node = masked_fill(_leaf(np.zeros(4)), Tensor._wrap(mask), value).grad_fn
    grad_x, grad_value = gradients_of(see, node, grad, inputs=2)
    see(grad_x, N_("x's gradient for x.masked_fill(mask, value), value a tensor, mask [True, False, True, True], "
                   "values drawn at random"))
    see(np.asarray(grad_value), N_("value's gradient for the same"),  # a 0-dim array, however the number came back
        mistakes=[(grad * mask, VALUE_NOT_SUMMED), (grad, VALUE_NOT_SUMMED), (np.asarray(grad.sum()), VALUE_NOT_SUMMED)])


@step("7.3")
def masked_fill_works_on_tensors(see):
    mask = Tensor._wrap(np.array([[True, False, False], [True, True, False]]))
    grad = Tensor._wrap(draw.values(see.rng, (2, 3)))
    node = masked_fill(_leaf(np.zeros((2, 3))), mask, 5.0).grad_fn
    see(_one_gradient(see, node, grad), N_("x's gradient for a tensor gradient, as with create_graph=True: a tensor"))
    node = masked_fill(_leaf(np.zeros((2, 3))), mask, _leaf(np.float32(5.0))).grad_fn
    see(list(tensor_gradients_of(see, node, grad._array)), N_("x's and value's gradients for the same, value a tensor"))


@step("7.3")
def a_causal_mask_through_the_engine(see):
    scores = _leaf(draw.values(see.rng, (2, 3, 3)))  # (heads, T, T), the mask (T, T) broadcast over the heads
    causal = Tensor._wrap(np.triu(np.ones((3, 3), dtype=bool), 1))
    _engine_backward(masked_fill(scores * 2.0, causal, float("-inf")).softmax(-1), draw.values(see.rng, (2, 3, 3)))
    see.near(scores._grad, N_("scores.grad for softmax(masked_fill(scores * 2, causal mask, -inf)), values drawn at "
                              "random"), atol=1e-5)
    x = _leaf(draw.values(see.rng, (3,)))  # the mask (2, 3) broadcasts x to a larger shape
    _engine_backward(masked_fill(x, Tensor._wrap(np.array([[True, False, False], [False, False, True]])), 0.0),
                     draw.values(see.rng, (2, 3)))
    see(x._grad, N_("x.grad for x (3,) filled by a mask (2, 3), values drawn at random"))


# ---------------------------------------------------------------- 7.4 GeluBackward0


def _cdf(x):
    return (0.5 * (1 + np.vectorize(math.erf)(np.asarray(x, np.float64) / math.sqrt(2)))).astype(np.float32)


def _tanh_parts(x):
    x = np.asarray(x, np.float64)
    t = np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))
    return (0.5 * (1 + t)).astype(np.float32), (0.5 * x * (1 - t * t)).astype(np.float32)


@step("7.4")
def gelu_at_a_few_points(see):
    x, grad = [-1.0, 0.0, 1.0, 2.0], _float32([1, 2, -1, 0.5])
    got = _one_gradient(see, gelu(_leaf(x)).grad_fn, grad)
    see.near(got, N_("x's gradient for gelu(x), x = [-1, 0, 1, 2], for a gradient [1, 2, -1, 0.5]"), atol=1e-5,
             mistakes=[(grad * _cdf(x), ONLY_THE_CDF)])


@step("7.4")
def the_tanh_approximation(see):
    x, grad = [-1.0, 0.0, 1.0, 2.0], _float32([1, 2, -1, 0.5])
    got = _one_gradient(see, gelu(_leaf(x), approximate="tanh").grad_fn, grad)
    half, outer = _tanh_parts(x)
    see.near(got, N_("x's gradient for gelu(x, approximate='tanh'), the same x and gradient"), atol=1e-5,
             mistakes=[(grad * half, ONLY_THE_CDF), (grad * (half + outer), TANH_INNER_FORGOTTEN)])


@step("7.4")
def gelu_backward_works_on_tensors(see):
    x = _leaf(draw.values(see.rng, (5,)))
    grad = Tensor._wrap(draw.values(see.rng, (5,)))
    for approximate in ("none", "tanh"):
        see.near(_one_gradient(see, gelu(x, approximate=approximate).grad_fn, grad),
                 N_("x's gradient for a tensor gradient, as with create_graph=True, approximate 'none' then 'tanh'"),
                 atol=1e-5)


@step("7.4")
def an_mlp_with_gelu_through_the_engine(see):
    x, w = Tensor._wrap(draw.values(see.rng, (3, 4))), _leaf(draw.values(see.rng, (4, 5)) / 2)
    approximate = ("none", "tanh")[int(see.rng.integers(0, 2))]
    _engine_backward(gelu(matmul(x, w), approximate=approximate), draw.values(see.rng, (3, 5)))
    see.near(w._grad, N_("w.grad for gelu(x @ w), approximate 'none' or 'tanh', values drawn at random"), atol=1e-4)
