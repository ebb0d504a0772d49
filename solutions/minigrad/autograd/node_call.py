"""Running one node during backward: everything around the call of its ``backward``.

The engine's loop (``engine.execute``) decides *when* a node runs; this module does
what PyTorch does around each run: the hooks on the node and on the tensors it made,
``retain_grad``, the partial graph of ``autograd.grad`` (``graph_task``), observers
(the pictures, anomaly detection), and the checks of the gradients a node returns.
"""
import contextlib

import numpy as np

from ..dtypes import from_numpy
from ..shape import is_expandable_to, sum_to
from ..tensor import Tensor
from . import grad_mode, graph_task, ownership
from .graph import AccumulateGrad, GraphRoot
from .hook_calls import run_tensor_hooks
from .node_api import grad_tensor

observers = []  # callbacks told of every node the engine runs (the pictures use this)


def run_node(node, grads):
    """Call one node's backward (with its hooks) and return one gradient per edge.

    A plain ``backward()`` runs every node. ``autograd.grad`` and ``backward(inputs=...)``
    want some gradients only: their ``GraphTask`` is consulted before and after each node.
    """
    task = graph_task.current
    if task is not None and not task.admit(node, grads, _tensor_hooks):
        return (None,) * len(node.next_functions)
    hooks = node._hooks
    if hooks is not None and type(node) is AccumulateGrad:  # its leaf's tensor hooks come first
        results = _accumulate_hooked(node, hooks, grads)
    else:
        if hooks is not None:
            grads = _before(node, hooks, grads)
        if grads[0] is None and _all_none(grads):  # nothing arrived (the root needs nothing)
            results = node.backward() if type(node) is GraphRoot else (None,) * len(node.next_functions)
        else:
            # One gradient (most nodes): a plain call, which Python 3.11 makes faster than ``*grads``.
            results = node.backward(grads[0]) if len(grads) == 1 else node.backward(*grads)
            if type(results) is not tuple:
                results = (results,)
            if len(results) != len(node.next_functions):
                raise RuntimeError(
                    f"function {node.name()} returned an incorrect number of gradients "
                    f"(expected {len(node.next_functions)}, got {len(results)})"
                )
        if hooks is not None and hooks.post:
            results = _after(hooks, results, grads)
    if observers:
        ownership.outsiders_run()
        for observer in observers:
            observer(node, grads, results)
    if task is not None:
        task.ran(node)
    return results


def _accumulate_hooked(node, hooks, grads):
    """A leaf's ``AccumulateGrad`` with node hooks, in PyTorch's order: the leaf's tensor hooks,
    the node's pre-hooks, the accumulation (and post-accumulate-grad hooks), the node's post-hooks."""
    grad = grads[0]
    if grad is not None and node.variable._hooks:
        grad = run_tensor_hooks(node.variable._hooks, grad)
    grads = _before(node, hooks, [grad])
    if grads[0] is not None:
        node.accumulate(grads[0])
    if hooks.post:
        _after(hooks, (), grads)
    return ()


def _all_none(grads):
    for grad in grads:
        if grad is not None:
            return False
    return True


def validate(node, next_node, nr, grad):
    """Check a gradient against the shape of output ``nr`` of ``next_node``; cast it to that dtype.

    A gradient that is a broadcast of the right shape is summed down, as PyTorch's
    engine does; any other shape is a bug in ``node``'s backward and is named.
    """
    shape, dtype = (next_node._shape, next_node._dtype) if nr == 0 else next_node._output_meta(nr)
    if grad.shape != shape:
        grad = _sum_to_shape(node, next_node, grad, shape)
    grad_dtype = grad.dtype
    if grad_dtype is not dtype and grad_dtype != dtype:  # ``is`` first: the common case, and cheap
        grad = grad.astype(dtype) if isinstance(grad, _ARRAYS) else grad.to(from_numpy(dtype))
    return grad


_ARRAYS = (np.ndarray, np.generic)  # made once: numpy's module __getattr__ makes ``np.<name>`` slow


def _sum_to_shape(node, next_node, grad, shape):
    """A broadcast gradient summed down to ``shape``; a RuntimeError for any other shape."""
    if not is_expandable_to(shape, grad.shape):
        index = [n for n, _ in node.next_functions].index(next_node)
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index {index} - got "
            f"{list(grad.shape)} but expected shape compatible with {list(shape)}"
        )
    return sum_to(grad, shape)


def _before(node, hooks, grads):
    """Tensor hooks, then ``retain_grad``, then node pre-hooks may see or replace the gradients."""
    grads = _tensor_hooks(hooks, grads)
    for hook in list(hooks.pre.values()):
        ownership.outsiders_run()
        replaced = hook(tuple(None if g is None else grad_tensor(g) for g in grads))
        if replaced is not None:
            grads = [None if g is None else (g if grad_mode._enabled else g._array) for g in replaced]
    return grads


def _tensor_hooks(hooks, grads):
    """The hooks registered on the tensors this node made (``register_hook``, ``retain_grad``)."""
    grads = list(grads)
    for nr, tensor_hooks in hooks.tensor_pre.items():
        if grads[nr] is not None:
            grads[nr] = run_tensor_hooks(tensor_hooks, grads[nr])
        else:  # an output of a node with several that got no gradient: its hooks see None
            for hook in list(tensor_hooks.values()):
                hook(None)
    for nr, ref in hooks.retain.items():
        tensor = ref()
        if tensor is not None and grads[nr] is not None:
            _retain(tensor, grads[nr])
    return grads


def _retain(tensor, grad):
    """``retain_grad``: the first gradient is a copy (with create_graph, a recorded ``clone``)."""
    if tensor._grad is None:
        tensor._grad = grad.clone() if isinstance(grad, Tensor) else Tensor._wrap(np.array(grad))
    else:
        tensor._grad = tensor._grad + grad


def _after(hooks, results, grads):
    """Node post-hooks see the gradients computed and arrived; one that returns a tuple replaces the former."""
    wrap = lambda gs: tuple(None if g is None else grad_tensor(g) for g in gs)  # noqa: E731
    ownership.outsiders_run()
    for hook in list(hooks.post.values()):
        replaced = hook(wrap(results), wrap(grads))
        if replaced is not None:
            results = tuple(None if g is None else (g if grad_mode._enabled else g._array) for g in replaced)
    return results


@contextlib.contextmanager
def observe(callback):
    """Call ``callback(node, grads_in, grads_out)`` for each node run inside the block."""
    observers.append(callback)
    try:
        yield
    finally:
        observers.remove(callback)
