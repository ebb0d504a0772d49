"""Checks for chapter 4: seeding backward with a vector, accumulation, zeroing."""
import numpy as np

from ..autograd import check_gradient
from ..autograd.graph import accumulate_grad
from ..tensor import Tensor
from . import step
from .expect import close, holds, same


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
    try:
        check_gradient(_leaf([1.0, 2.0, 3.0]), _leaf([1.0, 1.0]), 0, False)
    except RuntimeError as error:
        same(str(error), "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a "
             "shape of torch.Size([3]).", "the error for a gradient of the wrong shape", "梯度形状错误时的报错信息")
    else:
        holds(False, "a gradient of shape (2,) for an output of shape (3,) must raise RuntimeError",
              "为形状 (3,) 的输出给出形状 (2,) 的梯度必须抛出 RuntimeError")


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
