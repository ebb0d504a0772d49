"""Forward-mode AD: dual tensors carry a tangent, and ``unpack_dual`` gives the tangent of a result.

``make_dual(primal, tangent)`` (inside ``with dual_level():``) returns a tensor with the
primal's values; ``unpack_dual(y)`` returns ``(primal, tangent)``, where the tangent of
``y`` is the Jacobian-vector product J·t of everything that led from the dual tensors to
``y``. Nothing here runs while an operation runs: minigrad records the graph anyway (a
dual tensor takes part in recording as a tensor that requires grad), and ``unpack_dual``
walks that graph forward, from the dual tensors to ``y``, calling each node's
forward-mode rule. So forward mode costs an operation nothing, dual tensors or not.

A node's rule is its ``jvp(*tangents)`` method, beside its ``backward`` in its ``ops/``
module: the input tangents in, one tangent per output out (arrays, None for "zero").
A node without one is still handled: its ``backward`` is linear in the gradient,
``g -> Jᵀ·g``, so differentiating ``<Jᵀ·u, t>`` with respect to ``u`` gives J·t (the
"double-backward trick"). A custom ``Function`` uses its ``jvp`` staticmethod, reading
what ``ctx.save_for_forward`` kept.

Differences from PyTorch, all of them from recording instead of computing tangents
eagerly: a result computed from a dual tensor has a ``grad_fn`` and ``requires_grad``
(PyTorch: only when its primal needs them); tangents do not pass through operations
run under ``no_grad``; only one dual level exists at a time, as in PyTorch today.
"""
from collections import namedtuple

import numpy as np

from ..tensor import Tensor
from . import grad as _reverse_grad
from . import grad_mode
from .graph import AccumulateGrad, Node, grad_accumulator, record

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])


class _Level:
    """The open dual level: each dual tensor's source node, its tangent, and results found."""

    def __init__(self):
        self.tangents = {}  # source node (AccumulateGrad, or ViewBackward0) -> tangent array
        self.found = {}  # node -> tangent of each output, once unpack_dual has walked to it
        self.duals = {}  # id(dual tensor) -> (dual tensor, tangent tensor)


_level = None  # the open dual level, or None


class dual_level:
    """``with dual_level():`` the scope in which dual tensors exist; their tangents end with it."""

    def __enter__(self):
        global _level
        if _level is not None:
            raise RuntimeError("Nested forward mode AD is not supported at the moment")
        _level = _Level()
        return 0

    def __exit__(self, *exc):
        """The tangents go; a dual of a tensor that did not require grad stops requiring it."""
        global _level
        for dual, _ in _level.duals.values():
            if dual.grad_fn is None:
                dual._requires_grad = False
        _level = None


def enter_dual_level():
    dual_level().__enter__()
    return 0


def exit_dual_level(*, level=None):
    dual_level().__exit__()


class ViewBackward0(Node):
    """The dual of a primal that requires grad, an alias of it (PyTorch names its node so):
    gradients pass through to the primal unchanged."""

    __slots__ = ()

    def backward(self, grad):
        return grad


def make_dual(tensor, tangent, *, level=None):
    """A tensor with ``tensor``'s values (its memory too) whose tangent is ``tangent``."""
    if _level is None:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first."
        )
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            f"Trying to set a forward gradient that has a different size than that of the original Tensor, this "
            f"is not supported. Tensor is of size {list(tensor.shape)} while the given forward gradient is of "
            f"size {list(tangent.shape)}."
        )
    if tangent._array.strides != tensor._array.strides or tangent.dtype != tensor.dtype:
        tangent = Tensor._wrap(np.array(tangent._array, dtype=tensor._array.dtype, order="C"))
    dual = Tensor._wrap(tensor._array)
    dual._version_counter = tensor._version_counter
    if tensor.requires_grad:
        source = ViewBackward0()
        record(dual, source, tensor)
    else:
        dual._requires_grad = True  # recorded through, so that unpack_dual can walk forward
        source = grad_accumulator(dual)
    _level.tangents[source] = tangent._array
    _level.duals[id(dual)] = (dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)``: the tangent is None for a tensor no dual tensor led to."""
    if _level is None:
        return UnpackedDualTensor(tensor, None)
    made = _level.duals.get(id(tensor))
    if made is not None and made[0] is tensor:
        return UnpackedDualTensor(_primal(tensor), made[1])
    tangent = _tangent(tensor)
    return UnpackedDualTensor(_primal(tensor), None if tangent is None else Tensor._wrap(tangent))


def _primal(tensor):
    """The values, without the forward-mode history (a tensor that truly requires grad keeps its own)."""
    if tensor.grad_fn is None and not tensor._requires_grad:
        return tensor
    if _reaches_only_duals(tensor):
        out = Tensor._wrap(tensor._array)
        out._version_counter = tensor._version_counter
        return out
    return tensor


def _reaches_only_duals(tensor):
    """Whether ``tensor`` requires grad only because dual tensors were recorded through."""
    stack, seen = [tensor.grad_fn or grad_accumulator(tensor)], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is AccumulateGrad:
            if node not in _level.tangents:
                return False
        elif type(node) is ViewBackward0:
            return False
        else:
            stack.extend(fn for fn, _ in node.next_functions)
    return True


def _tangent(tensor):
    """The tangent of ``tensor`` (an array, or None), walking the graph forward from the duals."""
    node = tensor.grad_fn or (grad_accumulator(tensor) if tensor._requires_grad else None)
    if node is None:
        return None
    for current in _postorder(node):
        if current not in _level.found:
            _level.found[current] = _outputs_tangents(current)
    return _level.found[node][tensor._output_nr]


def _postorder(root):
    """The nodes ``root`` depends on, each after all of its inputs (no recursion)."""
    order, done, stack = [], set(), [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node is None or node in done or node in _level.found:
            continue
        if expanded:
            done.add(node)
            order.append(node)
            continue
        stack.append((node, True))
        if node not in _level.tangents:
            stack.extend((fn, False) for fn, _ in node.next_functions)
    return order


def _outputs_tangents(node):
    """One tangent per output of ``node`` (None where it is zero)."""
    if node in _level.tangents:
        return (_level.tangents[node],)
    inputs = [None if fn is None else _level.found[fn][nr] for fn, nr in node.next_functions]
    if all(t is None for t in inputs):
        return (None,) * node._num_outputs
    forward_cls = getattr(node, "_forward_cls", None)
    if forward_cls is not None:
        return _function_jvp(node, forward_cls, inputs)
    rule = getattr(node, "jvp", None)
    if rule is not None:
        with grad_mode.no_grad():
            out = rule(*inputs)
        return out if isinstance(out, tuple) else (out,)
    return _by_double_backward(node, inputs)


def _by_double_backward(node, tangents):
    """J·t from the node's backward g -> Jᵀ·g: the gradient of <Jᵀ·u, t> with respect to u."""
    metas = [(node._shape, node._dtype)] + [node._output_meta(nr) for nr in range(1, node._num_outputs)]
    seeds = [Tensor._wrap(np.zeros(shape, dtype), requires_grad=True) for shape, dtype in metas]
    with grad_mode.enable_grad():
        grads = node.backward(*seeds)
        grads = grads if isinstance(grads, tuple) else (grads,)
        total = None
        for g, t in zip(grads, tangents):
            if g is not None and t is not None and isinstance(g, Tensor):
                term = (g * Tensor._wrap(t)).sum()
                total = term if total is None else total + term
    if total is None:
        return (None,) * node._num_outputs
    found = _reverse_grad(total, seeds, allow_unused=True)
    return tuple(None if f is None else f._array for f in found)


class _JvpContext:
    """The ``ctx`` a Function's ``jvp`` sees: the node, with ``saved_tensors`` reading what
    ``ctx.save_for_forward`` kept (nothing, as in PyTorch, if forward kept nothing for it)."""

    def __init__(self, node):
        object.__setattr__(self, "_node", node)

    @property
    def saved_tensors(self):
        return tuple(self._node.__dict__.get("_saved_for_forward", ()))

    def __getattr__(self, name):
        return getattr(self._node, name)

    def __setattr__(self, name, value):
        setattr(self._node, name, value)

    def __delattr__(self, name):
        delattr(self._node, name)


def _function_jvp(node, forward_cls, tangents):
    """A custom Function's ``jvp(ctx, *tangents)``: a tangent per tensor input, None ones as zeros."""
    inputs = [Tensor._wrap(np.zeros(shape, dtype) if t is None else t)
              for t, (shape, dtype) in zip(tangents, node._inputs_meta)]
    with grad_mode.no_grad():
        out = forward_cls.jvp(_JvpContext(node), *inputs)
    out = out if isinstance(out, tuple) else (out,)
    if len(out) != len(node._outputs_meta):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients (expected "
                           f"{len(node._outputs_meta)} but got {len(out)})")
    return tuple(None if t is None else (t._array if isinstance(t, Tensor) else np.asarray(t)) for t in out)
