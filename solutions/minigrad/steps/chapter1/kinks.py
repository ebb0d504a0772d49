"""Checks for chapter 1's optional challenge (C1): the rules of ``abs`` and ``clamp`` at their kinks.

Where a function bends, the derivative is not defined; PyTorch picks a value there, and
gradients must agree with PyTorch's everywhere, kinks included.
"""
import numpy as np

from ...messages import N_
from ...ops.pointwise import AbsBackward0, ClampBackward1
from .. import draw, step
from .checks import gradients_of, tensor_gradients_of
from .rules import _f32, _node, _saved

ABS_AT_ZERO = N_(
    "abs has a kink at 0, where PyTorch's gradient is 0 (it takes the sign of 0 to be 0), neither the "
    "gradient nor its opposite (reread the challenge of chapter 1)."
)
BOUNDS_EXCLUDED = N_(
    "clamp's bounds count as inside: where the input equals min or max, PyTorch lets the gradient through "
    "(reread the challenge of chapter 1)."
)
NO_BOUND = N_(
    "a bound that was not given is None, and comparing with None fails: a missing bound limits nothing on "
    "its side (reread the challenge of chapter 1)."
)


def _abs_gradient(see, x, grad):
    (grad_x,) = gradients_of(see, _node(AbsBackward0, (_saved(x),), need=(True,)), grad, inputs=1)
    return grad_x


def _clamp_gradient(see, x, low, high, grad):
    node = _node(ClampBackward1, (low, high, _saved(x)), need=(True,))
    (grad_x,) = gradients_of(see, node, grad, (TypeError, NO_BOUND), inputs=1)
    return grad_x


@step("C1")
def abs_at_its_kink(see):
    x, grad = _f32([-2.0, -0.5, 0.0, 0.5, 3.0]), _f32([1.0, 2.0, 3.0, 4.0, 5.0])
    see(_abs_gradient(see, x, grad), N_("d|x|/dx at -2, -0.5, 0, 0.5, 3"),
        mistakes=[(grad * np.where(x >= 0, 1, -1), ABS_AT_ZERO), (grad * np.where(x > 0, 1, -1), ABS_AT_ZERO)])


@step("C1")
def clamp_lets_its_bounds_through(see):
    x, grad = _f32([-1.0, 0.0, 0.5, 1.0, 2.0]), _f32([1.0, 2.0, 3.0, 4.0, 5.0])
    excluded = [grad * ((x > 0) & (x < 1)), grad * ((x >= 0) & (x < 1)), grad * ((x > 0) & (x <= 1))]
    see(_clamp_gradient(see, x, 0.0, 1.0, grad), N_("d clamp(x, 0, 1)/dx at -1, 0, 0.5, 1, 2"),
        mistakes=[(wrong, BOUNDS_EXCLUDED) for wrong in excluded])


@step("C1")
def clamp_with_one_bound(see):
    x, grad = _f32([-1.0, 0.0, 2.0]), _f32([1.0, 2.0, 3.0])
    see(_clamp_gradient(see, x, 0.0, None, grad), N_("d clamp(x, min=0)/dx at -1, 0, 2"))
    see(_clamp_gradient(see, x, None, 0.0, grad), N_("d clamp(x, max=0)/dx at -1, 0, 2"))


@step("C1")
def clamp_with_crossed_bounds(see):
    x = _f32([0.0, 1.0, 1.5, 2.0, 3.0])
    see(_clamp_gradient(see, x, 2.0, 1.0, np.ones(5, dtype=np.float32)),
        N_("d clamp(x, min=2, max=1)/dx: every element becomes max, whatever x was"))


@step("C1")
def kinks_on_tensors(see):
    x = _f32([-1.0, 0.0, 1.0])
    grads = tensor_gradients_of(see, _node(AbsBackward0, (_saved(x),), need=(True,)), np.ones(3), inputs=1)
    see(list(grads), N_("d|x|/dx for a tensor gradient: a tensor"))
    grads = tensor_gradients_of(see, _node(ClampBackward1, (0.0, 1.0, _saved(x)), need=(True,)), np.ones(3), inputs=1)
    see(list(grads), N_("d clamp(x, 0, 1)/dx for a tensor gradient: a tensor"))


@step("C1")
def kinks_on_drawn_values(see):
    shape = draw.shape(see.rng)
    x, grad = draw.values(see.rng, shape), draw.values(see.rng, shape)
    low = float(see.rng.integers(-4, 1)) / 2
    high = low + float(see.rng.integers(0, 5)) / 2
    see(_abs_gradient(see, x, grad), N_("d|x|/dx for values drawn at random"))
    see(_clamp_gradient(see, x, low, high, grad), N_("d clamp(x, min, max)/dx for values and bounds drawn at random"))
