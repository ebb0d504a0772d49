"""Custom autograd Functions: a forward and a backward written by the user.

``Exp.apply(x)`` runs ``Exp.forward(ctx, x)`` without recording, then records one
node for the whole call. That node *is* the ``ctx`` the user saw: what ``forward``
saved with ``ctx.save_for_backward`` is what ``backward`` reads from
``ctx.saved_tensors``. Its class is ``ExpBackward``, made once per Function.
"""
import numpy as np

from . import grad_mode
from .graph import Node, SavedTensor, gradient_edge, _sequence, should_record


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors and flags."""

    def save_for_backward(self, *tensors):
        """Keep tensors for backward; each is checked for in-place changes when read."""
        self._to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors ``forward`` saved (a RuntimeError once backward has freed them)."""
        return tuple(s.unpack(self, True) if type(s) is SavedTensor else s for s in self._saved)

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def set_materialize_grads(self, value):
        self._materialize = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of one call of a custom Function; subclassed once per Function."""

    __slots__ = ("_to_save", "needs_input_grad", "_tensor_positions", "_materialize", "_non_differentiable",
                 "_dirty", "__dict__")
    _forward_cls = None

    def __repr__(self):
        return f"<torch.autograd.function.{self.name()} object at {id(self):#x}>"

    def backward(self, *grads):
        from ..tensor import Tensor

        grads = [_as_tensor(g, self, nr) for nr, g in enumerate(grads)]
        results = self._forward_cls.backward(self, *grads)
        if type(results) is not tuple:
            results = (results,)
        if len(results) != len(self.needs_input_grad):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {len(self.needs_input_grad)}, got {len(results)})"
            )
        picked = [results[i] for i in self._tensor_positions]
        if grad_mode._enabled:
            return tuple(picked)
        return tuple(g._array if isinstance(g, Tensor) else g for g in picked)


def _as_tensor(grad, node, nr):
    """Custom backward code is written with tensors: wrap arrays (zeros when none arrived)."""
    from ..tensor import Tensor

    if grad is None:
        return Tensor._wrap(np.zeros(node._shape, dtype=node._dtype))
    return grad if isinstance(grad, Tensor) else Tensor._wrap(grad)


class _FunctionMeta(type):
    """Gives every Function subclass its own node class, named ``<Name>Backward``."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls, "__slots__": ()})


class Function(metaclass=_FunctionMeta):
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call ``apply``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @classmethod
    def apply(cls, *args):
        """Run ``forward`` untracked, then record one node linking its outputs to the tensor inputs."""
        from ..tensor import Tensor

        ctx = object.__new__(cls._backward_cls)
        ctx._saved, ctx._to_save, ctx._hooks = (), (), None
        ctx._non_differentiable, ctx._dirty, ctx._materialize = (), (), True
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with grad_mode.no_grad():
            outputs = cls.forward(ctx, *args)
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        tensors = [a for a in args if isinstance(a, Tensor)]
        if should_record(*tensors):
            _link(ctx, args, outs)
        return outputs


def _link(ctx, args, outs):
    """Make ``ctx`` the grad_fn of the outputs, with an edge per tensor input."""
    from ..tensor import Tensor

    ctx._tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    ctx.next_functions = tuple(gradient_edge(args[i]) for i in ctx._tensor_positions)
    ctx._seq = next(_sequence)
    first = next(o for o in outs if isinstance(o, Tensor))
    ctx._shape, ctx._dtype = first._array.shape, first._array.dtype
    type(ctx)._num_outputs = max(type(ctx)._num_outputs, len(outs))
    for nr, out in enumerate(outs):
        if isinstance(out, Tensor) and not any(out is t for t in ctx._non_differentiable):
            out.grad_fn, out._output_nr, out._requires_grad = ctx, nr, True
    ctx._saved = tuple(_save(t, outs) for t in ctx._to_save)


def _save(tensor, outs):
    """Outputs are saved without a reference back to themselves; inputs as they are."""
    if tensor is None:
        return None
    return SavedTensor(tensor, is_output=any(tensor is o for o in outs))
