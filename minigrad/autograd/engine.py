"""The backward engine: runs the graph's nodes from the output back to the leaves.

A node may only run once every gradient for its output has arrived: when a tensor is
used twice (``a + a``, or a diamond), its node receives two gradients, and their sum
is what it must pass on. So the engine first counts, for each node, how many edges
lead into it (its *dependencies*), then runs a node when that count falls to zero:
a topological order, found without recursion, so a graph a million nodes deep works.
"""
import contextlib
import heapq

import numpy as np

from . import grad_mode
from .graph import GraphRoot, Node


def compute_dependencies(root):
    """Count, for every node reachable from ``root``, the edges that lead into it.

    A node used by two later nodes (or twice by one, as in ``a + a``) gets 2. Walk the
    graph with an explicit stack, never recursion, and visit each node once.
    """
    raise NotImplementedError("step 2.1: your code goes here (see the chapter's exercise)")


def execute(root, keep_graph=False):
    """Run every node reachable from ``root`` once, in an order that respects dependencies.

    Each node's incoming gradients are summed in a buffer; when its last dependency
    has delivered, the node runs, and its results go to the buffers of its
    ``next_functions``. Among ready nodes the most recently created runs first, as in
    PyTorch. Returns the nodes in the order they ran (the pictures use it).
    """
    dependencies = compute_dependencies(root)
    buffers = {root: [None]}
    ready = [(0, 0, root)]
    order = []
    raise NotImplementedError("step 2.3: your code goes here (see the chapter's exercise)")
    return order


_observers = []  # callbacks told of every node the engine runs (the pictures use this)


def run_node(node, grads):
    """Call one node's backward (with its hooks) and return one gradient per edge."""
    results = _call(node, grads)
    for observer in _observers:
        observer(node, grads, results)
    return results


def _call(node, grads):
    hooks = node._hooks
    if hooks is not None:
        grads = _before(node, hooks, grads)
    if type(node) is GraphRoot:
        results = node.backward()
    elif all(g is None for g in grads):  # nothing arrived: pass "no gradient" on
        results = (None,) * len(node.next_functions)
    else:
        results = node.backward(*grads)
        if type(results) is not tuple:
            results = (results,)
        if len(results) != len(node.next_functions):
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {len(node.next_functions)}, got {len(results)})"
            )
    if hooks is not None and hooks.post:
        _after(hooks, results, grads)
    return results


def validate(node, next_node, grad):
    """Check a gradient against the shape it flows into; cast it to that dtype.

    A gradient that is a broadcast of the right shape is summed down, as PyTorch's
    engine does; any other shape is a bug in ``node``'s backward and is named.
    """
    shape = next_node._shape
    if grad.shape != shape:
        from ..shape import is_expandable_to, sum_to

        if not is_expandable_to(shape, grad.shape):
            index = [n for n, _ in node.next_functions].index(next_node)
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(shape)}"
            )
        grad = sum_to(grad, shape)
    if grad.dtype != next_node._dtype:
        if isinstance(grad, (np.ndarray, np.generic)):
            grad = grad.astype(next_node._dtype)
        else:
            from ..dtypes import from_numpy

            grad = grad.to(from_numpy(next_node._dtype))
    return grad


def _before(node, hooks, grads):
    """Tensor hooks, then ``retain_grad``, then node pre-hooks may see or replace the gradients."""
    from .graph import grad_tensor

    grads = list(grads)
    for nr, tensor_hooks in hooks.tensor_pre.items():
        for hook in list(tensor_hooks):
            if grads[nr] is not None:
                replaced = hook(grad_tensor(grads[nr]))
                if replaced is not None:
                    grads[nr] = replaced if grad_mode._enabled else replaced._array
    for nr, ref in hooks.retain.items():
        tensor = ref()
        if tensor is not None and grads[nr] is not None:
            _retain(tensor, grads[nr])
    for hook in list(hooks.pre.values()):
        replaced = hook(tuple(None if g is None else grad_tensor(g) for g in grads))
        if replaced is not None:
            grads = [None if g is None else (g if grad_mode._enabled else g._array) for g in replaced]
    return grads


def _retain(tensor, grad):
    from ..tensor import Tensor

    if tensor._grad is None:
        tensor._grad = grad if isinstance(grad, Tensor) else Tensor._wrap(np.array(grad))
    else:
        tensor._grad = tensor._grad + grad


def _after(hooks, results, grads):
    from .graph import grad_tensor

    wrap = lambda gs: tuple(None if g is None else grad_tensor(g) for g in gs)  # noqa: E731
    for hook in list(hooks.post.values()):
        hook(wrap(results), wrap(grads))


@contextlib.contextmanager
def observe(callback):
    """Call ``callback(node, grads_in, grads_out)`` for each node run inside the block."""
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


def run_backward(edges, grads, keep_graph, create_graph):
    """Seed ``edges`` with ``grads`` and run the graph behind them."""
    previous = grad_mode._enabled
    grad_mode._set_enabled(create_graph)
    try:
        return execute(GraphRoot(edges, grads), keep_graph)
    finally:
        grad_mode._set_enabled(previous)


__all__ = ["compute_dependencies", "execute", "run_backward", "Node"]
