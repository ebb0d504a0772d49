"""Running one scenario on minigrad and on PyTorch, and comparing what each reports: its values, graph and
gradients (``assert_same``), or plain values, reprs and error texts (``same``); gradients also against
central differences (``assert_differences``)."""
import numpy as np

import minigrad as mg
from support.helpers import central_differences


def graph(fn):
    """A graph as nested (node name, [inputs]), with None where an input needs no gradient."""
    if fn is None:
        return None
    return (fn.name().replace("torch::autograd::", ""), [graph(f) for f, _ in fn.next_functions])


def upstream(shape):
    """A gradient to start backward with, never uniform."""
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape)


def run(lib, fn, arrays, needs_grad):
    """``fn(lib, *tensors)``, then backward from ``upstream``: the output, its graph and the
    gradients of the inputs that need one."""
    tensors = [lib.tensor(a, requires_grad=g) for a, g in zip(arrays, needs_grad)]
    out = fn(lib, *tensors)
    value = out.detach().numpy().copy()
    out.backward(lib.tensor(upstream(value.shape).astype(value.dtype)))
    return value, graph(out.grad_fn), [t.grad.numpy().copy() for t, g in zip(tensors, needs_grad) if g]


def assert_same(fn, arrays, needs_grad, torch, whole_graph=True, rtol=1e-7, atol=1e-10):
    value, nodes, grads = run(mg, fn, arrays, needs_grad)
    t_value, t_nodes, t_grads = run(torch, fn, arrays, needs_grad)
    assert (nodes if whole_graph else nodes[0]) == (t_nodes if whole_graph else t_nodes[0])
    assert value.dtype == t_value.dtype
    np.testing.assert_allclose(value, t_value, rtol=rtol, atol=atol)
    assert len(grads) == len(t_grads)
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=rtol, atol=atol)


def assert_differences(fn, arrays, needs_grad):
    """The gradients of Σ upstream · fn(...) against central differences, in float64."""
    _, _, grads = run(mg, fn, arrays, needs_grad)
    wanted = [i for i, g in enumerate(needs_grad) if g]
    for grad, i in zip(grads, wanted):
        def f(v, i=i):
            tensors = [mg.tensor(v if j == i else a) for j, a in enumerate(arrays)]
            out = fn(mg, *tensors).numpy()
            return float((out * upstream(out.shape)).sum())

        np.testing.assert_allclose(grad, central_differences(f, arrays[i].copy())[0], rtol=1e-6, atol=1e-8)


def attempt(action):
    """What ``action()`` returns, or its error as ``Name: text``."""
    try:
        return action()
    except (RuntimeError, TypeError, ValueError, AssertionError) as error:
        return f"{type(error).__name__}: {error}"


def plain(value):
    """A report as plain Python values (a tensor as its dtype name, shape and numbers)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        array = value.detach().numpy()
        return str(value.dtype), list(array.shape), array.tolist()
    return value


def same(torch, scenario):
    assert plain(scenario(mg)) == plain(scenario(torch))
