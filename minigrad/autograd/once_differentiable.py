"""``@once_differentiable``: a custom backward written for one differentiation only."""
import functools

from ..tensor import Tensor
from . import grad_mode
from .graph import Node, record

TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


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
        with grad_mode.no_grad():
            results = backward(ctx, *grads)
        if not (grad_mode._enabled and any(isinstance(g, Tensor) and g.requires_grad for g in grads)):
            return results
        single = not isinstance(results, tuple)
        wrapped = tuple(_behind_error(r) for r in ((results,) if single else results))
        return wrapped[0] if single else wrapped

    return wrapper


def _behind_error(result):
    if not isinstance(result, Tensor):
        return result
    return record(Tensor._wrap(result._array), DelayedError())
