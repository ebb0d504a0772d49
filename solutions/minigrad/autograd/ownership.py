"""Whether a leaf may keep the gradient it receives as its ``.grad``, instead of a copy.

The first gradient that reaches a leaf becomes ``leaf.grad``, which later backward calls
add to in place, so it must not be an array someone else holds. PyTorch keeps ("steals")
the gradient when nothing else holds it and copies it otherwise; for a big matrix the
copy costs a good share of the backward pass. The engine follows the same rule, for
each backward pass. A gradient may still be held by:

- the caller, when it is (or is a view of) a seed: ``backward(gradient)`` starts there;
- another node, when a node handed the same array to two edges (``a + b`` gives both
  the same gradient) and that node has not run yet: its buffer still holds the array;
- another leaf, which kept it already;
- code outside the engine: a hook, a custom ``Function``'s backward, an observer. They
  may keep anything they see or return, so once one has run, leaves copy.

A view is never kept (its memory is another array's), nor a small array: below 64 KiB a
copy costs less than looking. Arrays are known by ``id``, which is safe while they are
alive (seeds and kept gradients are); a reused id can only make a leaf copy.
"""
import contextlib

import numpy as np

from ..tensor import Tensor

SMALL = 1 << 16  # bytes: copying fewer is cheaper than checking who holds them
MAX_PENDING = 256  # nodes waiting with gradients: looking through more costs more than a copy


class BackwardPass:
    """What one backward pass knows about who may hold its gradient arrays."""

    __slots__ = ("held", "buffers", "outsiders_ran")

    def __init__(self, seeds, buffers):
        self.held = {id(s if s.base is None else s.base) for s in seeds if type(s) is np.ndarray}
        self.buffers = buffers  # the engine's buffers: gradients on their way to nodes not yet run
        self.outsiders_ran = False


_current = None  # the BackwardPass under way (passes nest: a hook may call backward)


@contextlib.contextmanager
def backward_pass(seeds, buffers):
    """Track, for the pass run inside the block, which gradient arrays are held elsewhere:
    by the caller (``seeds``) or by nodes still waiting in the engine's ``buffers``."""
    global _current
    outer, _current = _current, BackwardPass(seeds, buffers)
    try:
        yield
    finally:
        _current = outer


def outsiders_run():
    """Code outside the engine sees gradients now: from here on, leaves copy."""
    if _current is not None:
        _current.outsiders_ran = True


def take(grad):
    """Whether a leaf may keep ``grad`` as its ``.grad``; if it may, ``grad`` is held from now on."""
    now = _current
    if now is None or now.outsiders_ran or type(grad) is not np.ndarray or grad.base is not None:
        return False
    if grad.nbytes < SMALL or id(grad) in now.held or not (grad.flags.writeable and grad.flags.c_contiguous):
        return False
    if len(now.buffers) > MAX_PENDING or _waiting(now.buffers, grad):
        return False
    now.held.add(id(grad))
    return True


def _waiting(buffers, grad):
    """Whether a node that has not run yet was handed ``grad``, or a view of it."""
    for slots in buffers.values():
        for waiting in slots:
            if waiting is grad or (type(waiting) is np.ndarray and waiting.base is grad):
                return True
    return False


def kept_as_grad(grad):
    """The leaf's first ``.grad`` made without the learner's copy, or None to copy as usual.

    With ``create_graph`` the gradient is a tensor: ``.grad`` is a recorded copy of it
    (``CopyBackwards``, as in PyTorch), so two leaves never share one gradient tensor.
    An array nobody else holds (see ``take``) is kept as it is.
    """
    if isinstance(grad, Tensor):
        return Tensor._wrap(np.empty_like(grad._array)).copy_(grad)
    return Tensor._wrap(grad) if take(grad) else None
