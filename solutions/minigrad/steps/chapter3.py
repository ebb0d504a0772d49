"""Checks for chapter 3: turning tracking off."""
import numpy as np

from ..autograd import grad_mode
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node
from ..tensor import Tensor
from ..tensor_data import NOT_LEAF_FLAG
from . import step
from .expect import holds, refuses, same


def _leaf(values, requires_grad=False, dtype=np.float32):
    return Tensor._wrap(np.asarray(values, dtype=dtype), requires_grad)


@step("3.1")
def no_grad_turns_recording_off_and_back_on():
    with no_grad():
        same(grad_mode._enabled, False, "grad mode inside `with no_grad()`", "`with no_grad()` 内的梯度模式")
    same(grad_mode._enabled, True, "grad mode after the block", "代码块结束后的梯度模式")


@step("3.1")
def no_grad_restores_the_previous_mode_when_nested():
    with no_grad():
        with no_grad():
            pass
        same(grad_mode._enabled, False, "grad mode after an inner no_grad block ends inside an outer one",
             "内层 no_grad 结束后（仍在外层中）的梯度模式")
    same(grad_mode._enabled, True, "grad mode after both blocks", "两层代码块都结束后的梯度模式")


@step("3.1")
def no_grad_restores_the_mode_after_an_exception():
    try:
        with no_grad():
            raise KeyError("inside")
    except KeyError:
        pass
    same(grad_mode._enabled, True, "grad mode after an exception left the block", "异常离开代码块之后的梯度模式")


@step("3.2")
def detach_shares_data_and_version_counter():
    x = _leaf([1.0, 2.0], requires_grad=True)
    d = x.detach()
    holds(d is not x, "detach() must return a new tensor", "detach() 必须返回一个新张量")
    holds(d._array is x._array, "detach() must share the array, not copy it", "detach() 必须共用数组，而不是复制")
    holds(d._version_counter is x._version_counter, "detach() must share the version counter",
          "detach() 必须共用版本计数器")
    same(d.requires_grad, False, "detach().requires_grad", "detach().requires_grad")
    same(d.grad_fn, None, "detach().grad_fn", "detach().grad_fn")


@step("3.3")
def requires_grad_switches_a_leaf():
    x = _leaf([1.0, 2.0])
    holds(x.requires_grad_() is x, "requires_grad_() must return the tensor itself", "requires_grad_() 必须返回张量本身")
    same(x.requires_grad, True, "requires_grad after requires_grad_()", "调用 requires_grad_() 之后的 requires_grad")
    x.requires_grad_(False)
    same(x.requires_grad, False, "requires_grad after requires_grad_(False)", "调用 requires_grad_(False) 之后的 requires_grad")


@step("3.3")
def requires_grad_refuses_integers():
    refuses(lambda: _leaf([1, 2], dtype=np.int64).requires_grad_(),
            "only Tensors of floating point dtype can require gradients",
            "for requires_grad_() on an int64 tensor", "对 int64 张量调用 requires_grad_() 时")


@step("3.3")
def requires_grad_false_refuses_non_leaves():
    y = _leaf([1.0])
    y.grad_fn, y._requires_grad = Node(), True
    holds(y.requires_grad_(True) is y, "requires_grad_(True) on a non-leaf returns it unchanged",
          "对非叶子节点调用 requires_grad_(True) 应原样返回")
    refuses(lambda: y.requires_grad_(False), NOT_LEAF_FLAG,
            "for requires_grad_(False) on a non-leaf", "对非叶子节点调用 requires_grad_(False) 时")
