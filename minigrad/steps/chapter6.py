"""Checks for chapter 6: hooks, retained gradients and the version counter's message."""
import numpy as np

from ..autograd.graph import Node
from ..autograd.saved_tensor import SavedTensor
from ..tensor import Tensor
from . import step
from .expect import close, holds, refuses, same


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


@step("6.1")
def retain_grad_keeps_a_non_leaf_gradient():
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    same(h.retains_grad, True, "h.retains_grad after retain_grad()", "调用 retain_grad() 之后的 h.retains_grad")
    (h * h).sum().backward()
    close(h._grad, [4.0, 8.0], "h.grad for (h * h).sum()", "(h * h).sum() 的 h.grad")


@step("6.1")
def retain_grad_on_a_leaf_changes_nothing():
    x = _leaf([1.0], requires_grad=True)
    x.retain_grad()
    same(x.retains_grad, False, "retains_grad of a leaf after retain_grad()", "叶子节点调用 retain_grad() 之后的 retains_grad")


@step("6.1")
def retain_grad_refuses_constants():
    refuses(lambda: _leaf([1.0]).retain_grad(), "can't retain_grad on Tensor that has requires_grad=False",
            "for retain_grad() on a tensor that does not require grad", "对不需要梯度的张量调用 retain_grad() 时")


@step("6.2")
def a_hook_sees_the_gradient_of_a_non_leaf():
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 3
    seen = []
    h.register_hook(lambda grad: seen.append(grad._array.copy()))
    h.sum().backward()
    same(len(seen), 1, "calls of the hook during one backward", "一次反向传播中钩子被调用的次数")
    close(seen[0], [1.0, 1.0], "the gradient the hook saw", "钩子看到的梯度")


@step("6.2")
def a_hook_may_replace_a_leaf_gradient():
    x = _leaf([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda grad: grad * 10)
    (x * 1.0).sum().backward()
    close(x._grad, [10.0, 10.0], "x.grad when x's hook multiplies it by 10", "x 的钩子把梯度乘以 10 时的 x.grad")


@step("6.2")
def a_removed_hook_is_not_called():
    x = _leaf([1.0], requires_grad=True)
    handle = x.register_hook(lambda grad: grad * 10)
    handle.remove()
    (x * 1.0).sum().backward()
    close(x._grad, [1.0], "x.grad after handle.remove()", "调用 handle.remove() 之后的 x.grad")


def _mul_node():
    node = Node()
    node.__class__ = type("MulBackward0", (Node,), {"__slots__": ()})
    return node


@step("6.3")
def the_message_names_the_producer_and_the_versions():
    b = _leaf([1.0, 2.0, 3.0])
    b.grad_fn, b._requires_grad = _mul_node(), True
    saved = SavedTensor(b)
    b._version_counter[0] += 1
    same(saved._modified_message(None),
         "one of the variables needed for gradient computation has been modified by an inplace operation: "
         "[torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; expected version 0 instead. Hint: "
         "enable anomaly detection to find the operation that failed to compute its gradient, with "
         "torch.autograd.set_detect_anomaly(True, check_nan=False).",
         "the message for a saved non-leaf changed once", "保存的非叶子张量被修改一次时的提示信息")


@step("6.3")
def a_leaf_has_no_producer_in_the_message():
    w = Tensor._wrap(np.zeros((2, 2)), True)
    saved = SavedTensor(w)
    w._version_counter[0] += 2
    message = saved._modified_message(None)
    holds("[torch.DoubleTensor [2, 2]] is at version 2; expected version 0 instead." in message,
          f"for a float64 leaf of shape (2, 2) changed twice, got: {message}",
          f"对形状 (2, 2)、被修改两次的 float64 叶子节点，得到：{message}")
