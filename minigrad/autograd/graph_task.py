"""The part of the graph a run needs when it wants chosen gradients only.

``autograd.grad(out, [x])`` and ``out.backward(inputs=[x])`` want the gradients of some
tensors, not of every leaf. As in PyTorch, only the nodes from which one of them can be
reached run; ``autograd.grad`` captures the gradients arriving there and changes no
``.grad``. The engine asks the ``GraphTask`` of the run in progress before and after
each node (see ``node_call.run_node``).
"""
import contextlib

from .graph import AccumulateGrad
from .hook_calls import run_tensor_hooks

current = None  # the GraphTask of the run in progress, when it computes chosen gradients only
_final_callbacks = None  # what runs when the backward pass in progress ends (``queue_callback``)


def queue_callback(callback):
    """Call ``callback()`` once the backward pass in progress has run its last node."""
    if _final_callbacks is None:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    _final_callbacks.append(callback)


@contextlib.contextmanager
def running_task(root, targets, capture, keep_graph):
    """Make a ``GraphTask`` for ``targets`` (None: every gradient is wanted) current in the block."""
    global current, _final_callbacks
    task = None if targets is None else GraphTask(root, targets, capture, keep_graph)
    outer, current = current, task
    outer_callbacks, _final_callbacks = _final_callbacks, []
    try:
        yield task
        while _final_callbacks:
            _final_callbacks.pop(0)()
    finally:
        current, _final_callbacks = outer, outer_callbacks


class GraphTask:
    """What a run that wants chosen gradients only must do differently, node by node.

    ``targets`` are the edges of the chosen tensors (a non-leaf's ``grad_fn`` and output,
    or a leaf's ``AccumulateGrad``). Only the nodes from which a target can be reached
    run: the others are skipped, and keep their saved tensors. Freeing is done here,
    for the nodes that ran, so the engine is started with ``keep_graph=True``.

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

    def admit(self, node, grads, tensor_hooks):
        """Capture what arrives at ``node`` if it is a target; tell whether it must run.

        As in PyTorch, a captured gradient has been through the tensor's hooks only
        if the node does not run (a running node applies them itself, after capture):
        ``tensor_hooks(hooks, grads)`` applies them.
        """
        needed = node in self._needed
        captures = self._capture.get(node)
        if captures is not None:
            if not needed and node._hooks is not None:
                grads = tensor_hooks(node._hooks, grads)
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
