"""The backward engine: runs the graph's nodes from the output back to the leaves.

A node may only run once every gradient for its output has arrived: when a tensor is
used twice (``a + a``, or a diamond), its node receives two gradients, and their sum
is what it must pass on. So the engine first counts, for each node, how many edges
lead into it (its *dependencies*), then runs a node when that count falls to zero:
a topological order, found without recursion, so a graph a million nodes deep works.

What happens around one node (its hooks, the checks on what it returned, the parts
of the graph ``autograd.grad`` skips) is in ``node_call.py``.

Also here: checking a gradient a user passes to ``backward`` (step 4.1), and one hook for the
gradients of several tensors, ``torch.autograd.graph.register_multi_grad_hook`` (challenge C6):
mode ``"all"`` calls it once per backward pass, at its end, with one gradient per tensor (None
for a tensor the pass did not reach); mode ``"any"`` with the first of them, as soon as it is
computed. It is built on a tensor hook per tensor and a callback at the end of the pass.
"""
import heapq

from ..creation import tensor as _as_tensor
from ..tensor import Tensor
from . import grad_mode, ownership
from .graph import GraphRoot
from .graph_task import queue_callback, running_task
from .node_call import run_node, validate


def compute_dependencies(root):
    """Count, for every node reachable from ``root``, the edges that lead into it.

    A node used by two later nodes (or twice by one, as in ``a + a``) gets 2. Walk the
    graph with an explicit stack, never recursion, and visit each node once.

    对从 ``root`` 出发能到达的每个节点，数一数有几条边指向它。

    被后面两个节点用到（或像 ``a + a`` 那样被同一个节点用两次）的节点计为 2。用显式的栈遍历计算图，
    不要用递归，并且每个节点只访问一次。
    """
    raise NotImplementedError("step 2.1: your code goes here (see the chapter's exercise) / 第 2.1 步：在这里写你的代码（见本章的练习）")


class ReadyQueue:
    """The nodes whose gradients have all arrived, waiting to run.

    Among ready nodes the one created last runs first (its ``_seq`` is the largest), as
    in PyTorch: any order of ready nodes gives the same gradients, but this one gives
    the same order as PyTorch in the pictures, in hooks and in errors.
    """

    def __init__(self):
        self._heap = []
        self._pushed = 0  # breaks ties (nodes made by hand may share a _seq), first pushed first

    def push(self, node):
        """Add a node whose gradients have all arrived.

        加入一个梯度已全部送达的节点。
        """
        raise NotImplementedError("step 2.3: your code goes here (see the chapter's exercise) / 第 2.3 步：在这里写你的代码（见本章的练习）")

    def pop(self):
        """Take out the ready node to run next: the one created last.

        取出下一个要运行的就绪节点：最后创建的那个。
        """
        raise NotImplementedError("step 2.3: your code goes here (see the chapter's exercise) / 第 2.3 步：在这里写你的代码（见本章的练习）")

    def __len__(self):
        return len(self._heap)


def execute(root, buffers, keep_graph=False):
    """Run every node reachable from ``root`` once, in an order that respects dependencies.

    ``buffers`` maps each node that has received gradients to a list with one slot per
    output of that node (``[None] * node._num_outputs``): the sum of what has arrived for
    each output so far. It holds the root's buffer at the start. When a node's last
    dependency has delivered, it runs on its buffer (``run_node(node, grads)``, which
    returns one gradient per edge), is freed unless ``keep_graph``, and its results go to
    the buffers of its ``next_functions`` (checked with ``validate`` on the way).
    Returns the nodes in the order they ran (the pictures use it).

    按照满足依赖关系的顺序，把从 ``root`` 能到达的每个节点各运行一次。

    ``buffers`` 把每个已收到梯度的节点映射到一个列表，该节点的每个输出占一格
    （``[None] * node._num_outputs``）：每个输出迄今收到的梯度之和。开始时其中只有根节点的缓冲区。
    一个节点的最后一个依赖送达后，它就在自己的缓冲区上运行（``run_node(node, grads)``，每条边返回
    一个梯度），除非 ``keep_graph`` 否则随即被释放，它的结果（途中用 ``validate`` 检查）送进其
    ``next_functions`` 的缓冲区。返回各节点的运行顺序（画图时要用）。
    """
    dependencies = compute_dependencies(root)
    ready = ReadyQueue()
    ready.push(root)
    order = []
    raise NotImplementedError("step 2.3: your code goes here (see the chapter's exercise) / 第 2.3 步：在这里写你的代码（见本章的练习）")
    return order


# ---------------------------------------------------------------- a user's gradient (step 4.1)


def check_gradient(output, gradient, index, create_graph):
    """A user-given gradient (the ``v`` of vᵀ·J) must have the output's shape.

    用户给出的梯度（vᵀ·J 中的 ``v``）必须与输出的形状相同。
    """
    raise NotImplementedError("step 4.1: your code goes here (see the chapter's exercise) / 第 4.1 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- one hook for several tensors (challenge C6)


class _Handles:
    """What ``register_multi_grad_hook`` returns: ``remove()`` takes every tensor's hook away."""

    def __init__(self, handles):
        self._handles = handles

    def remove(self):
        """Take the hook off every tensor it was put on; afterwards ``fn`` is never called again.

        把钩子从它挂上的每个张量上取下；此后 ``fn`` 再也不会被调用。
        """
        raise NotImplementedError("step C6: your code goes here (see the chapter's exercise) / 第 C6 步：在这里写你的代码（见本章的练习）")


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass that reaches ``tensors``: with every gradient (``"all"``, at the
    end of the pass) or with the first one computed (``"any"``, at once). Returns one handle for all.

    对每次到达 ``tensors`` 的反向传播调用一次 ``fn``：传入全部梯度（``"all"``，在这次反向传播结束时），
    或者传入最先算出的那个梯度（``"any"``，立即调用）。返回一个统管所有钩子的句柄。
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    raise NotImplementedError("step C6: your code goes here (see the chapter's exercise) / 第 C6 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- running a backward pass


def run_backward(edges, grads, keep_graph, create_graph, targets=None, capture=False):
    """Seed ``edges`` with ``grads`` and run the graph behind them; backward's formulas
    are recorded only with ``create_graph``.

    With ``targets`` (edges of chosen tensors), only what leads to them runs (see
    ``graph_task``); returns the gradients captured there when ``capture``.
    """
    root = GraphRoot(edges, grads)
    buffers = {root: [None]}
    previous = grad_mode._enabled
    grad_mode._set_enabled(create_graph)
    try:
        with ownership.backward_pass(grads, buffers), running_task(root, targets, capture, keep_graph) as task:
            execute(root, buffers, keep_graph or task is not None)
    finally:
        grad_mode._set_enabled(previous)
    return None if task is None else task.captured
