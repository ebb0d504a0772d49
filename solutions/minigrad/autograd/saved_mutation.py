"""``torch.autograd.graph.allow_mutation_on_saved_tensors()``: change saved tensors in place, and still backward.

Normally a node that saved a tensor refuses to run once the tensor was changed in place (the
version check of ``saved_tensor.py``). Inside this context every tensor saved is packed, as with
``saved_tensors_hooks``, into a handle that remembers the tensor; and just before an in-place
operation writes into memory that a handle's tensor uses, at the version it was saved at, the
tensor is cloned: backward then reads the clone, the value the tensor had when it was saved.

PyTorch's way, step for step (torch/autograd/graph.py): the pack hook records each saved tensor
by ``(id, data_ptr, version)`` and, for aliasing, by ``(data_ptr, version)``; its in-place hook
(a ``TorchDispatchMode`` there, ``before_write`` here, which ``check_allowed`` of
``ops/inplace_history.py`` calls before every write) clones what it finds. As there, a change made
through a view whose first element is elsewhere is not seen, and leaving the context frees the
clones: a graph recorded inside must also backward inside (PyTorch's AssertionError otherwise).
"""
import contextlib
from collections import defaultdict
from weakref import WeakKeyDictionary, WeakValueDictionary

from ..tensor import Tensor
from .saved_hooks import saved_tensors_hooks

OUTSIDE = (  # sic: PyTorch's message lacks the space between "context" and "in"
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
    "in which the graph was originally recorded."
)
NESTED = "allow_mutation_on_saved_tensors contexts cannot be nested"

_enabled = False  # inside an ``allow_mutation_on_saved_tensors`` block
_open = []  # the open block's context (one at most), for ``before_write``


def _address(tensor):
    return tensor._array.__array_interface__["data"][0]


def _get_tid(tensor):
    """Which tensor, at which version: PyTorch's ``(id, data_ptr, version)``."""
    return (id(tensor), _address(tensor), tensor._version_counter[0])


def _get_sid(tensor):
    """Which memory, at which version: ``(data_ptr, version)``, shared by the tensors that alias it."""
    return (_address(tensor), tensor._version_counter[0])


class _Handle:
    """What the pack hook keeps in place of a saved tensor: the key to its original, or its clone."""


class _AllowMutationOnSavedContext:
    """The state of one block: the saved originals and clones, by handle, and how to find them."""

    def __init__(self):
        self.cloned = WeakKeyDictionary()  # handle -> the clone made before a write
        self.original = WeakKeyDictionary()  # handle -> the saved tensor, until it is cloned
        self.tid_to_weakhandle = WeakValueDictionary()
        self.sid_to_tid = defaultdict(set)

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()

    def maybe_clone(self, tensor):
        """Clone every saved tensor that uses ``tensor``'s memory at its current version (once each)."""
        for tid in self.sid_to_tid.get(_get_sid(tensor), ()):
            handle = self.tid_to_weakhandle.get(tid)
            if handle is None or handle in self.cloned:  # freed by a backward since, or cloned already
                continue
            self.cloned[handle] = Tensor._wrap(self.original.pop(handle)._array.copy())


class _swap_with_cloned(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """The saved-tensor hooks of the block: keep a handle; give back the clone if there is one."""

    def __init__(self, ctx):
        def pack_hook(tensor):
            tid = _get_tid(tensor)
            ctx.sid_to_tid[_get_sid(tensor)].add(tid)
            handle = ctx.tid_to_weakhandle.get(tid)
            if handle is None:  # the same tensor (same version) may be saved several times
                handle = ctx.tid_to_weakhandle[tid] = _Handle()
                ctx.original[handle] = tensor
            return handle

        def unpack_hook(handle):
            if not _enabled:
                raise AssertionError(OUTSIDE)
            if handle in ctx.cloned:
                return ctx.cloned[handle]
            if handle not in ctx.original:
                raise AssertionError(OUTSIDE)
            return ctx.original[handle]

        super().__init__(pack_hook, unpack_hook)


def before_write(tensor):
    """An in-place operation is about to write into ``tensor``: inside the block, clone what was saved of it."""
    if _open:
        _open[-1].maybe_clone(tensor)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which mutating tensors saved for backward is allowed: they are cloned
    on mutation, so backward (which must run inside the same block) sees the values it saved.
    Yields the block's ``_AllowMutationOnSavedContext``, cleared on exit."""
    global _enabled
    ctx = _AllowMutationOnSavedContext()
    with _swap_with_cloned(ctx):
        _open.append(ctx)
        try:
            if _enabled:
                raise RuntimeError(NESTED)
            _enabled = True
            yield ctx
        finally:
            _open.remove(ctx)
            ctx.clear()
            _enabled = False
