"""Checks for chapter 2: the engine that computes gradients.

2.1 and 2.2 are checked with nodes and leaves made by hand; 2.3 runs real graphs
(it needs chapter 1 and steps 2.1–2.2), seeded with ones rather than summed, since
sum's backward is step 2.5; 2.4 calls ``MmBackward0.backward`` directly. The rules
of 2.5–2.8 are checked in ``rules.py``, the challenge C2 in ``challenge.py``.
"""
import contextlib

import numpy as np

from ...autograd import _root_edge, node_call
from ...autograd.engine import ReadyQueue, compute_dependencies, execute, run_backward
from ...autograd.graph import Node, accumulate_grad, gradient_edge
from ...messages import N_
from ...ops.linalg import BmmBackward0, MmBackward0
from ...tensor import Tensor
from .. import draw, step
from ..chapter1.checks import MISUSED, ONLY_ARRAYS, TWO_GRADIENTS, gradients_of


class _Pass(Node):
    """A node made by hand whose backward passes the gradient to each input."""

    def __init__(self, *inputs):
        self._saved, self._hooks, self._seq = (), None, 0
        self._shape, self._dtype = (1,), np.dtype(np.float32)
        self.next_functions = tuple((n, 0) for n in inputs)

    def backward(self, grad):
        return (grad,) * len(self.next_functions)


class _Silent(_Pass):
    """A node made by hand that sends no gradient (None) to its inputs."""

    def backward(self, grad):
        return (None,) * len(self.next_functions)

class _Freed(_Pass):
    """A node made by hand that notes when the engine frees what it saved (``_release``)."""

    def __init__(self, freed, *inputs):
        super().__init__(*inputs)
        self._freed = freed

    def _release(self):
        self._freed.append(self)


class _Misshapen(_Pass):
    """A node made by hand whose backward sends a gradient of shape (3,) to an input of shape (2,)."""

    def backward(self, grad):
        return (np.ones(3, dtype=np.float32),) * len(self.next_functions)


# The usual mistakes that make a step's code loop forever, named when ``minigrad.check`` stops it.
LOOPS = {
    "2.1": (N_("a node read from the top of the stack but never taken off it"),
            N_("a node pushed again every time an edge reaches it, so a shared node is walked over and over")),
    "2.3": (N_("a pop that reads the newest node but leaves it in the heap"),
            N_("a loop whose condition tests something the loop never changes")),
}


@step("2.1")
def a_diamond_counts_two_edges_into_its_bottom(see):
    bottom = _Pass()
    left, right = _Pass(bottom), _Pass(bottom)
    top = _Pass(left, right)
    deps = compute_dependencies(top)
    see(deps.get(bottom), N_("dependencies of the bottom of a diamond"))
    see(deps.get(left), N_("dependencies of one side of a diamond"))
    see(len(deps), N_("number of nodes found"))


@step("2.1")
def a_node_used_twice_counts_twice(see):
    leaf = _Pass()
    top = _Pass(leaf, leaf)  # like a + a
    see(compute_dependencies(top).get(leaf), N_("dependencies of a in a + a"))


RECURSION_DEPENDENCIES = N_(
    "compute_dependencies went past Python's recursion limit (RecursionError) on a chain 10,000 deep: walk the "
    "graph with a list used as a stack, never with recursion (reread exercise 2.1)."
)


@step("2.1")
def a_deep_chain_needs_no_recursion(see):
    node = _Pass()
    first = node
    for _ in range(10_000):
        node = _Pass(node)
    deps = see.attempt(lambda: compute_dependencies(node), (RecursionError, RECURSION_DEPENDENCIES))
    see(len(deps), N_("nodes found in a chain 10,000 deep"))
    see(deps.get(first), N_("dependencies of the chain's last node"))


def _leaf(values):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), True)


@step("2.2")
def the_first_gradient_is_stored(see):
    w = _leaf([1.0, 2.0])
    accumulate_grad(w, np.array([0.5, 0.25], dtype=np.float32))
    see.that(w._grad is not None, N_("w.grad must be set after the first gradient arrives"))
    see(w._grad, N_("w.grad after one gradient"))


@step("2.2")
def the_stored_gradient_is_a_copy(see):
    w = _leaf([1.0, 2.0])
    grad = np.array([0.5, 0.25], dtype=np.float32)
    accumulate_grad(w, grad)
    grad[0] = 99.0
    see(w._grad, N_("w.grad must not change when the engine reuses its array (store a copy)"))
    see(w._grad.dtype, N_("w.grad.dtype"))


FIFO = N_(
    "the ready queue gives nodes back in the order they were pushed (first in, first out): PyTorch runs the ready "
    "node created last first, the one with the largest _seq (reread exercise 2.3)."
)
OLDEST_FIRST = N_(
    "the ready queue gives back the oldest node first (the smallest _seq): PyTorch runs the newest first, the "
    "largest _seq; check which way your heap orders its keys (reread exercise 2.3)."
)
STACK = N_(
    "the ready queue gives back the node pushed last (a stack): PyTorch orders ready nodes by their creation "
    "number _seq, the largest first, whatever the order they were pushed in (reread exercise 2.3)."
)
RAN_EARLY = N_(
    "a node ran before all its gradients had arrived, or ran twice: push a node on the ready queue only when its "
    "dependency count falls to 0 (reread exercise 2.3)."
)
OVERWRITTEN = N_(
    "gradients that reach the same node were overwritten instead of added: a slot of a buffer that already holds "
    "a gradient must become the sum (reread exercise 2.3)."
)
RECURSION_ENGINE = N_(
    "backward through a chain 10,000 deep went past Python's recursion limit (RecursionError): the engine "
    "(compute_dependencies and the loop of execute) must use a stack or a queue, never recursion "
    "(reread exercises 2.1 and 2.3)."
)
NO_BUFFER = N_(
    "a node that received only None had no buffer when its turn came (KeyError): make a node's buffer the first "
    "time an edge reaches it, even when the gradient on that edge is None (reread exercise 2.3)."
)
SLOT_ZERO = N_(
    "the gradients of a node with two outputs all went into slot 0 of its buffer: an edge (next_node, nr) carries "
    "the gradient of output nr of next_node (the output_nr of the tensor that was used), and it belongs in slot nr "
    "(reread exercise 2.3)."
)
NEVER_RAN = N_(
    "a node that receives only None gradients never ran: an edge counts as delivered even when its gradient is "
    "None, and such a node must still run (reread exercise 2.3)."
)


def _backward(see, output):
    """``output.backward()`` through the learner's engine; recursion is named, not shown as a traceback."""
    edges, seed = [_root_edge(output, 0)], [np.ones(output._array.shape, output._array.dtype)]
    see.attempt(lambda: run_backward(edges, seed, False, False), (RecursionError, RECURSION_ENGINE))


@contextlib.contextmanager
def _runs():
    """The nodes the engine runs, in order, each with the gradients it was given."""
    ran = []
    node_call.observers.append(lambda node, grads, results: ran.append((node, grads)))
    try:
        yield ran
    finally:
        node_call.observers.pop()


@step("2.3")
def the_ready_queue_runs_the_newest_node_first(see):
    ready = ReadyQueue()
    for seq in (1, 3, 2):
        node = _Pass()
        node._seq = seq
        ready.push(node)
    popped = [ready.pop()._seq for _ in range(3)]
    see(popped, N_("the order in which nodes made 1st, 3rd, 2nd leave the ready queue"),
        mistakes=[([1, 3, 2], FIFO), ([1, 2, 3], OLDEST_FIRST), ([2, 3, 1], STACK)])


@step("2.3")
def two_ready_nodes_run_newest_first(see):
    a, b = _leaf([1.0]), _leaf([2.0])
    left, right = a * 2.0, b * 3.0  # both ready once "+" has run: PyTorch runs the newer, b * 3, first
    total = left + right
    names = {left.grad_fn: "a * 2", right.grad_fn: "b * 3", total.grad_fn: "+",
             gradient_edge(a)[0]: "a.grad", gradient_edge(b)[0]: "b.grad"}
    with _runs() as ran:
        _backward(see, total)
    order = [names.get(node, "root") for node, _ in ran]
    see(order, N_("the nodes of a * 2 + b * 3 in the order the engine ran them"),
        mistakes=[(["root", "+", "a * 2", "b * 3", "a.grad", "b.grad"], FIFO)])


@step("2.3")
def a_node_waits_for_all_its_gradients(see):
    x = _leaf([1.0])
    y = x * 2.0
    with _runs() as ran:
        _backward(see, y + x)  # x's AccumulateGrad gets 1 from "+", and 2 from "* 2", created earlier
    calls = [float(grads[0][0]) for node, grads in ran if node is gradient_edge(x)[0]]
    see.that(len(calls) == 1, RAN_EARLY)
    see(calls, N_("the gradient x's AccumulateGrad ran with, for x * 2 + x"), mistakes=[([1.0], OVERWRITTEN), ([2.0], OVERWRITTEN)])


NOT_FREED = N_(
    "the engine freed nothing: once a node has run, what it saved is to be let go, unless the graph is kept "
    "(reread exercise 2.3)."
)
FREED_KEPT = N_(
    "the engine freed what the nodes saved although keep_graph asked to keep the graph (as retain_graph=True "
    "does): a second backward through it would then fail (reread exercise 2.3)."
)
NOT_VALIDATED = N_(
    "a node sent a gradient of the wrong shape, and the engine passed it on unchecked: every gradient that is not "
    "None is checked on its way to the next node, as PyTorch's engine checks it (reread exercise 2.3)."
)


def _freed_by_execute(keep_graph):
    """Run a chain of three nodes made by hand: how many the engine freed."""
    freed = []
    bottom = _Freed(freed)
    top = _Freed(freed, _Freed(freed, bottom))
    execute(top, {top: [np.ones(1, dtype=np.float32)]}, keep_graph)
    return len(freed)


@step("2.3")
def the_engine_frees_each_node_after_it_runs(see):
    see(_freed_by_execute(False), N_("nodes freed by the engine in a chain of 3, the graph not kept"),
        mistakes=[(0, NOT_FREED)])
    see(_freed_by_execute(True), N_("nodes freed by the engine in a chain of 3, with keep_graph=True"),
        mistakes=[(3, FREED_KEPT)])


def _error_of(run):
    """The ``RuntimeError`` ``run()`` raises, as text, or None (a stub's error is let through)."""
    try:
        run()
    except NotImplementedError:
        raise
    except RuntimeError as error:
        return f"RuntimeError: {error}"
    return None


@step("2.3")
def the_engine_checks_each_gradient(see):
    bottom = _Pass()
    bottom._shape = (2,)
    top = _Misshapen(bottom)
    see(_error_of(lambda: execute(top, {top: [np.ones(1, dtype=np.float32)]})),
        N_("the error of the engine when a node sends a gradient of shape (3,) to a node whose output has shape (2,)"),
        mistakes=[(None, NOT_VALIDATED)])


@step("2.3")
def a_node_that_receives_only_none_still_runs(see):
    bottom = _Pass()
    top = _Pass(_Silent(bottom))
    order = see.attempt(lambda: execute(top, {top: [np.ones(1, dtype=np.float32)]}), (KeyError, NO_BUFFER))
    see.that(bottom in order, NEVER_RAN)
    see(len(order), N_("nodes run in a graph where one node sends only None"))


@step("2.3")
def each_output_of_a_node_has_its_own_slot(see):
    x = _leaf([[1.0, 2.0], [3.0, 4.0]])
    first, second = x.unbind(0)  # one node, two outputs: output_nr 0 and 1
    _backward(see, first * 2.0 + second * 3.0)
    see(x._grad, N_("x.grad for a, b = x.unbind(0), out = a * 2 + b * 3"),
        mistakes=[(_leaf([[5.0, 5.0], [0.0, 0.0]]), SLOT_ZERO)])


@step("2.3")
def a_used_twice_gets_both_gradients(see):
    a = _leaf([1.0, 2.0])
    _backward(see, a + a)
    see(a._grad, N_("a.grad for a + a, seeded with ones: both uses add up"), mistakes=[(_leaf([1.0, 1.0]), OVERWRITTEN)])


@step("2.3")
def a_diamond_waits_for_both_branches(see):
    x = _leaf([3.0])
    h = x * 2
    _backward(see, h * h + h)  # d/dx = (2h + 1) * 2 = 26
    see(x._grad, N_("x.grad for h = 2x, out = h*h + h at x = 3"), mistakes=[(_leaf([12.0]), OVERWRITTEN), (_leaf([2.0]), OVERWRITTEN)])


@step("2.3")
def a_chain_10000_deep_runs(see):
    node = bottom = _Pass()
    for _ in range(10_000):
        node = _Pass(node)
    order = see.attempt(lambda: execute(node, {node: [np.ones(1, dtype=np.float32)]}), (RecursionError, RECURSION_ENGINE))
    see(len(order), N_("nodes run in a chain of 10,000 nodes below the first"))
    see.that(bool(order) and order[-1] is bottom, N_("the last node of a chain must run last"))


@step("2.3")
def only_leaves_get_grad(see):
    x = _leaf([1.0, 2.0])
    y = x * 3
    _backward(see, y)
    see(y._grad, N_("y.grad for the non-leaf y = x * 3"))
    see(x._grad, N_("x.grad for x * 3, seeded with ones"))


def _mm_node(a, b):
    node = MmBackward0(a, b)
    node.next_functions = ((Node(), 0), (Node(), 0))
    return node


TRANSPOSE_SHAPES = N_(
    "numpy refused a matrix product (ValueError: the shapes do not fit): a transpose is missing or on the wrong "
    "side. The gradient for a must have a's shape (m, k), the one for b b's shape (k, n): write down the shape of "
    "each factor you multiply (reread exercise 2.4)."
)
def _mm_gradients(see, node, grad):
    """``MmBackward0.backward`` as the engine calls it, numpy's refusal of a misplaced transpose named."""
    return gradients_of(see, node, grad, (ValueError, TRANSPOSE_SHAPES))


@step("2.4")
def mm_backward_multiplies_by_transposes(see):
    a = Tensor._wrap(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = Tensor._wrap(np.arange(12, dtype=np.float32).reshape(3, 4))
    grad = np.ones((2, 4), dtype=np.float32)
    grad_a, grad_b = _mm_gradients(see, _mm_node(a, b), grad)
    see(grad_a, N_("d(a@b)/da for a (2, 3), b (3, 4) and a gradient of ones"))
    see(grad_b, N_("d(a@b)/db for a (2, 3), b (3, 4) and a gradient of ones"))


@step("2.4")
def mm_backward_works_on_tensors(see):
    a = Tensor._wrap(np.ones((2, 3), dtype=np.float32))
    b = Tensor._wrap(np.ones((3, 4), dtype=np.float32))
    node = _mm_node(a, b)
    grads = see.attempt(lambda: node.backward(Tensor._wrap(np.ones((2, 4), dtype=np.float32))), (MISUSED, ONLY_ARRAYS))
    see.require(isinstance(grads, (tuple, list)) and len(grads) == 2, TWO_GRADIENTS)
    see(list(grads), N_("the gradients of a (2, 3) @ b (3, 4) for a tensor gradient, as with create_graph=True: tensors"))


@step("2.4")
def mm_backward_skips_unneeded_gradients(see):
    a = Tensor._wrap(np.ones((1, 5), dtype=np.float32))
    b = Tensor._wrap(np.ones((5, 3), dtype=np.float32))
    node = _mm_node(a, b)
    node.next_functions = ((None, 0), node.next_functions[1])
    grad_a, grad_b = _mm_gradients(see, node, np.ones((1, 3), dtype=np.float32))
    see(grad_a, N_("the gradient for x, which needs none (x = ones(1, 5))"))
    see(grad_b, N_("d(x@w)/dw"))


BATCH_TRANSPOSE = N_(
    "a batch of products (bmm, and matmul on batches) reuses this rule with stacks of matrices as its factors, "
    "and the transpose used turned each whole stack around instead of each matrix in it (reread exercise 2.4)."
)


@step("2.4")
def mm_backward_serves_a_batch_of_products(see):
    """bmm's node hands its two stacks of matrices to this rule: it must work on each matrix of a batch."""
    a = Tensor._wrap(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
    b = Tensor._wrap(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    node = BmmBackward0(a, b)
    node.next_functions = ((Node(), 0), (Node(), 0))
    grad_a, grad_b = gradients_of(see, node, np.ones((2, 2, 4), dtype=np.float32), (ValueError, BATCH_TRANSPOSE))
    see(grad_a, N_("d(a@b)/da for a batch of two products, a (2, 2, 3) and b (2, 3, 4)"))
    see(grad_b, N_("d(a@b)/db for a batch of two products, a (2, 2, 3) and b (2, 3, 4)"))


@step("2.1")
def a_graph_drawn_at_random(see):
    nodes = [_Pass()]
    for _ in range(int(see.rng.integers(3, 9))):  # each new node uses one to three earlier ones, repeats allowed
        uses = see.rng.integers(0, len(nodes), size=int(see.rng.integers(1, 4)))
        nodes.append(_Pass(*[nodes[i] for i in uses]))
    deps = compute_dependencies(nodes[-1])
    see([deps.get(node) for node in nodes], N_("dependencies of each node of a graph drawn at random, oldest first"))


@step("2.2")
def the_first_gradient_of_drawn_values(see):
    w = _leaf(draw.values(see.rng, (3,)))
    accumulate_grad(w, draw.values(see.rng, (3,)))
    see(w._grad, N_("w.grad after one gradient drawn at random"))


@step("2.3")
def a_graph_of_drawn_values(see):
    x, w = _leaf(draw.values(see.rng, (2, 3))), _leaf(draw.values(see.rng, (3,)))
    h = x * w
    _backward(see, h * h + h * x)
    see(x._grad, N_("x.grad for h = x * w, out = h*h + h*x seeded with ones, values drawn at random"))
    see(w._grad, N_("w.grad for h = x * w, out = h*h + h*x seeded with ones, values drawn at random"))


@step("2.4")
def mm_backward_of_drawn_matrices(see):
    m, k, n = (int(v) for v in see.rng.integers(1, 5, size=3))
    a, b = Tensor._wrap(draw.values(see.rng, (m, k))), Tensor._wrap(draw.values(see.rng, (k, n)))
    grad_a, grad_b = _mm_gradients(see, _mm_node(a, b), draw.values(see.rng, (m, n)))
    see(grad_a, N_("d(a@b)/da for matrices drawn at random"))
    see(grad_b, N_("d(a@b)/db for matrices drawn at random"))
