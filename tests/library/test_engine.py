"""The engine on the graph shapes that broke other teaching libraries.

Each graph is written once as a function of its leaves; the gradients minigrad
computes are compared with float64 central differences always, and with PyTorch's
when it is installed.
"""
import numpy as np
import pytest

import minigrad
from support.helpers import central_differences

try:
    import torch
except ImportError:
    torch = None


def used_twice(lib, a):
    return (a + a).sum()


def squared_by_itself(lib, a):
    return (a * a).sum()


def diamond(lib, x):
    h = x * 2
    return (h * h + h).sum()


def two_paths_different_lengths(lib, x):
    y = x.exp()
    return (y * x.sin() + y.tanh() * 3).mean()


def broadcast_layer(lib, w, b):
    x = lib.ones(4, 3, dtype=w.dtype)
    return lib.sigmoid(lib.matmul(x, w) + b).sum()


def worked_example(lib, x):
    y = x + 2
    return (y * y * 3).mean()


def vector_times_matrix(lib, w, b):
    z = lib.matmul(lib.ones(5, dtype=w.dtype), w) + b
    return lib.nn.functional.binary_cross_entropy_with_logits(z, lib.zeros(3, dtype=w.dtype))


GRAPHS = [
    (used_twice, [(3,)]),
    (squared_by_itself, [(2, 2)]),
    (diamond, [(3,)]),
    (two_paths_different_lengths, [(2, 3)]),
    (broadcast_layer, [(3, 2), (2,)]),
    (worked_example, [(2, 2)]),
    (vector_times_matrix, [(5, 3), (3,)]),
]


def leaves(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, size=shape) for shape in shapes]


def minigrad_gradients(graph, arrays, dtype=np.float64):
    xs = [minigrad.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    graph(minigrad, *xs).backward()
    return [x.grad.numpy() for x in xs]


def numerical_gradients(graph, arrays):
    """Central differences in float64 (small graphs only)."""
    def value(*values):
        return graph(minigrad, *[minigrad.tensor(v) for v in values]).item()

    return central_differences(value, *[a.copy() for a in arrays])


@pytest.mark.parametrize("graph, shapes", GRAPHS, ids=[g.__name__ for g, _ in GRAPHS])
def test_gradients_match_finite_differences(graph, shapes):
    arrays = leaves(shapes)
    for got, want in zip(minigrad_gradients(graph, arrays), numerical_gradients(graph, arrays)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("graph, shapes", GRAPHS, ids=[g.__name__ for g, _ in GRAPHS])
def test_gradients_match_pytorch(graph, shapes, dtype):
    arrays = [a.astype(dtype) for a in leaves(shapes)]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    graph(torch, *ts).backward()
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    for got, t in zip(minigrad_gradients(graph, arrays, dtype), ts):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, t.grad.numpy(), rtol=tolerance, atol=tolerance)


def test_a_plus_a_keeps_both_edges():
    a = minigrad.ones(3, requires_grad=True)
    y = a + a
    (left, _), (right, _) = y.grad_fn.next_functions
    assert left is right and left.name() == "torch::autograd::AccumulateGrad"


def test_a_10000_deep_chain_and_a_million_nodes():
    x = minigrad.ones(1, requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0001**10_000], rtol=1e-3)


def test_backward_twice_with_retain_graph_accumulates():
    x = minigrad.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    out.backward(retain_graph=True)
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 2), 9.0))
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()


def test_backward_twice_without_saved_tensors_is_allowed():
    x = minigrad.ones(3, requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_non_scalar_output_needs_a_gradient():
    y = minigrad.ones(3, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        y.backward()


def test_only_leaves_accumulate():
    x = minigrad.ones(3, requires_grad=True)
    y = x * 3
    y.sum().backward()
    assert y._grad is None
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert y.grad is None


def test_saved_tensors_are_freed_after_backward():
    x = minigrad.ones(1000, requires_grad=True)
    h = x.exp()
    out = (h * h).sum()
    mul_node = out.grad_fn.next_functions[0][0]
    exp_node = mul_node.next_functions[0][0]
    out.backward()
    for node in (mul_node, exp_node):
        assert all(getattr(saved, "_array", None) is None for saved in node._saved)
    with pytest.raises(RuntimeError, match="second time"):
        mul_node._saved_self
