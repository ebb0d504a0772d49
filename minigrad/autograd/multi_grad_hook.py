"""``torch.autograd.graph.register_multi_grad_hook``: one hook for the gradients of several tensors.

Mode ``"all"``: once per backward pass, after it has computed every gradient it will, the
hook gets one gradient per tensor (None for a tensor the pass did not reach). Mode
``"any"``: the hook gets the first of those gradients, as soon as it is computed. Built
on a tensor hook per tensor and a callback at the end of the pass (``graph_task``).
"""
from .graph_task import queue_callback


class _Handles:
    """What ``register_multi_grad_hook`` returns: ``remove()`` takes every tensor's hook away."""

    def __init__(self, handles):
        self._handles = handles

    def remove(self):
        for handle in self._handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    arrived = {}  # position -> gradient, for the backward pass in progress

    def end_of_pass():
        grads = [arrived.get(i) for i in range(len(tensors))]
        arrived.clear()
        if mode == "all":
            fn(grads)

    def hook_for(position):
        def seen(grad):
            if not arrived:
                queue_callback(end_of_pass)
                if mode == "any":
                    fn(grad)
            arrived[position] = grad

        return seen

    return _Handles([t.register_hook(hook_for(i)) for i, t in enumerate(tensors) if t.requires_grad])
