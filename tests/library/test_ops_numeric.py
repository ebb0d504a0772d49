"""Every operation's gradient against float64 central differences (no PyTorch needed).

For an operation ``out = f(x, ...)`` and a fixed, non-uniform ``seed`` shaped like
``out``, backward computes the gradient of ``L = sum(out * seed)``; each element of
that gradient must equal ``(L(x + h) - L(x - h)) / 2h`` for the matching element of
``x``. The operations and their inputs come from ``strategies.py``; run with
``--hypothesis-show-statistics`` to see how many examples each test ran.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from support.strategies import EXAMPLES, OPS, arrays_in, as_arguments, leaves

STEP = 1e-6
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:minigrad")


def _float_outputs(result):
    """The floating outputs (``max(dim)`` also returns integer indices, which have no gradient)."""
    outputs = list(result) if isinstance(result, tuple) else [result]
    return [out for out in outputs if out.dtype.is_floating_point]


def _seed(out):
    return np.cos(np.arange(out.numel()) + 0.5).reshape(tuple(out.shape))


def _loss(fn, drawn):
    """``sum(out * seed)`` over the floating outputs, computed without recording."""
    with minigrad.no_grad():
        outputs = _float_outputs(fn(minigrad, *as_arguments(minigrad, drawn)))
    return sum(float((out.detach().numpy() * _seed(out)).sum()) for out in outputs)


def numeric_gradient(fn, drawn, array):
    """Central differences of the loss for each element of ``array`` (one of the inputs)."""
    gradient = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        original = array[index]
        array[index] = original + STEP
        above = _loss(fn, drawn)
        array[index] = original - STEP
        below = _loss(fn, drawn)
        array[index] = original
        gradient[index] = (above - below) / (2 * STEP)
    return gradient


def check_gradients(fn, drawn):
    """Backward's gradients for every input must match the numeric ones."""
    arguments = as_arguments(minigrad, drawn)
    outputs = _float_outputs(fn(minigrad, *arguments))
    minigrad.autograd.backward(outputs, [minigrad.tensor(_seed(out)) for out in outputs])
    for array, leaf in zip(arrays_in(drawn), leaves(arguments)):
        expected = numeric_gradient(fn, drawn, array)
        actual = np.zeros_like(array) if leaf.grad is None else leaf.grad.numpy()
        assert actual.dtype == np.float64 and np.allclose(actual, expected, rtol=1e-5, atol=1e-6), (
            f"\ninputs:   {drawn!r}\nexpected: {expected!r}\nactual:   {actual!r}"
        )


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
@settings(derandomize=True, deadline=None, max_examples=EXAMPLES, database=None)
@given(data=st.data())
def test_gradient_matches_finite_differences(op, data):
    check_gradients(op.fn, data.draw(op.inputs(np.float64), label="inputs"))
