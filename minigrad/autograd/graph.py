"""The pieces of the computational graph: nodes and the edges between them.

Every operation on tensors that require grad records a *node* (PyTorch calls it a
``Function`` or ``Node``; the result's ``grad_fn``). A node knows its local
derivative (its ``backward``) and where to send the gradients it computes: its
``next_functions``, one *edge* ``(node, output_nr)`` per input, ``(None, 0)`` for an
input that needs no gradient. A leaf that requires grad is reached through an
``AccumulateGrad`` node, which stores the arriving gradient in ``leaf.grad``.

The exercises come first; below them, the classes they work with.
"""
import itertools
import weakref

import numpy as np

from ..tensor import Tensor
from . import grad_mode, ownership
from .hook_calls import run_post_accumulate_hooks, run_tensor_hooks
from .node_api import NodeAPI
from .saved_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks  # noqa: F401 - torch.autograd.graph's names
from .saved_tensor import SavedTensor, release_saved

# ---------------------------------------------------------------- recording (chapter 1)


def should_record(*inputs):
    """Whether an operation on ``inputs`` must record a node in the graph.

    PyTorch's rule: record when grad mode is on and at least one input is a tensor
    that requires grad. The result then requires grad too; that is how
    ``requires_grad`` spreads from the leaves to everything computed from them.

    一个作用在 ``inputs`` 上的运算是否必须在计算图中记录一个节点。

    PyTorch 的规则：梯度模式打开、且至少有一个输入是需要梯度的张量时记录。这时结果也需要梯度；
    ``requires_grad`` 正是这样从叶子节点传播到由它们算出的一切。
    """
    raise NotImplementedError("step 1.1: your code goes here (see the chapter's exercise) / 第 1.1 步：在这里写你的代码（见本章的练习）")


def gradient_edge(x):
    """The edge along which the gradient for input ``x`` travels: ``(node, output_nr)``.

    - a result of an operation: its ``grad_fn``, at the output it came from;
    - a leaf that requires grad: its ``AccumulateGrad`` node (one per leaf, shared by
      every operation that uses it, so gradients from all uses meet there);
    - anything else (a constant, a Python number): ``(None, 0)``, no gradient needed.

    输入 ``x`` 的梯度沿之传递的边：``(node, output_nr)``。

    - 运算的结果：它的 ``grad_fn``，以及它来自该节点的哪个输出；
    - 需要梯度的叶子节点：它的 ``AccumulateGrad`` 节点（每个叶子节点一个，用到它的所有运算共用，
      因此各处的梯度在这里汇合）；
    - 其他一切（常量、Python 数）：``(None, 0)``，不需要梯度。
    """
    raise NotImplementedError("step 1.2: your code goes here (see the chapter's exercise) / 第 1.2 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- accumulation (chapters 2 and 4)


def accumulate_grad(variable, grad):
    """Add the array ``grad`` into ``variable.grad``: where a leaf's gradient is written.

    The first gradient becomes ``.grad``, as a copy of the leaf's own dtype: later ones
    are added to it in place, and the engine may hand one array to several places (a
    broadcast view cannot even be written to). Later gradients go to ``add_to_grad``.

    把数组 ``grad`` 加进 ``variable.grad``：叶子节点的梯度就写在这里。

    第一个梯度成为 ``.grad``，是按叶子节点自己的 dtype 复制的一份：之后的梯度会原地加到它上面，
    而引擎可能把同一个数组交给好几个地方（广播得到的视图甚至不能写入）。之后的梯度交给 ``add_to_grad``。
    """
    raise NotImplementedError("step 2.2: your code goes here (see the chapter's exercise) / 第 2.2 步：在这里写你的代码（见本章的练习）")
    add_to_grad(variable, grad)


def add_to_grad(variable, grad):
    """Gradients add up across backward calls, until someone zeroes or clears ``.grad``.

    A recorded backward (``create_graph=True``) hands tensors, and their sum must be recorded
    too: a new ``.grad``. Otherwise the sum goes into ``.grad`` itself, as PyTorch does, even
    when ``.grad`` has a history of its own, which it keeps.

    多次调用 ``backward()`` 时梯度会累加，直到有人把 ``.grad`` 清零或清空。

    被记录的反向传播（``create_graph=True``）传来的是张量，它们的和也必须被记录：得到一个新的 ``.grad``。
    否则像 PyTorch 一样把和加进 ``.grad`` 本身，即使 ``.grad`` 有自己的历史，这段历史也保留下来。
    """
    raise NotImplementedError("step 4.2: your code goes here (see the chapter's exercise) / 第 4.2 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- the nodes

_sequence = itertools.count()  # creation order: the engine runs later nodes first
_LAST = float("inf")  # AccumulateGrad runs as soon as it is ready, as in PyTorch


class Node(NodeAPI):
    """One backward function in the graph (the object a tensor's ``grad_fn`` holds).

    Subclasses implement ``backward(grad)``: given the gradient of the loss with respect
    to this node's output, return the gradient with respect to each input, in the
    order of ``next_functions``. Inside ``backward``, gradients and saved tensors are
    numpy arrays (tensors when the graph of the backward itself is recorded, with
    ``create_graph=True``), so formulas written with operators work for both.
    """

    __slots__ = ("next_functions", "_saved", "_seq", "_shape", "_dtype", "_hooks", "_metadata", "__weakref__")
    _num_outputs = 1

    def __init__(self, *saved):
        self._saved = saved

    def backward(self, grad):
        raise NotImplementedError(f"{self.name()} has no backward formula")

    # saved_tensors and needs_input_grad run once per node: plain loops, as a comprehension
    # costs a function call of its own in Python 3.11.

    @property
    def saved_tensors(self):
        """The saved values, unpacked: arrays while backward runs, tensors with create_graph."""
        as_tensor = grad_mode._enabled
        values = []
        for s in self._saved:
            values.append(s.unpack(self, as_tensor) if type(s) is SavedTensor else s)
        return tuple(values)

    @property
    def needs_input_grad(self):
        """Which inputs need a gradient: skip the work for the others."""
        edges = self.next_functions
        if len(edges) == 2:  # the nodes that ask are mostly two-input ones: written out, faster
            return (edges[0][0] is not None, edges[1][0] is not None)
        needs = []
        for fn, _ in edges:
            needs.append(fn is not None)
        return tuple(needs)

    _release = release_saved  # step 4.4, in saved_tensor.py: the engine frees a node's saved values with it


class AccumulateGrad(Node):
    """The sink of a leaf that requires grad: adds the arriving gradient to ``leaf.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        self._saved = ()
        self.variable = variable
        self.next_functions = ()
        self._seq = _LAST
        self._hooks = None
        self._shape = variable._array.shape
        self._dtype = variable._array.dtype

    def backward(self, grad):
        if self.variable._hooks:
            grad = run_tensor_hooks(self.variable._hooks, grad)
        return self.accumulate(grad)

    def accumulate(self, grad):
        """Store ``grad`` in the leaf's ``.grad``, then call its post-accumulate-grad hooks."""
        variable = self.variable
        kept = ownership.kept_as_grad(grad) if variable._grad is None else None
        if kept is not None:
            variable._grad = kept
        else:
            accumulate_grad(variable, grad)
        if variable._post_accumulate_hooks:
            run_post_accumulate_hooks(variable)
        return ()


class GraphRoot(Node):
    """The start of a backward pass: hands each output its seed gradient."""

    __slots__ = ("_grads",)

    def __init__(self, edges, grads):
        self._saved = ()
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)
        self._seq = _LAST
        self._hooks = None

    def backward(self, grad=None):
        return self._grads


def grad_accumulator(leaf):
    """The leaf's ``AccumulateGrad`` node, created on first use and then shared.

    The leaf refers to it weakly (the graph keeps it alive), as in PyTorch: once no
    graph uses it, a later operation makes a fresh one. A view made under ``no_grad``
    requires grad only through its base, and has none (None: its gradients go nowhere).
    """
    if leaf._base is not None and "_made_in_no_grad" in leaf.__dict__ and leaf._base.requires_grad:
        return None
    ref = leaf._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


def recorded(out, inputs, node_type, *args):
    """Every operation's last line: ``out``, with ``node_type(*args)`` as its ``grad_fn``
    when ``inputs`` call for a graph (``should_record``), and untouched when they do not.

    The node is made only when it is recorded, so an operation under ``no_grad`` builds
    nothing and saves nothing; that is why a node that keeps tensors for its backward
    receives them raw and saves them itself. Grad mode is read first, as ``should_record``
    reads it: under ``no_grad`` an operation then costs one call here.

    The lines after the test are ``record``'s, written out rather than called: every
    operation runs them, and the call would cost W1 about 1.5 % (``bench/bench_trees.py``).
    """
    if not (grad_mode._enabled and should_record(*inputs)):
        return out
    node = node_type(*args)
    n = len(inputs)
    if n == 1:  # nearly every operation has one input or two: no list to build for them
        node.next_functions = (gradient_edge(inputs[0]),)
    elif n == 2:
        node.next_functions = (gradient_edge(inputs[0]), gradient_edge(inputs[1]))
    else:
        node.next_functions = tuple([gradient_edge(x) for x in inputs])
    node._seq = next(_sequence)
    node._hooks = None
    array = out._array
    node._shape, node._dtype = array.shape, array.dtype
    out.grad_fn, out._requires_grad = node, True
    return out


def record(out, node, *inputs):
    """Make ``node`` the ``grad_fn`` of ``out``, with one edge per input, whatever grad mode
    and the inputs say: for the callers that decide themselves (``recorded``, a custom
    Function's error node, a write into a view)."""
    n = len(inputs)
    if n == 1:  # nearly every operation has one input or two: no list to build for them
        node.next_functions = (gradient_edge(inputs[0]),)
    elif n == 2:
        node.next_functions = (gradient_edge(inputs[0]), gradient_edge(inputs[1]))
    else:
        node.next_functions = tuple([gradient_edge(x) for x in inputs])
    node._seq = next(_sequence)
    node._hooks = None
    array = out._array
    node._shape, node._dtype = array.shape, array.dtype
    out.grad_fn, out._requires_grad = node, True
    return out
