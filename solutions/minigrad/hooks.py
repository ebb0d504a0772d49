"""Hook tables and their handles: what ``register_hook`` returns and where hooks are kept.

At the bottom of the import order (as PyTorch's ``torch/utils/hooks.py``), so that both
``Tensor`` and the autograd nodes can keep hooks without importing each other.
"""
import itertools


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook away."""

    _ids = itertools.count()

    def __init__(self, table):
        self.id = next(RemovableHandle._ids)
        self._table = table

    def remove(self):
        """Take this handle's hook, and only it, out of its table; the others keep their order.
        Removing again does nothing.

        把这个句柄对应的钩子（且只有它）从表中移除；其余钩子保持原来的顺序。再次移除什么也不做。
        """
        # BEGIN SOLUTION 6.3
        if self.id in self._table:
            del self._table[self.id]
        # END SOLUTION

    def __enter__(self):
        """``with x.register_hook(f):`` keeps the hook for the block only."""
        return self

    def __exit__(self, *exc_info):
        """Leaving the ``with`` block: from here on the hook is not called; an exception passes on.

        离开 ``with`` 代码块：从这里起不再调用这个钩子；异常照常传出。
        """
        # BEGIN SOLUTION 6.3
        self.remove()
        # END SOLUTION


def add_hook(table, hook):
    """Put ``hook`` in ``table`` (a dict kept in registration order); return its handle."""
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


class NodeHooks:
    """The hooks attached to one node; most nodes have none, and pay nothing.

    ``pre`` and ``post`` are the node's own hooks; ``tensor_pre`` the hooks registered on
    the tensors the node made (by output number); ``retain`` those tensors that keep
    their gradient (``retain_grad``), by output number, held weakly.
    """

    __slots__ = ("pre", "post", "tensor_pre", "retain")

    def __init__(self):
        self.pre, self.post, self.tensor_pre, self.retain = {}, {}, {}, {}


def hooks_of(node):
    """The node's hooks, made on first use."""
    if node._hooks is None:
        node._hooks = NodeHooks()
    return node._hooks
