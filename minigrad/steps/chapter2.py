"""Checks for chapter 2: the engine that computes gradients.

2.1 and 2.2 are checked with nodes and leaves made by hand; 2.3 runs real graphs
(it needs chapter 1 and steps 2.1–2.2); 2.4 calls ``MmBackward0.backward`` directly.
"""
import numpy as np

from ..autograd import _root_edge
from ..autograd.engine import ReadyQueue, compute_dependencies, run_backward
from ..autograd.graph import Node, accumulate_grad
from ..autograd.saved_tensor import SavedTensor
from ..creation import ones
from ..ops.linalg import MmBackward0
from ..tensor import Tensor
from . import step
from .expect import call_backward, close, holds, same


class _Pass(Node):
    """A node made by hand whose backward passes the gradient to each input."""

    def __init__(self, *inputs):
        self._saved, self._hooks, self._seq = (), None, 0
        self.next_functions = tuple((n, 0) for n in inputs)

    def backward(self, grad):
        return (grad,) * len(self.next_functions)


@step("2.1")
def a_diamond_counts_two_edges_into_its_bottom():
    bottom = _Pass()
    left, right = _Pass(bottom), _Pass(bottom)
    top = _Pass(left, right)
    deps = compute_dependencies(top)
    same(deps.get(bottom), 2, "dependencies of the bottom of a diamond", "菱形底部节点的依赖数")
    same(deps.get(left), 1, "dependencies of one side of a diamond", "菱形一侧节点的依赖数")
    same(len(deps), 4, "number of nodes found", "找到的节点个数")


@step("2.1")
def a_node_used_twice_counts_twice():
    leaf = _Pass()
    top = _Pass(leaf, leaf)  # like a + a
    same(compute_dependencies(top).get(leaf), 2, "dependencies of a in a + a", "a + a 中 a 的依赖数")


@step("2.1")
def a_deep_chain_needs_no_recursion():
    node = _Pass()
    first = node
    for _ in range(10_000):
        node = _Pass(node)
    deps = compute_dependencies(node)
    same(len(deps), 10_001, "nodes found in a chain 10,000 deep", "深度为 10,000 的链中找到的节点个数")
    same(deps.get(first), 1, "dependencies of the chain's last node", "链尾节点的依赖数")


def _leaf(values):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), True)


@step("2.2")
def the_first_gradient_is_stored():
    w = _leaf([1.0, 2.0])
    accumulate_grad(w, np.array([0.5, 0.25], dtype=np.float32))
    holds(w._grad is not None, "w.grad must be set after the first gradient arrives", "第一个梯度到达后 w.grad 必须被设置")
    close(w._grad, [0.5, 0.25], "w.grad after one gradient", "收到一个梯度后的 w.grad")


@step("2.2")
def the_stored_gradient_is_a_copy():
    w = _leaf([1.0, 2.0])
    grad = np.array([0.5, 0.25], dtype=np.float32)
    accumulate_grad(w, grad)
    grad[0] = 99.0
    close(w._grad, [0.5, 0.25], "w.grad must not change when the engine reuses its array (store a copy)",
          "引擎复用数组时 w.grad 不应跟着改变（请保存一份副本）")
    same(w._grad.dtype, w.dtype, "w.grad.dtype", "w.grad.dtype")


def _backward(output):
    run_backward([_root_edge(output, 0)], [np.ones(output._array.shape, output._array.dtype)], False, False)


@step("2.3")
def the_ready_queue_runs_the_newest_node_first():
    ready = ReadyQueue()
    for seq in (1, 3, 2):
        node = _Pass()
        node._seq = seq
        ready.push(node)
    popped = [ready.pop()._seq for _ in range(3)]
    same(popped, [3, 2, 1], "the order in which nodes made 1st, 3rd, 2nd leave the ready queue",
         "按第 1、3、2 个创建的节点离开就绪队列的顺序")


@step("2.3")
def the_worked_example_gives_4_5():
    x = ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    _backward(out)
    close(x._grad, np.full((2, 2), 4.5), "x.grad for out = (3 (x + 2)^2).mean()", "out = (3 (x + 2)^2).mean() 时的 x.grad")


@step("2.3")
def a_used_twice_gets_both_gradients():
    a = _leaf([1.0, 2.0])
    _backward((a + a).sum())
    close(a._grad, [2.0, 2.0], "a.grad for (a + a).sum(): both uses add up", "(a + a).sum() 的 a.grad：两次使用的梯度要相加")


@step("2.3")
def a_diamond_waits_for_both_branches():
    x = _leaf([3.0])
    h = x * 2
    _backward(h * h + h)  # d/dx = (2h + 1) * 2 = 26
    close(x._grad, [26.0], "x.grad for h = 2x, out = h*h + h at x = 3", "h = 2x，out = h*h + h 在 x = 3 处的 x.grad")


@step("2.3")
def a_chain_10000_deep_runs():
    x = _leaf([1.0])
    y = x
    for _ in range(10_000):
        y = y * 1.0
    _backward(y.sum())
    close(x._grad, [1.0], "x.grad through a chain of 10,000 multiplications", "经过 10,000 次乘法的链后的 x.grad")


@step("2.3")
def only_leaves_get_grad():
    x = _leaf([1.0, 2.0])
    y = x * 3
    _backward(y.sum())
    same(y._grad, None, "y.grad for the non-leaf y = x * 3", "非叶子 y = x * 3 的 y.grad")
    close(x._grad, [3.0, 3.0], "x.grad for (x * 3).sum()", "(x * 3).sum() 的 x.grad")


def _mm_node(a, b):
    node = MmBackward0(SavedTensor(a), SavedTensor(b))
    node.next_functions = ((Node(), 0), (Node(), 0))
    return node


@step("2.4")
def mm_backward_multiplies_by_transposes():
    a = Tensor._wrap(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = Tensor._wrap(np.arange(12, dtype=np.float32).reshape(3, 4))
    grad = np.ones((2, 4), dtype=np.float32)
    grad_a, grad_b = call_backward(_mm_node(a, b), grad)
    close(grad_a, grad @ b._array.T, "d(a@b)/da = grad @ b.T", "d(a@b)/da = grad @ b.T")
    close(grad_b, a._array.T @ grad, "d(a@b)/db = a.T @ grad", "d(a@b)/db = a.T @ grad")


@step("2.4")
def mm_backward_skips_unneeded_gradients():
    a = Tensor._wrap(np.ones((1, 5), dtype=np.float32))
    b = Tensor._wrap(np.ones((5, 3), dtype=np.float32))
    node = _mm_node(a, b)
    node.next_functions = ((None, 0), node.next_functions[1])
    grad_a, grad_b = call_backward(node, np.ones((1, 3), dtype=np.float32))
    same(grad_a, None, "the gradient for x, which needs none (x = ones(1, 5))", "x 不需要梯度（x = ones(1, 5)），它的梯度应为")
    close(grad_b, np.ones((5, 3)), "d(x@w)/dw", "d(x@w)/dw")
