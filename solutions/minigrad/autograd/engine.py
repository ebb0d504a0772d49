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

from . import grad_mode, ownership
from .graph import AccumulateGrad, GraphRoot, Node, grad_tensor, run_tensor_hooks


def compute_dependencies(root):
    """Count, for every node reachable from ``root``, the edges that lead into it.

    A node used by two later nodes (or twice by one, as in ``a + a``) gets 2. Walk the
    graph with an explicit stack, never recursion, and visit each node once.
    """
    # BEGIN SOLUTION 2.1
    dependencies = {root: 0}
    stack = [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in dependencies:
                dependencies[next_node] = 0
                stack.append(next_node)
            dependencies[next_node] += 1
    return dependencies
    # END SOLUTION


def execute(root, keep_graph=False):
    """Run every node reachable from ``root`` once, in an order that respects dependencies.

    Each node's incoming gradients are summed in a buffer; when its last dependency
    has delivered, the node runs, and its results go to the buffers of its
    ``next_functions``. Among ready nodes the most recently created runs first, as in
    PyTorch. Returns the nodes in the order they ran (the pictures use it).
    """
    dependencies = compute_dependencies(root)
    buffers = {root: [None]}
    ownership.track(buffers)  # a leaf may keep a gradient only if no waiting node holds it
    ready = [(0, 0, root)]
    order = []
    # BEGIN SOLUTION 2.3
    tiebreak = 0
    while ready:
        node = heapq.heappop(ready)[2]
        grads = buffers.pop(node)
        results = run_node(node, grads)
        order.append(node)
        if not keep_graph:
            node._release()
        for (next_node, nr), grad in zip(node.next_functions, results):
            if next_node is None:
                continue
            buffer = buffers.get(next_node)
            if buffer is None:
                buffer = buffers[next_node] = [None] * next_node._num_outputs
            if grad is not None:
                grad = validate(node, next_node, nr, grad)
                buffer[nr] = grad if buffer[nr] is None else buffer[nr] + grad
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                tiebreak += 1
                heapq.heappush(ready, (-next_node._seq, tiebreak, next_node))
    # END SOLUTION
    return order


_task = None  # the GraphTask of the run in progress, when it computes chosen gradients only
_observers = []  # callbacks told of every node the engine runs (the pictures use this)


def run_node(node, grads):
    """Call one node's backward (with its hooks) and return one gradient per edge.

    A plain ``backward()`` runs every node. ``autograd.grad`` and ``backward(inputs=...)``
    want some gradients only: their ``GraphTask`` is consulted before and after each node.
    """
    task = _task
    if task is not None and not task.admit(node, grads):
        return (None,) * len(node.next_functions)
    hooks = node._hooks
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
        _after(hooks, results, grads)
    if _observers:
        ownership.outsiders_run()
        for observer in _observers:
            observer(node, grads, results)
    if task is not None:
        task.ran(node)
    return results


def _all_none(grads):
    for grad in grads:
        if grad is not None:
            return False
    return True


class GraphTask:
    """What a run that wants chosen gradients only must do differently, node by node.

    ``targets`` are the edges of the chosen tensors (a non-leaf's ``grad_fn`` and output,
    or a leaf's ``AccumulateGrad``). Only the nodes from which a target can be reached
    run, as in PyTorch: the others are skipped, and keep their saved tensors. Freeing
    is done here, for the nodes that ran, so the engine is started with ``keep_graph=True``.

    - ``capture=True`` (``autograd.grad``): the gradient arriving at each target is
      kept in ``captured`` and goes nowhere else: no ``AccumulateGrad`` runs, so no
      ``.grad`` changes. A target node runs only if it leads on to another target.
    - ``capture=False`` (``backward(inputs=...)``): the target nodes run too, so the
      chosen leaves accumulate into ``.grad`` (and non-leaves retain theirs).
    """

    def __init__(self, root, targets, capture, keep_graph):
        self.captured = [None] * len(targets)
        self._capture = {}  # node -> [(output_nr, index in captured)]
        if capture:
            for index, (node, nr) in enumerate(targets):
                self._capture.setdefault(node, []).append((nr, index))
        ends = {node for node, _ in targets}
        self._needed = _nodes_leading_to(root, ends)
        if not capture:
            self._needed |= ends
        self._keep_graph = keep_graph

    def admit(self, node, grads):
        """Capture what arrives at ``node`` if it is a target; tell whether it must run.

        As in PyTorch, a captured gradient has been through the tensor's hooks only
        if the node does not run (a running node applies them itself, after capture).
        """
        needed = node in self._needed
        captures = self._capture.get(node)
        if captures is not None:
            if not needed and node._hooks is not None:
                grads = _tensor_hooks(node._hooks, grads)
            if type(node) is AccumulateGrad and node.variable._hooks:
                grads = [run_tensor_hooks(node.variable._hooks, grads[0])]
            for nr, index in captures:
                self.captured[index] = grads[nr]
        return needed

    def ran(self, node):
        """Free what ``node`` saved, unless the graph is to be kept."""
        if not self._keep_graph:
            node._release()


def _nodes_leading_to(root, ends):
    """The nodes from which one of ``ends`` can be reached along at least one edge.

    A depth-first walk with an explicit stack (no recursion, as in ``compute_dependencies``):
    a node is decided once all its children are, so deep graphs are fine.
    """
    leading, seen = set(), {root}
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:
            stack.pop()
            if any(child in ends or child in leading for child, _ in node.next_functions):
                leading.add(node)
    return leading


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
        if isinstance(grad, _ARRAYS):
            grad = grad.astype(dtype)
        else:
            from ..dtypes import from_numpy

            grad = grad.to(from_numpy(dtype))
    return grad


_ARRAYS = (np.ndarray, np.generic)  # made once: numpy's module __getattr__ makes ``np.<name>`` slow


def _sum_to_shape(node, next_node, grad, shape):
    """A broadcast gradient summed down to ``shape``; a RuntimeError for any other shape."""
    from ..shape import is_expandable_to, sum_to

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
    for nr, ref in hooks.retain.items():
        tensor = ref()
        if tensor is not None and grads[nr] is not None:
            _retain(tensor, grads[nr])
    return grads


def _retain(tensor, grad):
    """``retain_grad``: the first gradient is a copy (with create_graph, a recorded ``clone``)."""
    from ..tensor import Tensor

    if tensor._grad is None:
        tensor._grad = grad.clone() if isinstance(grad, Tensor) else Tensor._wrap(np.array(grad))
    else:
        tensor._grad = tensor._grad + grad


def _after(hooks, results, grads):
    wrap = lambda gs: tuple(None if g is None else grad_tensor(g) for g in gs)  # noqa: E731
    ownership.outsiders_run()
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


def run_backward(edges, grads, keep_graph, create_graph, targets=None, capture=False):
    """Seed ``edges`` with ``grads`` and run the graph behind them.

    With ``targets`` (edges of chosen tensors), only what leads to them runs (see
    ``GraphTask``); returns the gradients captured there when ``capture``.
    """
    global _task
    root = GraphRoot(edges, grads)
    previous, previous_task = grad_mode._enabled, _task
    task = None if targets is None else GraphTask(root, targets, capture, keep_graph)
    grad_mode._set_enabled(create_graph)
    _task = task
    try:
        with ownership.backward_pass(grads):
            execute(root, keep_graph or task is not None)
    finally:
        grad_mode._set_enabled(previous)
        _task = previous_task
    return None if task is None else task.captured


__all__ = ["compute_dependencies", "execute", "run_backward", "Node"]
