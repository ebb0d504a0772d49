"""``@once_differentiable``: a custom backward written for one differentiation only."""
import functools

from ..tensor import Tensor
from . import grad_mode
from .graph import Node, record

TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


class Error(Node):
    """Stands behind the results of a ``@once_differentiable`` backward: differentiating
    them (a second order) raises, instead of silently giving wrong gradients."""

    def backward(self, *grads):
        raise RuntimeError(TWICE)


def once_differentiable(backward):
    """Mark a custom ``backward`` as written for one differentiation only.

    It runs without recording, on whatever it is given. If its gradients would need a
    graph (``create_graph=True`` with gradients that require grad), its results are
    linked to an ``Error`` node, so a second backward through them fails clearly.
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        """``backward(ctx, *grads)``, run once without recording; its results as a tuple, linked to an
        ``Error`` node when they would need a graph (see above and exercise 5.6).

        不记录地运行一次 ``backward(ctx, *grads)``；结果是一个元组；当它们需要计算图时，与一个 ``Error``
        节点相连（见上文和练习 5.6）。
        """
        # BEGIN SOLUTION 5.6
        with grad_mode.no_grad():
            results = backward(ctx, *grads)
        if not grad_mode._enabled or not any(isinstance(g, Tensor) and g.requires_grad for g in grads):
            return results
        results = tuple(_behind_error(r) for r in (results if isinstance(results, tuple) else (results,)))
        return results[0] if len(results) == 1 else results
        # END SOLUTION

    return wrapper


def _behind_error(result):
    """``result`` as a tensor whose history is an ``Error`` node (None stays None).

    ``result`` 变成一个历史为 ``Error`` 节点的张量（None 仍是 None）。
    """
    # BEGIN SOLUTION 5.6
    if result is None:
        return None
    leaf = result.detach().requires_grad_()
    return record(Tensor._wrap(leaf._array), Error(), leaf)
    # END SOLUTION
