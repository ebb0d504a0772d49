"""A leaf keeps the first gradient it receives, without a copy, only when nothing else holds it.

The gradients here are 256 x 256 (256 KiB): big enough for the engine to consider
keeping them (smaller ones are always copied). Each sharing case is run under minigrad
and, when it is installed, PyTorch: after a later in-place change of one holder, every
other holder must still show its own values.
"""
import numpy as np
import pytest

import minigrad
from minigrad.autograd import ownership

N = 256


def leaf(lib, value=1.0):
    return lib.full((N, N), value, requires_grad=True)


def seed(lib, value=1.0):
    return lib.full((N, N), value)


@pytest.fixture
def owned_flags(monkeypatch):
    """For every first gradient a leaf receives, in order: whether the leaf keeps it as it is."""
    flags = []
    take = ownership.take

    def recording(grad):
        flags.append(take(grad))
        return flags[-1]

    monkeypatch.setattr(ownership, "take", recording)
    return flags


def test_the_gradients_of_a_matrix_product_are_kept_without_a_copy(owned_flags):
    rng = np.random.default_rng(0)
    a = minigrad.tensor(rng.standard_normal((N, N)).astype(np.float32), requires_grad=True)
    b = minigrad.tensor(rng.standard_normal((N, N)).astype(np.float32), requires_grad=True)
    (a @ b).backward(seed(minigrad))
    assert owned_flags == [True, True]
    ones = np.ones((N, N), np.float32)
    np.testing.assert_allclose(a.grad.numpy(), ones @ b.detach().numpy().T, rtol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), a.detach().numpy().T @ ones, rtol=1e-5)


def test_small_gradients_are_always_copied(owned_flags):
    a = minigrad.ones(4, requires_grad=True)
    (a * 2).sum().backward()
    assert owned_flags == [False]


def test_a_seed_is_the_callers_and_is_copied(lib):
    a, b = leaf(lib), leaf(lib)
    gradient = seed(lib, 2.0)
    (a + b).backward(gradient)  # both leaves receive the seed's own array
    gradient.zero_()
    a.grad.mul_(10)
    assert float(b.grad.sum()) == 2.0 * N * N
    assert float(a.grad.sum()) == 20.0 * N * N


def test_two_leaves_given_one_array_get_one_each(lib):
    a, b = leaf(lib), leaf(lib)
    ((a + b) * 3).backward(seed(lib))  # MulBackward0 makes a new array; AddBackward0 hands it to both
    a.grad.zero_()
    assert float(b.grad.sum()) == 3.0 * N * N


def test_a_leaf_does_not_keep_an_array_a_waiting_node_holds(lib):
    a, b = leaf(lib), leaf(lib)
    m = b * 1
    kept = []
    m.register_hook(kept.append)  # m's node has not run when a's AccumulateGrad does
    ((a + m) * 3).backward(seed(lib))
    a.grad.zero_()
    assert float(kept[0].sum()) == 3.0 * N * N
    assert float(b.grad.sum()) == 3.0 * N * N


def test_a_gradient_a_leaf_hook_kept_stays_as_it_was(lib):
    a = leaf(lib)
    kept = []
    a.register_hook(kept.append)
    out = a * 2
    out.backward(seed(lib), retain_graph=True)
    out.backward(seed(lib))  # added into a.grad in place
    assert float(a.grad.sum()) == 4.0 * N * N
    assert float(kept[0].sum()) == 2.0 * N * N


def test_gradients_a_node_hook_saw_stay_as_they_were(lib):
    a, b = leaf(lib), leaf(lib)
    product = a * b
    seen = []
    product.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
    product.backward(seed(lib))
    a.grad.zero_()
    b.grad.zero_()
    assert [float(g.sum()) for g in seen[0]] == [1.0 * N * N, 1.0 * N * N]


def test_a_custom_function_may_return_a_tensor_it_holds(lib):
    held = seed(lib, 5.0)

    class Constant(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad_output):
            return held

    x = leaf(lib)
    Constant.apply(x).backward(seed(lib))
    x.grad.zero_()
    assert float(held.sum()) == 5.0 * N * N


def test_a_kept_gradient_accumulates_over_a_second_backward(lib):
    a, b = leaf(lib, 2.0), leaf(lib, 3.0)
    out = a @ b
    out.backward(seed(lib), retain_graph=True)
    out.backward(seed(lib))
    assert float(a.grad[0, 0]) == 2 * 3.0 * N
    assert float(b.grad[0, 0]) == 2 * 2.0 * N


def test_with_create_graph_the_first_gradient_is_a_recorded_copy(lib):
    x = lib.ones(3, requires_grad=True)
    (x * x).sum().backward(create_graph=True)
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"
    a, b = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
    (a + b).sum().backward(create_graph=True)
    assert a.grad is not b.grad and a.grad.grad_fn is None
    a.grad.zero_()
    assert b.grad.tolist() == [1.0, 1.0, 1.0]


def test_with_create_graph_a_retained_gradient_is_a_recorded_clone(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward(create_graph=True)
    assert type(y.grad.grad_fn).__name__ == "CloneBackward0"
    a = lib.ones(3, requires_grad=True)
    b, c = a * 1, a * 1
    b.retain_grad()
    c.retain_grad()
    (b + c).sum().backward(create_graph=True)  # both receive the same gradient
    assert b.grad is not c.grad
    b.grad.zero_()
    assert c.grad.tolist() == [1.0, 1.0, 1.0]
