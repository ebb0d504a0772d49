"""Checks for chapter 1, section 4: the local rules of ``+ -``, ``/``, ``**``, ``exp``, ``log``, ``sqrt`` and ``tanh``.

As for ``*`` (1.4), each check makes its node by hand and calls ``backward`` directly, once
the way the engine calls it (numpy arrays) and once as with ``create_graph=True`` (tensors).
"""
import numpy as np

from ...autograd.graph import Node
from ...autograd.saved_tensor import SavedTensor
from ...messages import N_
from ...ops.arithmetic import AddBackward0, DivBackward0, SubBackward0
from ...ops.pointwise import ExpBackward0, LogBackward0, SqrtBackward0, TanhBackward0
from ...ops.powers import PowBackward0, PowBackward1
from .. import draw, step
from .checks import NOT_SUMMED, _leaf, gradients_of, tensor_gradients_of

UNNEEDED = N_(
    "a gradient came back for an input that needs none (its needs_input_grad entry is False): that gradient must "
    "not even be computed, since what it needs may not be saved (reread exercise 1.4)."
)
ALPHA_IGNORED = N_(
    "alpha was ignored: other's gradient came back as if alpha were 1; look again at how other enters "
    "self + alpha * other and self - alpha * other (reread exercise 1.5)."
)
SIGN_FORGOTTEN = N_(
    "the sign of other's gradient in a subtraction is wrong: check which way self - other moves when other grows "
    "a little (reread exercise 1.5)."
)
QUOTIENT_SIGN = N_(
    "the sign of b's gradient is wrong: check which way a / b moves when b grows a little (reread exercise 1.6)."
)
QUOTIENT_SQUARE = N_(
    "b's gradient divides by the wrong power of b: differentiate 1 / b with respect to b again "
    "(reread exercise 1.6)."
)
NOT_LOWERED = N_(
    "the power of x in the gradient is wrong: it is still the exponent of x ** n itself; check what "
    "differentiating does to the exponent (reread exercise 1.7)."
)
NO_FACTOR = N_(
    "the power of x in the gradient is right, but a constant factor is missing: apply the whole power rule, "
    "not only its exponent (reread exercise 1.7)."
)
ZERO_EXPONENT = N_(
    "the gradient of x ** 0 is nan at x = 0, where the general formula breaks down; x ** 0 is a constant: see "
    "PyTorch's conventions at zero (reread exercise 1.7)."
)
AT_ZERO = N_(
    "at base 0 the gradients came out nan or -inf, as the formulas give there (0 * inf, 0 * log(0)); PyTorch "
    "follows a convention at those places, and a mask multiplied in does not remove a nan (reread PyTorch's "
    "conventions at zero, exercise 1.7)."
)
EXP_VALUE = N_(
    "exp's gradient misuses the saved value: the node saves its result exp(x), not x, so applying exp to it "
    "again, or dividing by it, computes something else (reread exercise 1.8)."
)
LOG_VALUE = N_(
    "log's gradient misuses the saved value: the node saves its input x, not log(x); check the derivative of "
    "log, and use the saved value as it is (reread exercise 1.8)."
)

SQRT_HALF = N_(
    "sqrt's gradient is off by a constant factor: write sqrt(x) as a power of x, apply 1.7's power rule, then "
    "express the result with the saved value (reread exercise 1.8)."
)
SQRT_VALUE = N_(
    "sqrt's gradient takes the square root of the saved value again: the node saves its result sqrt(x), not x, "
    "so this computes with x ** 0.25 (reread exercise 1.8)."
)
TANH_VALUE = N_(
    "tanh's gradient applies tanh (or cosh) to the saved value again: the node saves its result tanh(x), not x, "
    "so this computes with tanh(tanh(x)) (reread exercise 1.8)."
)


def _node(node_type, saved, need=(True, True), shapes=None):
    """A node of ``node_type`` made by hand: ``saved`` in its order, an edge for each input that
    ``need`` marks (the node's needs_input_grad), the inputs' shapes for broadcasting.
    Its constructor is passed by: a check chooses exactly what the node holds."""
    node = node_type.__new__(node_type)
    node._saved = tuple(saved)
    node.next_functions = tuple((Node() if n else None, 0) for n in need)
    if shapes is not None:
        node.self_shape, node.other_shape = shapes
    return node


def _saved(values):
    return SavedTensor(_leaf(values))


def _f32(values):
    return np.asarray(values, dtype=np.float32)


# ---------------------------------------------------------------- 1.5: + and -


def _sum_node(node_type, alpha, a_shape, b_shape, need=(True, True)):
    return _node(node_type, (alpha,), need, (a_shape, b_shape))


@step("1.5")
def add_and_sub_pass_the_gradient_on(see):
    grad = _f32([[1.0, -2.0, 0.5], [3.0, 0.0, -1.5]])
    grad_a, grad_b = gradients_of(see, _sum_node(AddBackward0, 1, (2, 3), (2, 3)), grad)
    see(grad_a, N_("d(a+b)/da"))
    see(grad_b, N_("d(a+b)/db"))
    grad_a, grad_b = gradients_of(see, _sum_node(SubBackward0, 1, (2, 3), (2, 3)), grad)
    see(grad_a, N_("d(a-b)/da"))
    see(grad_b, N_("d(a-b)/db"), mistakes=[(grad, SIGN_FORGOTTEN)])


@step("1.5")
def add_and_sub_scale_by_alpha(see):
    grad = _f32([1.0, -2.0, 0.5])
    _, grad_b = gradients_of(see, _sum_node(AddBackward0, 2.5, (3,), (3,)), grad)
    see(grad_b, N_("d(a + 2.5 * b)/db"), mistakes=[(grad, ALPHA_IGNORED)])
    _, grad_b = gradients_of(see, _sum_node(SubBackward0, 2.5, (3,), (3,)), grad)
    see(grad_b, N_("d(a - 2.5 * b)/db"), mistakes=[(-grad, ALPHA_IGNORED), (2.5 * grad, SIGN_FORGOTTEN),
                                                    (grad, SIGN_FORGOTTEN)])


@step("1.5")
def add_and_sub_undo_broadcasting(see):
    grad = _f32([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for node_type, sign in ((AddBackward0, 1), (SubBackward0, -1)):
        grad_a, grad_b = gradients_of(see, _sum_node(node_type, 1, (3,), (2, 1)), grad)
        see(grad_a, N_("the gradient for a (3,) broadcast with b (2, 1)"), mistakes=[(grad, NOT_SUMMED)])
        see(grad_b, N_("the gradient for b (2, 1) broadcast with a (3,)"), mistakes=[(sign * grad, NOT_SUMMED)])


@step("1.5")
def add_and_sub_skip_unneeded_gradients(see):
    grad = _f32([1.0, 2.0])
    for node_type in (AddBackward0, SubBackward0):
        grad_a, _ = gradients_of(see, _sum_node(node_type, 1, (2,), (2,), need=(False, True)), grad)
        see(grad_a, N_("the gradient for a, which needs none"), mistakes=[(grad, UNNEEDED)])
        _, grad_b = gradients_of(see, _sum_node(node_type, 1, (2,), (2,), need=(True, False)), grad)
        see(grad_b, N_("the gradient for b, which needs none"), mistakes=[(grad, UNNEEDED), (-grad, UNNEEDED)])


@step("1.5")
def add_and_sub_work_on_tensors(see):
    for node_type in (AddBackward0, SubBackward0):
        grads = tensor_gradients_of(see, _sum_node(node_type, 2.0, (3,), (2, 1)), np.ones((2, 3)))
        see(list(grads), N_("the gradients of a (3,) and b (2, 1), alpha 2, for a tensor gradient: tensors"))


@step("1.5")
def add_and_sub_on_drawn_values(see):
    shape = draw.shape(see.rng)
    a_shape, b_shape = draw.broadcast_source(see.rng, shape), draw.broadcast_source(see.rng, shape)
    grad, alpha = draw.values(see.rng, shape), float(see.rng.integers(-3, 4))
    for node_type in (AddBackward0, SubBackward0):
        grad_a, grad_b = gradients_of(see, _sum_node(node_type, alpha, a_shape, b_shape), grad)
        see(grad_a, N_("the gradient for a, shapes and alpha drawn at random"))
        see(grad_b, N_("the gradient for b, shapes and alpha drawn at random"))


# ---------------------------------------------------------------- 1.6: /


def _div_node(a, b, need=(True, True)):
    """A DivBackward0 for ``a / b``: self kept only if b needs a gradient, as ``div`` keeps it."""
    saved_a = _saved(a) if need[1] else None
    return _node(DivBackward0, (saved_a, _saved(b)), need, (np.shape(a), np.shape(b)))


@step("1.6")
def div_backward_is_the_quotient_rule(see):
    a, b, grad = _f32([1.0, 2.0, -3.0]), _f32([4.0, -2.0, 0.5]), _f32([1.0, 0.5, 2.0])
    grad_a, grad_b = gradients_of(see, _div_node(a, b), grad)
    see(grad_a, N_("d(a/b)/da"))
    see(grad_b, N_("d(a/b)/db"), mistakes=[(grad * a / (b * b), QUOTIENT_SIGN), (-grad * a / b, QUOTIENT_SQUARE),
                                          (grad * a / b, QUOTIENT_SQUARE)])


@step("1.6")
def div_backward_undoes_broadcasting(see):
    a, b, grad = _f32([[1.0], [2.0]]), _f32([1.0, 2.0, 4.0]), _f32(np.ones((2, 3)))
    grad_a, grad_b = gradients_of(see, _div_node(a, b), grad)
    see(grad_a, N_("d(a/b)/da, a (2, 1), b (3,)"), mistakes=[(grad / b, NOT_SUMMED)])
    see(grad_b, N_("d(a/b)/db, a (2, 1), b (3,)"), mistakes=[(-grad * a / (b * b), NOT_SUMMED)])


@step("1.6")
def div_backward_skips_unneeded_gradients(see):
    a, b, grad = _f32([1.0, 2.0]), _f32([4.0, 8.0]), _f32([1.0, 1.0])
    grad_a, grad_b = gradients_of(see, _div_node(a, b, need=(True, False)), grad, (TypeError, UNNEEDED))
    see(grad_a, N_("d(a/b)/da when only a needs a gradient"))
    see(grad_b, N_("the gradient for b, which needs none"))
    grad_a, _ = gradients_of(see, _div_node(a, b, need=(False, True)), grad)
    see(grad_a, N_("the gradient for a, which needs none"), mistakes=[(grad / b, UNNEEDED)])


@step("1.6")
def div_backward_works_on_tensors(see):
    grads = tensor_gradients_of(see, _div_node(_f32([1.0, 2.0, 3.0]), _f32([[2.0], [4.0]])), np.ones((2, 3)))
    see(list(grads), N_("the gradients of a (3,) / b (2, 1) for a tensor gradient: tensors"))


@step("1.6")
def div_backward_on_drawn_values(see):
    shape = draw.shape(see.rng)
    a = draw.values(see.rng, draw.broadcast_source(see.rng, shape))
    b = draw.values(see.rng, draw.broadcast_source(see.rng, shape))
    b = np.where(b == 0, 0.5, b).astype(np.float32)  # no division by zero
    grad_a, grad_b = gradients_of(see, _div_node(a, b), draw.values(see.rng, shape))
    see(grad_a, N_("d(a/b)/da for values and shapes drawn at random"))
    see(grad_b, N_("d(a/b)/db for values and shapes drawn at random"))


# ---------------------------------------------------------------- 1.7: **


def _pow_node(x, exponent):
    return _node(PowBackward0, (_saved(x), exponent), need=(True,))


def _pow_gradient(see, x, exponent, grad):
    (grad_x,) = gradients_of(see, _pow_node(x, exponent), grad, inputs=1)
    return grad_x


@step("1.7")
def pow_backward_is_the_power_rule(see):
    x, grad = _f32([0.5, 2.0, -1.5, 3.0]), _f32([1.0, 2.0, 0.5, -1.0])
    see(_pow_gradient(see, x, 3, grad), N_("d(x ** 3)/dx"),
        mistakes=[(grad * 3 * x ** 3, NOT_LOWERED), (grad * x ** 2, NO_FACTOR)])
    positive = np.abs(x)
    see(_pow_gradient(see, positive, 0.5, grad), N_("d(x ** 0.5)/dx"),
        mistakes=[(grad * 0.5 * positive ** 0.5, NOT_LOWERED), (grad * positive ** -0.5, NO_FACTOR)])
    see(_pow_gradient(see, x, -2, grad), N_("d(x ** -2)/dx"),
        mistakes=[(grad * -2 * x ** -2, NOT_LOWERED), (grad * x ** -3, NO_FACTOR)])


@step("1.7")
def pow_backward_of_exponent_zero(see):
    x, grad = _f32([0.0, 2.0, -1.0]), _f32([1.0, 1.0, 1.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        formula = grad * 0 * x ** -1.0
    see(_pow_gradient(see, x, 0, grad), N_("d(x ** 0)/dx, also at x = 0"), mistakes=[(formula, ZERO_EXPONENT)])


def _pow1_node(x, e, need=(True, True)):
    result = np.power(x, e)
    saved = (_saved(x), _saved(e), _saved(result))
    return _node(PowBackward1, saved, need, (np.shape(x), np.shape(e)))


@step("1.7")
def pow_of_two_tensors(see):
    x, e, grad = _f32([2.0, 0.5, 3.0]), _f32([3.0, -1.0, 0.5]), _f32([1.0, 2.0, -1.0])
    grad_x, grad_e = gradients_of(see, _pow1_node(x, e), grad)
    see(grad_x, N_("d(x ** e)/dx for tensors x and e"), mistakes=[(grad * e * x ** e, NOT_LOWERED)])
    see(grad_e, N_("d(x ** e)/de for tensors x and e"))


@step("1.7")
def pow_of_two_tensors_at_zero(see):
    x, e, grad = _f32([0.0, 0.0, 0.0, 2.0, 0.0]), _f32([0.0, 2.0, 0.5, 0.0, -1.0]), _f32(np.ones(5))
    with np.errstate(divide="ignore", invalid="ignore"):
        formula_x = grad * (e * x ** (e - 1))
        formula_e = grad * (x ** e * np.log(x))
    grad_x, grad_e = gradients_of(see, _pow1_node(x, e), grad)
    see(grad_x, N_("d(x ** e)/dx at base 0, exponents 0, 2, 0.5, and at 2 ** 0"), mistakes=[(formula_x, AT_ZERO)])
    see(grad_e, N_("d(x ** e)/de at base 0, exponents 0, 2, 0.5, -1"), mistakes=[(formula_e, AT_ZERO)])


@step("1.7")
def pow_of_two_tensors_undoes_broadcasting_and_skips(see):
    x, e, grad = _f32([[1.0], [2.0]]), _f32([1.0, 2.0, 3.0]), _f32(np.ones((2, 3)))
    grad_x, grad_e = gradients_of(see, _pow1_node(x, e), grad)
    see(grad_x, N_("d(x ** e)/dx, x (2, 1), e (3,)"), mistakes=[(grad * e * x ** (e - 1), NOT_SUMMED)])
    see(grad_e, N_("d(x ** e)/de, x (2, 1), e (3,)"), mistakes=[(grad * x ** e * np.log(x), NOT_SUMMED)])
    _, grad_e = gradients_of(see, _pow1_node(x, e, need=(True, False)), grad)
    see(grad_e, N_("the gradient for e, which needs none"), mistakes=[(np.sum(x ** e * np.log(x), 0), UNNEEDED)])
    grad_x, _ = gradients_of(see, _pow1_node(x, e, need=(False, True)), grad)
    see(grad_x, N_("the gradient for x, which needs none"),
        mistakes=[(np.sum(e * x ** (e - 1), 1, keepdims=True), UNNEEDED)])


@step("1.7")
def pow_backward_works_on_tensors(see):
    (grad_x,) = tensor_gradients_of(see, _pow_node(_f32([1.0, -2.0, 0.0]), 3), np.ones(3), inputs=1)
    see(grad_x, N_("d(x ** 3)/dx for a tensor gradient: a tensor"))
    grads = tensor_gradients_of(see, _pow1_node(_f32([0.0, 2.0, 3.0]), _f32([[0.0], [2.0]])), np.ones((2, 3)))
    see(list(grads), N_("the gradients of x (3,) ** e (2, 1), x holding 0, for a tensor gradient: tensors"))


@step("1.7")
def pow_backward_on_drawn_values(see):
    shape = draw.shape(see.rng)
    x = np.abs(draw.values(see.rng, shape)) + 0.5  # positive: any exponent is defined
    exponent = float(see.rng.choice([2, 3, -1, 0.5, 1.5, -2.5]))
    see(_pow_gradient(see, x, exponent, draw.values(see.rng, shape)), N_("d(x ** n)/dx, x and n drawn at random"))
    e = draw.values(see.rng, draw.broadcast_source(see.rng, shape))
    grad_x, grad_e = gradients_of(see, _pow1_node(x, e), draw.values(see.rng, shape))
    see.near(grad_x, N_("d(x ** e)/dx, x, e and their shapes drawn at random"), atol=1e-4)
    see.near(grad_e, N_("d(x ** e)/de, x, e and their shapes drawn at random"), atol=1e-4)


# ---------------------------------------------------------------- 1.8: exp and log


def _exp_gradient(see, x, grad):
    node = _node(ExpBackward0, (_saved(np.exp(x)),), need=(True,))
    (grad_x,) = gradients_of(see, node, grad, inputs=1)
    return grad_x


def _log_gradient(see, x, grad):
    (grad_x,) = gradients_of(see, _node(LogBackward0, (_saved(x),), need=(True,)), grad, inputs=1)
    return grad_x


@step("1.8")
def exp_backward_uses_its_result(see):
    x, grad = _f32([0.0, 1.0, -2.0, 0.5]), _f32([1.0, 2.0, -1.0, 0.5])
    result = np.exp(x)
    see(_exp_gradient(see, x, grad), N_("d exp(x)/dx"),
        mistakes=[(grad * np.exp(result), EXP_VALUE), (grad / result, EXP_VALUE)])


@step("1.8")
def log_backward_uses_its_input(see):
    x, grad = _f32([0.5, 1.5, 2.0, 4.0]), _f32([1.0, 2.0, -1.0, 0.5])
    see(_log_gradient(see, x, grad), N_("d log(x)/dx"),
        mistakes=[(grad * x, LOG_VALUE), (grad / np.log(x), LOG_VALUE), (grad / np.exp(x), LOG_VALUE)])


@step("1.8")
def exp_and_log_work_on_tensors(see):
    x = _f32([0.5, 1.0, 2.0])
    node = _node(ExpBackward0, (_saved(np.exp(x)),), need=(True,))
    see(list(tensor_gradients_of(see, node, np.ones(3), inputs=1)), N_("d exp(x)/dx for a tensor gradient: a tensor"))
    node = _node(LogBackward0, (_saved(x),), need=(True,))
    see(list(tensor_gradients_of(see, node, np.ones(3), inputs=1)), N_("d log(x)/dx for a tensor gradient: a tensor"))


@step("1.8")
def exp_and_log_on_drawn_values(see):
    shape = draw.shape(see.rng)
    x, grad = draw.values(see.rng, shape), draw.values(see.rng, shape)
    see(_exp_gradient(see, x, grad), N_("d exp(x)/dx for values drawn at random"))
    positive = np.abs(x) + 0.5
    see(_log_gradient(see, positive, grad), N_("d log(x)/dx for values drawn at random"))


def _from_result(see, node_type, result, grad):
    """The gradient from a node that saved its result ``result`` (sqrt, tanh)."""
    (grad_x,) = gradients_of(see, _node(node_type, (_saved(result),), need=(True,)), grad, inputs=1)
    return grad_x


@step("1.8")
def sqrt_backward_uses_its_result(see):
    result, grad = np.sqrt(_f32([0.25, 1.0, 4.0, 9.0])), _f32([1.0, 2.0, -1.0, 0.5])
    see(_from_result(see, SqrtBackward0, result, grad), N_("d sqrt(x)/dx"),
        mistakes=[(grad / result, SQRT_HALF), (grad / (2 * np.sqrt(result)), SQRT_VALUE),
                  (grad / np.sqrt(result), SQRT_HALF)])


@step("1.8")
def tanh_backward_uses_its_result(see):
    result, grad = np.tanh(_f32([0.0, 0.5, -1.0, 2.0])), _f32([1.0, 2.0, -1.0, 0.5])
    see(_from_result(see, TanhBackward0, result, grad), N_("d tanh(x)/dx"),
        mistakes=[(grad * (1 - np.tanh(result) ** 2), TANH_VALUE)])


@step("1.8")
def sqrt_and_tanh_on_tensors_and_drawn_values(see):
    for node_type in (SqrtBackward0, TanhBackward0):
        node = _node(node_type, (_saved(_f32([0.5, 1.0, 2.0])),), need=(True,))
        see(list(tensor_gradients_of(see, node, np.ones(3), inputs=1)),
            N_("d sqrt(x)/dx and d tanh(x)/dx for a tensor gradient: tensors"))
    shape = draw.shape(see.rng)
    x, grad = draw.values(see.rng, shape), draw.values(see.rng, shape)
    see(_from_result(see, SqrtBackward0, np.sqrt(np.abs(x) + 0.5), grad), N_("d sqrt(x)/dx for values drawn at random"))
    see(_from_result(see, TanhBackward0, np.tanh(x), grad), N_("d tanh(x)/dx for values drawn at random"))
