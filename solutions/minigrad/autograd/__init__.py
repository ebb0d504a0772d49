"""``torch.autograd``: computing gradients of tensors with respect to the graph's leaves.

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns them
instead and leaves every ``.grad`` alone. Both seed the outputs with a gradient (1 for
a scalar) and hand the rest to the engine.
"""
import warnings

import numpy as np

from ..creation import zeros_like
from ..public_names import public
from ..torch_texts import CREATE_GRAPH_CYCLE
from ..tensor import Tensor
from . import anomaly_mode, engine, grad_mode
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import check_gradient, run_backward
from .function import Function, FunctionCtx
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .inference_mode import inference_mode, is_inference_mode_enabled
from . import graph
from .graph import Node, grad_accumulator, gradient_edge
from . import saved_mutation
from .variable import Variable


graph.register_multi_grad_hook = engine.register_multi_grad_hook  # torch.autograd.graph's names
graph.allow_mutation_on_saved_tensors = saved_mutation.allow_mutation_on_saved_tensors


def _root_edge(tensor, index):
    """Where backward starts for one output: its node, or the accumulator of a leaf."""
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if tensor._requires_grad:
        return (grad_accumulator(tensor), 0)
    raise RuntimeError(f"element {index} of tensors does not require grad and does not have a grad_fn")


def _seed(output, gradient, index, create_graph):
    """The gradient backward starts from: 1 for a scalar output, else the ``gradient`` given."""
    if gradient is None:
        if output._requires_grad and output._array.size != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        seed = np.ones(output._array.shape, dtype=output._array.dtype)
        return Tensor._wrap(seed) if create_graph else seed
    return check_gradient(output, gradient, index, create_graph)


def _as_tensors(tensors):
    """One tensor or a sequence of them, as a tuple."""
    return (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)


def _start(tensors, gradients, create_graph):
    """The edges backward starts from and the gradient seeding each, checked as PyTorch does."""
    if gradients is None or isinstance(gradients, Tensor):
        gradients = (gradients,) * len(tensors) if gradients is None else (gradients,)
    gradients = tuple(gradients)
    for gradient in gradients:
        if gradient is not None and not isinstance(gradient, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(gradient).__name__}")
    if len(gradients) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(gradients)} gradients")
    seeds = [_seed(t, g, i, create_graph) for i, (t, g) in enumerate(zip(tensors, gradients))]
    edges = [_root_edge(t, i) for i, t in enumerate(tensors)]
    return edges, seeds


_warned_of_cycle = False


@public(methods="backward")
def _tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """``Tensor.backward``: compute the gradient of this tensor with respect to the graph's leaves. Tensor sits
    below autograd, so autograd gives it this method (``public_names``), as the operations give theirs."""
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the leaves' ``.grad``.

    With ``inputs``, only those tensors receive gradients (a non-leaf among them starts
    retaining its ``.grad``), and only the part of the graph leading to them runs. With
    ``create_graph``, PyTorch warns once: a leaf's ``.grad`` then refers, through its
    graph, back to the leaf.
    """
    global _warned_of_cycle
    tensors = _as_tensors(tensors)
    if not tensors:
        return
    edges, seeds = _start(tensors, grad_tensors, create_graph)
    if create_graph and not _warned_of_cycle:
        _warned_of_cycle = True
        warnings.warn(CREATE_GRAPH_CYCLE, UserWarning, stacklevel=3)
    keep_graph = create_graph if retain_graph is None else retain_graph
    targets = None
    if inputs is not None:
        inputs = _as_tensors(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        targets = [_accumulating_edge(t) for t in inputs]
    run_backward(edges, seeds, keep_graph, create_graph, targets)


def _accumulating_edge(tensor):
    """The edge through which ``tensor`` receives its gradient in ``backward(inputs=...)``."""
    if tensor.grad_fn is None and tensor._requires_grad:
        return (grad_accumulator(tensor), 0)
    tensor.retain_grad()
    return (tensor.grad_fn, tensor._output_nr)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned as a tuple.

    Nothing is accumulated into ``.grad``, and only the nodes that lead to an input run.
    An input the outputs do not depend on is an error, unless ``allow_unused`` (its
    gradient is then None) or ``materialize_grads`` (zeros).
    """
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    outputs, inputs = _as_tensors(outputs), _as_tensors(inputs)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    for x in inputs:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(x).__name__}")
    edges, seeds = _start(outputs, grad_outputs, create_graph)
    for x in inputs:
        if not x._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    keep_graph = create_graph if retain_graph is None else retain_graph
    captured = run_backward(edges, seeds, keep_graph, create_graph, [gradient_edge(x) for x in inputs], True)
    results = []
    for index, (x, g) in enumerate(zip(inputs, captured)):
        if g is None:
            if materialize_grads:
                g = zeros_like(x, requires_grad=create_graph)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        elif not isinstance(g, Tensor):
            g = Tensor._wrap(np.array(g))  # a copy: the engine may have handed the same array elsewhere
        results.append(g)
    return tuple(results)


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """``grad(..., is_grads_batched=True)``: one ``grad`` per slice along the first dimension of
    each grad output, stacked. PyTorch computes the slices at once with vmap; the values are the same."""
    if create_graph:
        raise NotImplementedError("minigrad's autograd.grad runs is_grads_batched=True without create_graph only")
    grad_outputs = _as_tensors(grad_outputs)
    count = grad_outputs[0].shape[0]
    rows = [
        grad(outputs, inputs, [g[k] for g in grad_outputs], retain_graph=True if k < count - 1 else retain_graph,
             allow_unused=allow_unused, materialize_grads=materialize_grads)
        for k in range(count)
    ]
    return tuple(
        None if rows[0][i] is None else Tensor._wrap(np.stack([row[i]._array for row in rows]))
        for i in range(len(inputs))
    )


# ``functional``, ``gradcheck`` (the function shadows its module, as in PyTorch) and ``profiler``
# are built on the operations, which are built on this package: ``minigrad/__init__.py``
# adds them once the operations exist.
__all__ = [
    "Function", "FunctionCtx", "Node", "anomaly_mode", "backward", "detect_anomaly", "enable_grad",
    "functional", "grad", "grad_mode", "gradcheck", "gradgradcheck", "inference_mode", "is_grad_enabled",
    "is_inference_mode_enabled", "no_grad", "set_detect_anomaly", "set_grad_enabled", "Variable",
]
