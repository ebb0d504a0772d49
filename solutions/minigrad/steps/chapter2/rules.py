"""Checks for chapter 2, steps 2.5–2.8: the backward rules a small model needs.

Each rule is called directly on a node made by the real operation, as the engine
calls it (arrays, grad mode off), then with tensors as ``create_graph=True`` gives it;
one check of each step also runs a whole backward through the learner's engine.
"""
import numpy as np

from ...autograd import _root_edge
from ...autograd.engine import run_backward
from ...messages import N_
from ...nn.logits_loss import binary_cross_entropy_with_logits
from ...ops.pointwise import relu, sigmoid
from ...ops.reductions import mean
from ...ops.reductions import sum as total
from ...tensor import Tensor
from .. import draw, step
from ..chapter1.checks import MISUSED, ONLY_ARRAYS, ONLY_TENSORS, TWO_GRADIENTS, gradients_of
from ..backward_calls import call_backward

ONE_GRADIENT = N_(
    "backward must return the gradient for the node's one input: an array (a tensor with create_graph=True) of "
    "that input's shape (reread the exercise)."
)
NOT_EXPANDED = N_(
    "the gradient of a sum still has the sum's shape, not the input's: every element of the input went into the "
    "sum, and each must get a gradient (reread exercise 2.5)."
)
NOT_REINSERTED = N_(
    "with keepdim=False the summed dimensions are missing from the gradient, so it lined up with the wrong "
    "dimensions of the input (or with none): put each summed dimension back, with size 1, at its own place, before "
    "copying the gradient over it (reread exercise 2.5)."
)
NOT_DIVIDED = N_(
    "the gradient of a mean came back as that of a sum: check how much each element counts in a mean of n "
    "elements (reread exercise 2.6)."
)
WRONG_COUNT = N_(
    "the gradient of a mean over some dimensions was divided by the wrong count (all the input's numel elements, "
    "or the number of means?): count the elements of the one slice each mean is taken over (reread exercise 2.6)."
)
RELU_AT_ZERO = N_(
    "relu passed the gradient on where its input was not above 0: at 0 too, PyTorch takes relu's slope to be 0 "
    "(reread exercise 2.7)."
)
RELU_WRONG_VALUE = N_(
    "relu's gradient depends on something it must not (the saved result's value, or the gradient's sign): the "
    "saved result only tells where the gradient passes (reread exercise 2.7)."
)
SIGMOID_AGAIN = N_(
    "the sigmoid was applied once more to the saved value: the node saved the result s = sigmoid(x), not x, "
    "and the derivative is written with that s itself (reread exercise 2.7)."
)
LOSS_NOT_MEAN = N_(
    "the gradient of the loss with reduction='mean' is n times too large, as if the reduction were 'sum': check "
    "what the mean does to each element's loss (reread exercise 2.8)."
)
LOSS_SIGN = N_(
    "the gradient of the loss for the logits has the wrong sign: check which way the loss moves when a logit "
    "grows where the target is 0 (reread exercise 2.8)."
)
LOSS_UNWEIGHTED = N_(
    "the weights were left out of the loss's gradient: each element's loss is multiplied by its weight, and so "
    "is its gradient (reread exercise 2.8)."
)
TARGET_SIGN = N_(
    "the gradient of the loss for the target has the wrong sign: check which way the loss moves when the target "
    "grows where the logit is positive (reread exercise 2.8)."
)
TURNED_INTO_ARRAY = N_(
    "a tensor gradient came back as a numpy array: with create_graph=True the gradient must stay a tensor, so that "
    "its own graph is recorded, but a numpy function (np.expand_dims, np.broadcast_to, ...) turned it into an "
    "array. Use what arrays and tensors both have, or the file's helpers (reread the exercise)."
)
SHAPES = (ValueError, RuntimeError)  # numpy's refusal to broadcast, minigrad's expand that does not fit


def _leaf(values):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), True)


def _arrays(*shape):
    """A float32 array 1, 2, ... of ``shape``: each element tells where it went."""
    return np.arange(1, np.prod(shape) + 1, dtype=np.float32).reshape(shape)


def _one_gradient(see, node, grad, *named):
    """``node.backward(grad)`` as the engine calls it: one gradient, an array or a tensor (a tuple
    of one is accepted, as the engine accepts it). Failures in ``named`` are named, as
    ``see.attempt`` takes them, and so is code that fails on arrays."""
    if isinstance(grad, Tensor):  # create_graph: grad mode stays on, saved values come back as tensors
        result = see.attempt(lambda: node.backward(grad), (MISUSED, ONLY_ARRAYS), *named)
    else:
        result = see.attempt(lambda: call_backward(node, grad), (MISUSED, ONLY_TENSORS), *named)
    if isinstance(result, (tuple, list)) and len(result) == 1:
        result = result[0]
    see.require(isinstance(result, (np.ndarray, Tensor)), ONE_GRADIENT)
    if isinstance(grad, Tensor):
        see.require(isinstance(result, Tensor), TURNED_INTO_ARRAY)
    return result


def _engine_backward(output, seed):
    """``output.backward(seed)`` through the learner's engine."""
    run_backward([_root_edge(output, 0)], [np.asarray(seed, dtype=np.float32)], False, False)


@step("2.5")
def the_gradient_of_a_sum_reaches_every_element(see):
    x = _leaf(_arrays(2, 3))
    got = _one_gradient(see, total(x).grad_fn, np.array(2.0, dtype=np.float32))
    see(got, N_("the gradient of x.sum() for x (2, 3), for a gradient 2.0"),
        mistakes=[(np.array(2.0, dtype=np.float32), NOT_EXPANDED)])


@step("2.5")
def keepdim_false_dimensions_go_back_in_place(see):
    x = _leaf(_arrays(3, 3))
    grad = np.array([1.0, 2.0, 3.0], dtype=np.float32)  # one per row: row i summed to grad[i]
    got = _one_gradient(see, total(x, 1).grad_fn, grad, (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.sum(1) for x (3, 3), for a gradient [1, 2, 3]"),
        mistakes=[(np.broadcast_to(grad, (3, 3)), NOT_REINSERTED), (grad, NOT_EXPANDED)])
    x = _leaf(_arrays(2, 3, 4))
    got = _one_gradient(see, total(x, (0, 2)).grad_fn, np.array([1.0, 2.0, 3.0], dtype=np.float32),
                        (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.sum((0, 2)) for x (2, 3, 4), for a gradient [1, 2, 3]"))


@step("2.5")
def keepdim_true_dimensions_are_already_there(see):
    x = _leaf(_arrays(2, 3))
    grad = np.array([[1.0], [2.0]], dtype=np.float32)
    got = _one_gradient(see, total(x, 1, keepdim=True).grad_fn, grad, (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.sum(1, keepdim=True) for x (2, 3), for a gradient [[1], [2]]"),
        mistakes=[(grad, NOT_EXPANDED)])


@step("2.5")
def sum_backward_works_on_tensors(see):
    x = _leaf(_arrays(2, 3))
    got = _one_gradient(see, total(x, 0).grad_fn, Tensor._wrap(np.ones(3, dtype=np.float32)), (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.sum(0) for a tensor gradient, as with create_graph=True: a tensor"))


@step("2.5")
def a_sum_of_drawn_values_through_the_engine(see):
    shape = draw.shape(see.rng)
    dims = tuple(d for d in range(len(shape)) if see.rng.random() < 0.5) or (0,)
    keepdim = bool(see.rng.random() < 0.5)
    x = _leaf(draw.values(see.rng, shape))
    out = total(x * x, dims, keepdim=keepdim)
    _engine_backward(out, draw.values(see.rng, out.shape))
    see(x._grad, N_("x.grad for (x * x).sum(dims, keepdim) backward, shapes and values drawn at random"))


@step("2.6")
def the_gradient_of_a_mean_is_shared(see):
    x = _leaf(_arrays(2, 2))
    got = _one_gradient(see, mean(x).grad_fn, np.array(1.0, dtype=np.float32))
    see(got, N_("the gradient of x.mean() for x (2, 2), for a gradient 1.0"),
        mistakes=[(np.ones((2, 2), dtype=np.float32), NOT_DIVIDED)])


@step("2.6")
def a_mean_over_dimensions_divides_by_its_slice(see):
    x = _leaf(_arrays(2, 3, 4))
    got = _one_gradient(see, mean(x, (0, 2)).grad_fn, np.full(3, 24.0, dtype=np.float32), (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.mean((0, 2)) for x (2, 3, 4), for a gradient 24.0 for each mean"),
        mistakes=[(np.full((2, 3, 4), 24.0, dtype=np.float32), NOT_DIVIDED),
                  (np.full((2, 3, 4), 1.0, dtype=np.float32), WRONG_COUNT),
                  (np.full((2, 3, 4), 8.0, dtype=np.float32), WRONG_COUNT)])
    got = _one_gradient(see, mean(x, 1, keepdim=True).grad_fn, Tensor._wrap(np.full((2, 1, 4), 6.0, dtype=np.float32)),
                        (SHAPES, NOT_REINSERTED))
    see(got, N_("the gradient of x.mean(1, keepdim=True) for a tensor gradient 6.0, as with create_graph=True"),
        mistakes=[(Tensor._wrap(np.full((2, 3, 4), 0.25, dtype=np.float32)), WRONG_COUNT)])


@step("2.6")
def the_worked_example_gives_4_5(see):
    x = _leaf(np.ones((2, 2)))
    y = x + 2
    _engine_backward(mean(y * y * 3), 1.0)
    see(x._grad, N_("x.grad for out = (3 (x + 2)^2).mean()"), mistakes=[(_leaf(np.full((2, 2), 18.0)), NOT_DIVIDED)])


@step("2.6")
def a_mean_of_drawn_values_through_the_engine(see):
    shape = draw.shape(see.rng)
    dims = tuple(d for d in range(len(shape)) if see.rng.random() < 0.5)
    x = _leaf(draw.values(see.rng, shape))
    out = mean(x * x) if not dims else mean(x * x, dims, keepdim=bool(see.rng.random() < 0.5))
    _engine_backward(out, draw.values(see.rng, out.shape))
    see(x._grad, N_("x.grad for (x * x).mean(...) backward, shapes and values drawn at random"))


@step("2.7")
def relu_passes_the_gradient_where_its_result_is_positive(see):
    x = _leaf([-2.0, -0.5, 0.0, 0.5, 2.0])
    grad = np.array([1.0, -1.0, 2.0, -2.0, 3.0], dtype=np.float32)
    got = _one_gradient(see, relu(x).grad_fn, grad)
    see(got, N_("the gradient of relu(x) for x = [-2, -0.5, 0, 0.5, 2], for a gradient [1, -1, 2, -2, 3]"),
        mistakes=[(grad, RELU_AT_ZERO), (grad * (grad > 0), RELU_WRONG_VALUE),
                  (grad * relu(x)._array, RELU_WRONG_VALUE)])


def _sigmoid(x):
    return (1 / (1 + np.exp(-np.asarray(x, dtype=np.float64)))).astype(np.float32)


@step("2.7")
def sigmoid_uses_its_saved_result(see):
    values = [-2.0, 0.0, 1.0, 3.0]
    grad = np.array([1.0, 2.0, -1.0, 0.5], dtype=np.float32)
    got = _one_gradient(see, sigmoid(_leaf(values)).grad_fn, grad)
    again = _sigmoid(_sigmoid(values))
    see.near(got, N_("the gradient of sigmoid(x) for x = [-2, 0, 1, 3], for a gradient [1, 2, -1, 0.5]"), atol=1e-6,
             mistakes=[(grad * again * (1 - again), SIGMOID_AGAIN)])


@step("2.7")
def relu_and_sigmoid_work_on_tensors(see):
    x = _leaf([-1.0, 0.0, 2.0])
    ones = Tensor._wrap(np.ones(3, dtype=np.float32))
    see(_one_gradient(see, relu(x).grad_fn, ones), N_("the gradient of relu(x) for a tensor gradient: a tensor"))
    see.near(_one_gradient(see, sigmoid(x).grad_fn, ones), N_("the gradient of sigmoid(x) for a tensor gradient: a tensor"),
             atol=1e-6)


@step("2.7")
def a_small_network_of_drawn_values(see):
    x, w = _leaf(draw.values(see.rng, (4, 3))), _leaf(draw.values(see.rng, (3,)))
    out = sigmoid(relu(x * w) - 1.0)
    _engine_backward(out, draw.values(see.rng, (4, 3)))
    see.near(w._grad, N_("w.grad for sigmoid(relu(x * w) - 1), values drawn at random"), atol=1e-5)


def _loss_node(z, y, **options):
    return binary_cross_entropy_with_logits(_leaf(z), _leaf(y), **options).grad_fn


@step("2.8")
def the_loss_gradient_for_the_logits_and_the_target(see):
    z, y = [2.0, 0.0, -1.0, 3.0], [0.0, 1.0, 1.0, 0.5]
    got, target = gradients_of(see, _loss_node(z, y, reduction="sum"), np.array(1.0, dtype=np.float32))
    right = _sigmoid(z) - np.array(y, dtype=np.float32)
    see.near(got, N_("d loss/dz for z = [2, 0, -1, 3], y = [0, 1, 1, 0.5], reduction='sum'"), atol=1e-6,
             mistakes=[(-right, LOSS_SIGN)])
    see.near(target, N_("d loss/dy for the same z and y"), atol=1e-6,
             mistakes=[(np.array(z, dtype=np.float32), TARGET_SIGN)])


@step("2.8")
def a_mean_loss_divides_by_the_count(see):
    z, y = [2.0, 0.0, -1.0, 3.0], [0.0, 1.0, 1.0, 0.5]
    got, _ = gradients_of(see, _loss_node(z, y), np.array(1.0, dtype=np.float32))
    right = _sigmoid(z) - np.array(y, dtype=np.float32)
    see.near(got, N_("d loss/dz for the same z and y, reduction='mean'"), atol=1e-6,
             mistakes=[(right, LOSS_NOT_MEAN), (-right / 4, LOSS_SIGN)])


@step("2.8")
def weights_scale_each_element(see):
    z, y, weight = [2.0, 0.0, -1.0], [0.0, 1.0, 1.0], [1.0, 2.0, 0.5]
    got, _ = gradients_of(see, _loss_node(z, y, weight=_leaf(weight)), np.array(3.0, dtype=np.float32))
    right = _sigmoid(z) - np.array(y, dtype=np.float32)
    see.near(got, N_("d loss/dz for z = [2, 0, -1], y = [0, 1, 1], weight = [1, 2, 0.5], for a gradient 3.0"), atol=1e-6,
             mistakes=[(right, LOSS_UNWEIGHTED)])
    got, target = gradients_of(see, _loss_node(z, y, pos_weight=_leaf([3.0, 3.0, 3.0])), np.array(1.0, dtype=np.float32))
    see.near(got, N_("d loss/dz for the same z and y, pos_weight = 3"), atol=1e-6)
    see.near(target, N_("d loss/dy for the same z and y, pos_weight = 3"), atol=1e-6)


@step("2.8")
def the_loss_rule_works_on_tensors(see):
    node = _loss_node([1.0, -1.0], [1.0, 0.0])
    grads = see.attempt(lambda: node.backward(Tensor._wrap(np.array(1.0, dtype=np.float32))), (MISUSED, ONLY_ARRAYS))
    see.require(isinstance(grads, (tuple, list)) and len(grads) == 2, TWO_GRADIENTS)
    see.near(list(grads), N_("the gradients of the loss for a tensor gradient, as with create_graph=True: tensors"),
             atol=1e-6)


@step("2.8")
def the_chapter_model_trains(see):
    x = draw.values(see.rng, (4, 5))
    w, b = _leaf(draw.values(see.rng, (5, 3)) / 2), _leaf(draw.values(see.rng, (3,)))
    y = Tensor._wrap((see.rng.random((4, 3)) < 0.5).astype(np.float32))
    z = relu(Tensor._wrap(x) @ w) + b
    _engine_backward(binary_cross_entropy_with_logits(z, y), 1.0)
    see.near(w._grad, N_("w.grad for the loss of relu(x @ w) + b, values drawn at random"), atol=1e-5)
    see.near(b._grad, N_("b.grad for the same loss"), atol=1e-5)

