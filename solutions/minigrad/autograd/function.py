"""Custom autograd Functions: a forward and a backward written by the user.

``Exp.apply(x)`` runs ``Exp.forward(ctx, x)`` without recording, then records one
node for the whole call. That node *is* the ``ctx`` the user saw: what ``forward``
saved with ``ctx.save_for_backward`` is what ``backward`` reads from
``ctx.saved_tensors``. Its class is ``ExpBackward``, made once per Function.
"""
import functools
import inspect
import warnings

import numpy as np

from . import grad_mode, ownership
from .graph import Node, SavedTensor, _sequence, gradient_edge, record, should_record

NO_BACKWARD = (
    "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
    "backward mode AD."
)
TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors and flags."""

    def save_for_backward(self, *tensors):
        """Keep tensors for backward; each is checked for in-place changes when read."""
        # BEGIN SOLUTION 5.1
        self._to_save = tensors
        # END SOLUTION

    @property
    def saved_tensors(self):
        """The tensors ``forward`` saved (a RuntimeError once backward has freed them)."""
        # BEGIN SOLUTION 5.1
        return tuple(s.unpack(self, True) if type(s) is SavedTensor else s for s in self._saved)
        # END SOLUTION

    def mark_non_differentiable(self, *tensors):
        """These outputs get no history (indices, masks...); backward receives zeros for them."""
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors):
        """These inputs were changed in place by ``forward`` and returned: they take the node as history."""
        self._dirty = tensors

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self._materialize = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of one call of a custom Function; subclassed once per Function."""

    __slots__ = ("_to_save", "needs_input_grad", "_tensor_positions", "_outputs_meta", "__dict__")
    _forward_cls = None
    _non_differentiable = _dirty = ()  # until forward marks some
    _materialize = True
    saved_tensors = FunctionCtx.saved_tensors  # tensors always: user code is written with tensors

    def __repr__(self):
        return f"<torch.autograd.function.{self.name()} object at {id(self):#x}>"

    def _output_meta(self, nr):
        return self._outputs_meta[nr]

    def backward(self, *grads):
        from ..tensor import Tensor

        backward = self._forward_cls.backward
        if backward is Function.backward:
            raise NotImplementedError(NO_BACKWARD)
        ownership.outsiders_run()  # user code sees the gradients and may keep what it returns
        # BEGIN SOLUTION 5.3
        grads = [self._grad_tensor(g, nr) for nr, g in enumerate(grads)]
        results = backward(self, *grads)
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
        # END SOLUTION

    def _grad_tensor(self, grad, nr):
        """User code works with tensors: wrap arrays; an output that got no gradient gets
        zeros of its shape (or None, after ``ctx.set_materialize_grads(False)``)."""
        from ..tensor import Tensor

        if grad is None:
            if not self._materialize:
                return None
            shape, dtype = self._outputs_meta[nr]
            return Tensor._wrap(np.zeros(shape, dtype=dtype))
        return grad if isinstance(grad, Tensor) else Tensor._wrap(grad)


class _FunctionMeta(type):
    """Gives every Function subclass its own node class, named ``<Name>Backward``."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls, "__slots__": ()})


class Function(metaclass=_FunctionMeta):
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call ``apply``.

    PyTorch's newer style works too: ``forward(*args)`` without ctx, plus a static
    ``setup_context(ctx, inputs, output)`` that saves what backward needs.
    """

    def __init__(self, *args, **kwargs):
        """Functions are used through the class (``Exp.apply(x)``); an instance is of no use."""
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you "
            "should invoke them on the class itself. Instantiating an autograd function will raise an error "
            "in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(NO_BACKWARD)

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` untracked, then record one node linking its outputs to the tensor inputs."""
        from ..tensor import Tensor

        if kwargs:  # keyword arguments count as inputs too: bind them to forward's parameters
            args = _positional(cls, args, kwargs)
        ctx = object.__new__(cls._backward_cls)
        ctx._saved, ctx._to_save, ctx._hooks = (), (), None
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        # BEGIN SOLUTION 5.2
        with grad_mode.no_grad():
            outputs = _run_forward(cls, ctx, args)
        outs = _fresh_outputs(args, outputs, ctx._dirty)
        if should_record(*[a for a in args if isinstance(a, Tensor)]):
            _link(ctx, args, outs)
        return outs if isinstance(outputs, tuple) else outs[0]
        # END SOLUTION


def _run_forward(cls, ctx, args):
    """Call the user's forward, in either of PyTorch's styles (with ctx, or with
    ``setup_context``), and count the declared in-place changes of its inputs."""
    if _uses_setup_context(cls):
        outputs = cls.forward(*args)
        cls.setup_context(ctx, args, outputs)
    else:
        outputs = cls.forward(ctx, *args)
    for tensor in ctx._dirty:  # PyTorch counts the change once more when it is declared
        tensor._bump_version()
    return outputs


def _uses_setup_context(cls):
    return cls.setup_context is not Function.setup_context


def _positional(cls, args, kwargs):
    """``apply(x, k=2)`` as ``apply(x, 2)``, by forward's signature (its ctx left out)."""
    parameters = list(inspect.signature(cls.forward).parameters.values())
    if not _uses_setup_context(cls):
        parameters = parameters[1:]
    bound = inspect.Signature(parameters).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def _fresh_outputs(args, outputs, dirty):
    """Forward's result as a tuple of outputs. An input returned unchanged comes back as
    a view of it, so that the input keeps its own history; an input marked dirty comes
    back as itself, as in PyTorch."""
    from ..ops.views import _view_of
    from ..tensor import Tensor

    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    return tuple(
        _view_of(out, out._array.view())
        if isinstance(out, Tensor) and any(out is a for a in args) and not any(out is d for d in dirty) else out
        for out in outs
    )


def _link(ctx, args, outs):
    """Make ``ctx`` the grad_fn of the outputs, with an edge per tensor input."""
    from ..tensor import Tensor

    ctx._tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    ctx.next_functions = tuple(gradient_edge(args[i]) for i in ctx._tensor_positions)
    ctx._seq = next(_sequence)
    ctx._outputs_meta = tuple((o._array.shape, o._array.dtype) if isinstance(o, Tensor) else ((), None) for o in outs)
    first = next(o for o in outs if isinstance(o, Tensor))
    ctx._shape, ctx._dtype = first._array.shape, first._array.dtype
    type(ctx)._num_outputs = max(type(ctx)._num_outputs, len(outs))
    for tensor in ctx._dirty:
        _check_dirty(tensor)
    for nr, out in enumerate(outs):
        if isinstance(out, Tensor) and not any(out is t for t in ctx._non_differentiable):
            out.grad_fn, out._output_nr, out._requires_grad = ctx, nr, True
    ctx._saved = tuple(_save(t, outs, i) for i, t in enumerate(ctx._to_save))


def _check_dirty(tensor):
    """A leaf that requires grad may not be changed in place, by a custom Function either."""
    if tensor.grad_fn is None and tensor._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")


def _save(tensor, outs, index):
    """Outputs are saved without a reference back to themselves; inputs as they are."""
    from ..tensor import Tensor

    if tensor is None:
        return None
    if not isinstance(tensor, Tensor):
        raise TypeError(
            f"save_for_backward can only save variables, but argument {index} is of type {type(tensor).__name__}"
        )
    return SavedTensor(tensor, is_output=any(tensor is o for o in outs))


# ---------------------------------------------------------------- once_differentiable


class DelayedError(Node):
    """Stands behind the results of a ``@once_differentiable`` backward: differentiating
    them (a second order) raises, instead of silently giving wrong gradients."""

    def backward(self, *grads):
        raise RuntimeError(TWICE)


def once_differentiable(backward):
    """Mark a custom ``backward`` as written for one differentiation only.

    It runs without recording, on whatever it is given. If its gradients would need a
    graph (``create_graph=True`` with gradients that require grad), its results are
    linked to a ``DelayedError`` node, so a second backward through them fails clearly.
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        from ..tensor import Tensor

        with grad_mode.no_grad():
            results = backward(ctx, *grads)
        if not (grad_mode._enabled and any(isinstance(g, Tensor) and g.requires_grad for g in grads)):
            return results
        single = not isinstance(results, tuple)
        wrapped = tuple(_behind_error(r) for r in ((results,) if single else results))
        return wrapped[0] if single else wrapped

    return wrapper


def _behind_error(result):
    from ..tensor import Tensor

    if not isinstance(result, Tensor):
        return result
    return record(Tensor._wrap(result._array), DelayedError())
