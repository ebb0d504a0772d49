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
        """Take the hook off every tensor it was put on; afterwards ``fn`` is never called again.

        把钩子从它挂上的每个张量上取下；此后 ``fn`` 再也不会被调用。
        """
        # BEGIN SOLUTION C6
        for each in self._handles:
            each.remove()
        # END SOLUTION


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass that reaches ``tensors``: with every gradient (``"all"``, at the
    end of the pass) or with the first one computed (``"any"``, at once). Returns one handle for all.

    对每次到达 ``tensors`` 的反向传播调用一次 ``fn``：传入全部梯度（``"all"``，在这次反向传播结束时），
    或者传入最先算出的那个梯度（``"any"``，立即调用）。返回一个统管所有钩子的句柄。
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    # BEGIN SOLUTION C6
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
    # END SOLUTION
