"""Calling the hooks registered on tensors: ``register_hook`` and post-accumulate-grad hooks.

A tensor hook sees a gradient and may return another of the same shape; the engine
(for results of operations) and ``AccumulateGrad`` (for leaves) call them here.
"""
from ..tensor import Tensor
from . import grad_mode, ownership
from .node_api import grad_tensor


def run_tensor_hooks(hooks, grad):
    """Call the hooks registered on one tensor, in order; one that returns a value
    replaces the gradient (an array again, unless the backward is being recorded)."""
    for hook in list(hooks.values()):
        ownership.outsiders_run()  # the hook may keep the gradient, or return one it holds
        result = hook(grad_tensor(grad))
        if result is not None:
            _check_hook_result(hook, result, grad)
            grad = result if grad_mode._enabled else result._array
    return grad


def _check_hook_result(hook, result, grad):
    """A hook may replace the gradient only by a tensor of the same shape (PyTorch's errors)."""
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result.shape != grad.shape:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def run_post_accumulate_hooks(leaf):
    """Call ``hook(leaf)`` for each post-accumulate-grad hook, once ``leaf.grad`` is updated."""
    for hook in list(leaf._post_accumulate_hooks.values()):
        result = hook(leaf)
        if result is None or result is leaf:  # PyTorch lets a hook hand the leaf itself back
            continue
        if not isinstance(result, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")
