"""Checks for chapter 4: seeding backward with a vector, accumulation, zeroing, freeing."""
import gc
import weakref

import numpy as np

from ..autograd import check_gradient
from ..autograd.graph import accumulate_grad
from ..autograd.saved_tensor import SECOND_BACKWARD
from ..tensor import Tensor
from . import step
from .expect import close, holds, refuses, same


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


@step("4.1")
def a_gradient_of_the_output_shape_is_accepted():
    output = _leaf([[1.0, 2.0], [3.0, 4.0]])
    seed = check_gradient(output, _leaf(np.ones((2, 2))), 0, False)
    close(seed, np.ones((2, 2)), "the seed for gradient=ones(2, 2)", "gradient=ones(2, 2) 时的初始梯度")
    seed = check_gradient(output, [[1.0, 2.0], [3.0, 4.0]], 0, False)
    close(seed, [[1.0, 2.0], [3.0, 4.0]], "the seed for a gradient given as nested lists", "以嵌套列表给出的梯度")


@step("4.1")
def a_gradient_of_another_shape_is_refused():
    refuses(lambda: check_gradient(_leaf([1.0, 2.0, 3.0]), _leaf([1.0, 1.0]), 0, False),
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
            "torch.Size([3]).",
            "for a gradient of shape (2,) given to an output of shape (3,)", "为形状 (3,) 的输出给出形状 (2,) 的梯度时")


@step("4.1")
def with_create_graph_the_seed_stays_a_tensor():
    v = _leaf([0.5, 0.5])
    holds(check_gradient(_leaf([1.0, 2.0]), v, 0, True) is v, "with create_graph=True, return the gradient tensor itself",
          "create_graph=True 时应返回梯度张量本身")


@step("4.2")
def a_second_gradient_is_added():
    w = _leaf([1.0, 2.0], requires_grad=True)
    w._grad = _leaf([0.5, 0.5])
    kept = w._grad
    accumulate_grad(w, np.array([1.0, 2.0], dtype=np.float32))
    close(w._grad, [1.5, 2.5], "w.grad after a second gradient arrives", "第二个梯度到达后的 w.grad")
    holds(w._grad is kept, "add in place: w.grad must stay the same tensor", "应原地累加：w.grad 必须还是同一个张量")


@step("4.3")
def zero_fills_in_place_and_counts_a_version():
    g = _leaf([1.0, -2.0, 3.0])
    array = g._array
    holds(g.zero_() is g, "zero_() must return the tensor itself", "zero_() 必须返回张量本身")
    close(g, [0.0, 0.0, 0.0], "the tensor after zero_()", "调用 zero_() 之后的张量")
    holds(g._array is array, "zero_() must change the array in place", "zero_() 必须原地修改数组")
    same(g._version, 1, "the version after one in-place change", "一次原地修改之后的版本号")


def _saved_of(node):
    return [value for value in node._saved if value is not None]


def _still_all_there(saved):
    """Step 4.4's stub does nothing: if no saved tensor let go of its value, the step is not written yet."""
    if all(value._array is not None for value in saved):
        raise NotImplementedError("step 4.4: after _release() every saved tensor still holds its value")


@step("4.4")
def release_lets_go_of_every_saved_tensor():
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    node = (x * x).grad_fn  # MulBackward0 saves both factors
    saved = _saved_of(node)
    node._release()
    _still_all_there(saved)
    for value in saved:
        holds(value._array is None and value._tensor is None,
              "after _release(), each SavedTensor must hold neither its array nor its tensor",
              "调用 _release() 之后，每个 SavedTensor 都不能再持有它的数组或张量")
    refuses(lambda: node._saved_self, SECOND_BACKWARD,
            "for reading _saved_self after _release()", "_release() 之后读取 _saved_self 时")


@step("4.4")
def backward_gives_the_memory_back_unless_the_graph_is_retained():
    x = _leaf(np.ones(1000), requires_grad=True)
    h = x * 2
    kept = weakref.ref(h._array)
    y = h * h  # saves h: the only thing left that holds h's array once h is gone
    del h
    y.sum().backward(retain_graph=True)
    holds(kept() is not None, "with retain_graph=True the saved tensors must stay",
          "retain_graph=True 时保存的张量必须保留")
    y.sum().backward()
    _still_all_there(_saved_of(y.grad_fn))
    gc.collect()
    holds(kept() is None, "after backward without retain_graph, the saved intermediate's memory must be freed",
          "不带 retain_graph 的 backward 之后，被保存的中间结果占用的内存必须被释放")
    close(x.grad, np.full(1000, 16.0), "x.grad after two backward calls", "两次 backward 之后的 x.grad")
