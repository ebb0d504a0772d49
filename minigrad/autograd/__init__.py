"""``torch.autograd``: computing gradients of tensors with respect to the graph's leaves."""
import numpy as np

from . import grad_mode
from .engine import run_backward
from .function import Function, FunctionCtx
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .graph import Node, grad_accumulator


def _root_edge(tensor, index):
    """Where backward starts for one output: its node, or the accumulator of a leaf."""
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if tensor._requires_grad:
        return (grad_accumulator(tensor), 0)
    raise RuntimeError(f"element {index} of tensors does not require grad and does not have a grad_fn")


def _seed(output, gradient, index, create_graph):
    """The gradient backward starts from: 1 for a scalar output, else the ``gradient`` given."""
    from ..tensor import Tensor

    if gradient is None:
        if output._requires_grad and output._array.size != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        seed = np.ones(output._array.shape, dtype=output._array.dtype)
        return Tensor._wrap(seed) if create_graph else seed
    return check_gradient(output, gradient, index, create_graph)


def check_gradient(output, gradient, index, create_graph):
    """A user-given gradient (the ``v`` of vᵀ·J) must have the output's shape."""
    from ..tensor import Tensor

    raise NotImplementedError("step 4.1: your code goes here (see the chapter's exercise)")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the leaves' ``.grad``."""
    from ..tensor import Tensor

    tensors = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)
    if grad_tensors is None or isinstance(grad_tensors, Tensor):
        grad_tensors = (grad_tensors,) * len(tensors) if grad_tensors is None else (grad_tensors,)
    seeds = [_seed(t, g, i, create_graph) for i, (t, g) in enumerate(zip(tensors, grad_tensors))]
    edges = [_root_edge(t, i) for i, t in enumerate(tensors)]
    keep_graph = create_graph if retain_graph is None else retain_graph
    run_backward(edges, seeds, keep_graph, create_graph)


__all__ = [
    "Function", "FunctionCtx", "Node", "backward", "enable_grad", "grad_mode", "inference_mode",
    "is_grad_enabled", "no_grad", "set_grad_enabled",
]
