"""Checks for chapter 5: custom autograd Functions."""
import numpy as np

from ..autograd import grad_mode
from ..autograd.function import Function, _link
from ..autograd.saved_tensor import SavedTensor
from ..messages import N_
from ..tensor import Tensor
from . import draw, step
from .expect import call_backward


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
def saved_tensors_give_back_what_was_saved(see):
    ctx = _bare_ctx()
    x = _leaf([1.0, 2.0])
    ctx.save_for_backward(x, None)
    see(len(ctx._to_save), N_("len(ctx._to_save) after save_for_backward(x, None)"))
    ctx._saved = (SavedTensor(x), None)
    saved = ctx.saved_tensors
    see.that(isinstance(saved, tuple) and len(saved) == 2, N_("saved_tensors must be a tuple of 2"))
    see.that(saved[0] is x and saved[1] is None, N_("saved_tensors must give back x and None"))


def _apply_square():
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    return x, _Square.apply(x, 2.0)


@step("5.2")
def apply_returns_forward_result_with_one_node(see):
    x, y = _apply_square()
    see(y, N_("_Square.apply(x, 2.0)"))
    see.that(type(y.grad_fn).__name__ == "_SquareBackward", N_("the output's grad_fn must be the _SquareBackward node"))
    see(len(y.grad_fn.next_functions), N_("edges of the node (one per tensor argument)"))


@step("5.2")
def forward_runs_without_recording(see):
    class Inner(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.recorded_inside = grad_mode._enabled
            return Tensor._wrap(x._array * 2)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Inner.apply(_leaf([1.0], requires_grad=True))
    see(y.grad_fn.recorded_inside, N_("grad mode inside forward"))


@step("5.2")
def constants_give_no_node(see):
    y = _Square.apply(_leaf([1.0, 2.0]), 1.0)
    see(y.grad_fn, N_("grad_fn when no input requires grad"))


def _linked_square():
    """Apply's result made by hand: the node linked as apply would link it."""
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    ctx = _bare_ctx()
    ctx.needs_input_grad, ctx._non_differentiable = (True, False), ()
    out = _Square.forward(ctx, x, 2.0)
    _link(ctx, (x, 2.0), (out,))
    return x, ctx


@step("5.3")
def backward_calls_yours_and_keeps_tensor_inputs(see):
    x, ctx = _linked_square()
    grads = call_backward(ctx, np.ones(3, dtype=np.float32))
    see.require(isinstance(grads, (tuple, list)), GRADIENTS)
    see(len(grads), N_("gradients returned (one per tensor argument)"))
    see(grads[0], N_("the gradient for x (2x)"))
    see.that(isinstance(grads[0], np.ndarray), N_("outside create_graph, return arrays"))


NOT_WRAPPED = N_(
    "a backward that returns a single gradient, not in a tuple, was not accepted: wrap a result that is not a "
    "tuple in a tuple of one before counting the gradients (reread exercise 5.3)."
)
GRADIENTS = N_("the node's backward must return a tuple (or list) of gradients, one per tensor argument (reread exercise 5.3).")


class _Double(Function):
    @staticmethod
    def forward(ctx, x):
        return Tensor._wrap(x._array * 2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2  # one argument: PyTorch accepts a single gradient, not in a tuple


@step("5.3")
def a_single_gradient_needs_no_tuple(see):
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    ctx = object.__new__(_Double._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    ctx.needs_input_grad, ctx._non_differentiable = (True,), ()
    _link(ctx, (x,), (_Double.forward(ctx, x),))
    grads = see.attempt(lambda: call_backward(ctx, np.ones(3, dtype=np.float32)),
                        ((RuntimeError, TypeError, IndexError), NOT_WRAPPED))
    see.require(isinstance(grads, (tuple, list)), GRADIENTS)
    see(list(grads), N_("the gradients of a Function of one argument whose backward returns grad * 2"))


@step("5.3")
def backward_refuses_a_wrong_number_of_gradients(see):
    class Short(_Square):
        @staticmethod
        def backward(ctx, grad):
            return grad

    ctx = object.__new__(Short._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    ctx.needs_input_grad, ctx._tensor_positions = (True, False), (0,)
    ctx._shape, ctx._dtype = (1,), np.dtype(np.float32)
    see.error(lambda: call_backward(ctx, np.ones(1, dtype=np.float32)), N_("the error for a backward returning 1 gradient for 2 arguments"))


@step("5.1")
def saving_tensors_drawn_at_random(see):
    ctx = _bare_ctx()
    tensors = [_leaf(draw.values(see.rng, (2,))) if see.rng.random() < 0.7 else None
               for _ in range(int(see.rng.integers(1, 5)))]
    ctx.save_for_backward(*tensors)
    ctx._saved = tuple(None if t is None else SavedTensor(t) for t in tensors)
    see([a is b for a, b in zip(ctx.saved_tensors, tensors)], N_("saved_tensors gives back each tensor saved (or None), drawn at random"))


@step("5.2")
def apply_on_drawn_values(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=bool(see.rng.random() < 0.7))
    y = _Square.apply(x, float(draw.values(see.rng, ())))
    see(y, N_("_Square.apply(x, scale) for values drawn at random"))
    see(y.grad_fn is None, N_("whether the result of apply has no node, for an x drawn at random"))


@step("5.3")
def backward_of_drawn_values(see):
    x, ctx = _linked_square()
    x._array[...] = draw.values(see.rng, (3,))
    grads = call_backward(ctx, draw.values(see.rng, (3,)))
    see.require(isinstance(grads, (tuple, list)) and len(grads) > 0, GRADIENTS)
    see(grads[0], N_("the gradient for x (2x times the gradient), values drawn at random"))
