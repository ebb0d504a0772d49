"""Checks for chapter 5: custom autograd Functions."""
import numpy as np

from ..autograd import grad_mode
from ..autograd.function import Function, _link
from ..autograd.saved_tensor import SavedTensor
from ..tensor import Tensor
from . import step
from .expect import call_backward, close, holds, refuses, same


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


class _Square(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        return Tensor._wrap(x._array * x._array * scale)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x * 2, None


def _bare_ctx():
    """A node of ``_Square`` made by hand, as ``apply`` makes it."""
    ctx = object.__new__(_Square._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    return ctx


@step("5.1")
def saved_tensors_give_back_what_was_saved():
    ctx = _bare_ctx()
    x = _leaf([1.0, 2.0])
    ctx.save_for_backward(x, None)
    same(len(ctx._to_save), 2, "len(ctx._to_save) after save_for_backward(x, None)", "save_for_backward(x, None) 之后的 len(ctx._to_save)")
    ctx._saved = (SavedTensor(x), None)
    saved = ctx.saved_tensors
    holds(isinstance(saved, tuple) and len(saved) == 2, "saved_tensors must be a tuple of 2", "saved_tensors 必须是包含 2 项的元组")
    holds(saved[0] is x and saved[1] is None, "saved_tensors must give back x and None", "saved_tensors 应当返回 x 和 None")


def _apply_square():
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    return x, _Square.apply(x, 2.0)


@step("5.2")
def apply_returns_forward_result_with_one_node():
    x, y = _apply_square()
    close(y, [2.0, 8.0, 18.0], "_Square.apply(x, 2.0)", "_Square.apply(x, 2.0)")
    holds(type(y.grad_fn).__name__ == "_SquareBackward", "the output's grad_fn must be the _SquareBackward node",
          "输出的 grad_fn 必须是 _SquareBackward 节点")
    same(len(y.grad_fn.next_functions), 1, "edges of the node (one per tensor argument)", "节点的边数（每个张量参数一条）")


@step("5.2")
def forward_runs_without_recording():
    class Inner(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.recorded_inside = grad_mode._enabled
            return Tensor._wrap(x._array * 2)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Inner.apply(_leaf([1.0], requires_grad=True))
    same(y.grad_fn.recorded_inside, False, "grad mode inside forward", "forward 内部的梯度模式")


@step("5.2")
def constants_give_no_node():
    y = _Square.apply(_leaf([1.0, 2.0]), 1.0)
    same(y.grad_fn, None, "grad_fn when no input requires grad", "没有输入需要梯度时的 grad_fn")


def _linked_square():
    """Apply's result made by hand: the node linked as apply would link it."""
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    ctx = _bare_ctx()
    ctx.needs_input_grad, ctx._non_differentiable = (True, False), ()
    out = _Square.forward(ctx, x, 2.0)
    _link(ctx, (x, 2.0), (out,))
    return x, ctx


@step("5.3")
def backward_calls_yours_and_keeps_tensor_inputs():
    x, ctx = _linked_square()
    grads = call_backward(ctx, np.ones(3, dtype=np.float32))
    same(len(grads), 1, "gradients returned (one per tensor argument)", "返回的梯度个数（每个张量参数一个）")
    close(grads[0], [2.0, 4.0, 6.0], "the gradient for x (2x)", "x 的梯度（2x）")
    holds(isinstance(grads[0], np.ndarray), "outside create_graph, return arrays", "不在 create_graph 中时应返回数组")


@step("5.3")
def backward_refuses_a_wrong_number_of_gradients():
    class Short(_Square):
        @staticmethod
        def backward(ctx, grad):
            return grad

    ctx = object.__new__(Short._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    ctx.needs_input_grad, ctx._tensor_positions = (True, False), (0,)
    ctx._shape, ctx._dtype = (1,), np.dtype(np.float32)
    refuses(lambda: call_backward(ctx, np.ones(1, dtype=np.float32)),
            "function ShortBackward returned an incorrect number of gradients (expected 2, got 1)",
            "for a backward returning 1 gradient for 2 arguments", "backward 为 2 个参数只返回 1 个梯度时")
