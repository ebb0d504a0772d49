"""How ``Function.apply`` calls the user's code, in each of PyTorch's styles, and what it
does with the outputs. ``function.py`` shows the idea; this is the bookkeeping.

- ``forward(ctx, *args)``, or PyTorch's newer ``forward(*args)`` with a static
  ``setup_context(ctx, inputs, output)``; keyword arguments bound to forward's parameters.
- An input returned unchanged comes back as a view, so the input keeps its own history;
  an input marked dirty (changed in place) comes back as itself and takes the new node.
- Only outputs of a floating dtype that forward did not mark non-differentiable take the node.
- Outputs are saved without a reference back to themselves.
"""
import inspect

from ..tensor import Tensor
from .saved_tensor import SavedTensor
from .view_tracking import view_of


def run_forward(cls, ctx, args, setup_style):
    """Call the user's forward, in either of PyTorch's styles (with ctx, or, when
    ``setup_style``, with ``setup_context``), and count the declared in-place changes."""
    if setup_style:
        outputs = cls.forward(*args)
        cls.setup_context(ctx, args, outputs)
    else:
        outputs = cls.forward(ctx, *args)
    for tensor in ctx._dirty:  # PyTorch counts the change once more when it is declared
        tensor._bump_version()
    return outputs


def positional(cls, args, kwargs, setup_style):
    """``apply(x, k=2)`` as ``apply(x, 2)``, by forward's signature (its ctx left out)."""
    parameters = list(inspect.signature(cls.forward).parameters.values())
    if not setup_style:
        parameters = parameters[1:]
    bound = inspect.Signature(parameters).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def fresh_outputs(args, outputs, ctx, recording):
    """Forward's result as a tuple of outputs, as PyTorch hands them back. Notes in
    ``ctx._differentiable`` which outputs take the node: tensors of a floating dtype, when
    the call is recorded, less those forward marked (``ctx._unmarked``). An input returned
    unchanged comes back as a view of it, or detached if it requires grad but takes no node;
    an input marked dirty comes back as itself."""
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    takes_node = tuple(recording and isinstance(out, Tensor) and out._array.dtype.kind in "fc" for out in outs)
    ctx._differentiable = ctx._unmarked(outs, takes_node) if ctx._non_differentiable else takes_node
    return tuple(_fresh(out, args, ctx._dirty, linked) for out, linked in zip(outs, ctx._differentiable))


def _fresh(out, args, dirty, linked):
    if not isinstance(out, Tensor) or not any(out is a for a in args) or any(out is d for d in dirty):
        return out
    if out._requires_grad and not linked:
        return out.detach()
    return view_of(out, out._array.view())


def check_dirty(tensor):
    """A leaf that requires grad may not be changed in place, by a custom Function either."""
    if tensor.grad_fn is None and tensor._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")


def saved(tensor, outs, index):
    """Outputs are saved without a reference back to themselves; inputs as they are."""
    if tensor is None:
        return None
    if not isinstance(tensor, Tensor):
        raise TypeError(
            f"save_for_backward can only save variables, but argument {index} is of type {type(tensor).__name__}"
        )
    return SavedTensor(tensor, is_output=any(tensor is o for o in outs))
