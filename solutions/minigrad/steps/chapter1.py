"""Checks for chapter 1: how operations build the graph.

Each check builds what it needs by hand, so a step is checked on its own: 1.2 does
not need 1.1, and 1.4 calls its node's ``backward`` directly, with no engine.
"""
import numpy as np

from ..autograd import grad_mode
from ..autograd.graph import AccumulateGrad, Node, gradient_edge, should_record
from ..autograd.saved_tensor import SavedTensor
from ..ops.arithmetic import MulBackward0
from ..shape import sum_to
from ..tensor import Tensor
from . import step
from .expect import call_backward, close, holds, same


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


def _result_of(node, values):
    """A non-leaf tensor made by hand, as if ``node`` had computed it."""
    t = _leaf(values)
    t.grad_fn, t._requires_grad = node, True
    return t


@step("1.1")
def record_when_an_input_requires_grad():
    x, c = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0])
    same(should_record(x, c), True, "should_record(x, c) with x.requires_grad=True",
         "x.requires_grad=True 时 should_record(x, c)")
    same(should_record(c, x), True, "should_record(c, x): the order of inputs does not matter",
         "should_record(c, x)：输入的顺序无关紧要")
    same(should_record(c, c), False, "should_record(c, c) when no input requires grad",
         "没有输入需要梯度时 should_record(c, c)")


@step("1.1")
def numbers_never_require_grad():
    x = _leaf([1.0], requires_grad=True)
    same(should_record(x, 2.5), True, "should_record(x, 2.5)", "should_record(x, 2.5)")
    same(should_record(2.5, _leaf([1.0])), False, "should_record(2.5, c): a number needs no gradient",
         "should_record(2.5, c)：Python 数字不需要梯度")


@step("1.1")
def grad_mode_off_records_nothing():
    x = _leaf([1.0], requires_grad=True)
    grad_mode._set_enabled(False)
    try:
        result = should_record(x)
    finally:
        grad_mode._set_enabled(True)
    same(result, False, "should_record(x) while grad mode is off", "梯度模式关闭时 should_record(x)")


@step("1.2")
def edge_of_a_result_is_its_grad_fn():
    node = Node()
    y = _result_of(node, [1.0])
    edge = gradient_edge(y)
    holds(edge[0] is node, "gradient_edge(y)[0] must be y.grad_fn", "gradient_edge(y)[0] 必须是 y.grad_fn")
    same(edge[1], 0, "gradient_edge(y)[1] (the output number)", "gradient_edge(y)[1]（输出编号）")


@step("1.2")
def edge_of_a_leaf_is_its_accumulator():
    w = _leaf([1.0, 2.0], requires_grad=True)
    first, second = gradient_edge(w), gradient_edge(w)
    holds(isinstance(first[0], AccumulateGrad), "a leaf that requires grad must lead to an AccumulateGrad node",
          "需要梯度的叶子节点应当连到一个 AccumulateGrad 节点")
    holds(first[0].variable is w, "AccumulateGrad.variable must be the leaf itself",
          "AccumulateGrad.variable 必须就是这个叶子张量")
    holds(first[0] is second[0], "every use of a leaf must share one AccumulateGrad node (use grad_accumulator)",
          "同一个叶子的每次使用都必须共用同一个 AccumulateGrad 节点（请用 grad_accumulator）")


@step("1.2")
def constants_have_no_edge():
    same(gradient_edge(_leaf([1.0])), (None, 0), "gradient_edge(c) for a constant", "常量的 gradient_edge(c)")
    same(gradient_edge(3.0), (None, 0), "gradient_edge(3.0) for a Python number", "Python 数字的 gradient_edge(3.0)")


@step("1.3")
def sum_to_undoes_broadcasting():
    grad = np.arange(6, dtype=np.float32).reshape(2, 3)
    close(sum_to(grad, (3,)), [3.0, 5.0, 7.0], "sum_to(grad (2, 3), (3,))", "sum_to(grad (2, 3), (3,))")
    close(sum_to(grad, (2, 1)), [[3.0], [12.0]], "sum_to(grad (2, 3), (2, 1))", "sum_to(grad (2, 3), (2, 1))")
    close(sum_to(grad, ()), np.float32(15.0), "sum_to(grad (2, 3), ()) for a scalar", "标量的 sum_to(grad (2, 3), ())")
    close(sum_to(grad, (2, 3)), grad, "sum_to with the same shape must change nothing", "形状相同时 sum_to 不应改变任何东西")


@step("1.3")
def sum_to_keeps_stretched_ones():
    grad = np.ones((4, 2, 3), dtype=np.float32)
    close(sum_to(grad, (2, 1)), np.full((2, 1), 12.0), "sum_to(ones (4, 2, 3), (2, 1))", "sum_to(ones (4, 2, 3), (2, 1))")
    close(sum_to(grad, (1, 1, 3)), np.full((1, 1, 3), 8.0), "sum_to(ones (4, 2, 3), (1, 1, 3))",
          "sum_to(ones (4, 2, 3), (1, 1, 3))")


def _mul_node(a, b, need=(True, True)):
    """A MulBackward0 for ``a * b`` made by hand, the way ``mul`` makes it."""
    sink = Node()
    node = MulBackward0(SavedTensor(a) if need[1] else None, SavedTensor(b) if need[0] else None)
    node.next_functions = tuple((sink if n else None, 0) for n in need)
    node.self_shape, node.other_shape = a._array.shape, b._array.shape
    return node


@step("1.4")
def mul_backward_swaps_the_factors():
    a, b = _leaf([1.0, 2.0, 3.0]), _leaf([4.0, 5.0, 6.0])
    grad_a, grad_b = call_backward(_mul_node(a, b), np.ones(3, dtype=np.float32))
    close(grad_a, [4.0, 5.0, 6.0], "d(a*b)/da with grad = ones", "grad = ones 时的 d(a*b)/da")
    close(grad_b, [1.0, 2.0, 3.0], "d(a*b)/db with grad = ones", "grad = ones 时的 d(a*b)/db")
    grad_a, _ = call_backward(_mul_node(a, b), np.array([1.0, 0.5, 2.0], dtype=np.float32))
    close(grad_a, [4.0, 2.5, 12.0], "d(a*b)/da must be grad * b", "d(a*b)/da 应当等于 grad * b")


@step("1.4")
def mul_backward_undoes_broadcasting():
    a, b = _leaf(np.ones((2, 3))), _leaf([1.0, 2.0, 3.0])
    grad_a, grad_b = call_backward(_mul_node(a, b), np.ones((2, 3), dtype=np.float32))
    close(grad_a, [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], "d(a*b)/da, a (2, 3), b (3,)", "d(a*b)/da，a 为 (2, 3)，b 为 (3,)")
    close(grad_b, [2.0, 2.0, 2.0], "d(a*b)/db must be summed back to b's shape (3,)", "d(a*b)/db 必须求和回 b 的形状 (3,)")


@step("1.4")
def mul_backward_skips_unneeded_gradients():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    grad_a, grad_b = call_backward(_mul_node(a, b, need=(True, False)), np.ones(2, dtype=np.float32))
    close(grad_a, [3.0, 4.0], "d(a*b)/da when only a needs a gradient", "只有 a 需要梯度时的 d(a*b)/da")
    same(grad_b, None, "the gradient for b, which needs none", "b 不需要梯度，它的梯度应为")
