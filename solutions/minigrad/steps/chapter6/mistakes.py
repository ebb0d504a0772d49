"""Chapter 6's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from . import checks as chapter6

LEAF_HOOK = "            return add_hook(self._hooks, hook)"
NON_LEAF_HOOK = "        return add_hook(hooks_of(self.grad_fn).tensor_pre.setdefault(self._output_nr, {}), hook)"
SAVED = "autograd/saved_tensor.py"
TENSOR = "tensor.py"
HOOKS = "hooks.py"
FORMS = "autograd/saved_hooks.py"
PACKED = "autograd/saved_hooks.py"
MULTI = "autograd/engine.py"
REMOVE = "        if self.id in self._table:\n            del self._table[self.id]\n"
PACK = "            self._pack(pack_hook(tensor), unpack_hook)\n"
LET_GO = "        self._array = PACKED\n"
UNPACKED = "        value = self.unpack_hook(self.value)\n"
BUMP = "    tensor._bump_version()\n"
SHARED = "    view._version_counter = input._version_counter\n"
STALE = "        if self._counter[0] != self._version:\n            raise RuntimeError(self._modified_message(node))\n"
RETAIN = ("        if self.grad_fn is None or self._retains_grad:\n            return\n"
          "        hooks_of(self.grad_fn).retain[self._output_nr] = weakref.ref(self)\n")
# The same, as a hook on the tensor's node (the way PyTorch keeps it): a second call adds a second hook.
RETAIN_BY_HOOK = '''        if self.grad_fn is None:
            return
        ref = weakref.ref(self)

        def keep(grad):
            tensor = ref()
            if tensor is not None:
                tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad

        add_hook(hooks_of(self.grad_fn).tensor_pre.setdefault(self._output_nr, {}), keep)
'''

MUTANTS = {
    "retain_grad holds the tensor strongly": (
        "6.1", [(TENSOR, "retain[self._output_nr] = weakref.ref(self)", "retain[self._output_nr] = self"),
                ("autograd/node_call.py", "        tensor = ref()\n", "        tensor = ref\n")], chapter6.KEPT_ALIVE),
    "retain_grad twice registers twice": ("6.1", [(TENSOR, RETAIN, RETAIN_BY_HOOK)], chapter6.RETAINED_TWICE),
    "a leaf's hook stored in a dict thrown away": (
        "6.2", [(TENSOR, "            if self._hooks is None:\n                self._hooks = {}\n" + LEAF_HOOK,
                 "            return add_hook(self._hooks or {}, hook)")], chapter6.NO_EFFECT),
    "a leaf's hook registered twice": ("6.2", [(TENSOR, LEAF_HOOK, "            add_hook(self._hooks, hook)\n" + LEAF_HOOK)],
                                       chapter6.TWICE),
    "a non-leaf's hook registered twice": (
        "6.2", [(TENSOR, NON_LEAF_HOOK, NON_LEAF_HOOK.replace("return ", "") + "\n" + NON_LEAF_HOOK)], chapter6.TWICE),
    "a non-leaf's hook stored with the leaf's": (
        "6.2", [(TENSOR, NON_LEAF_HOOK, "        self._hooks = self._hooks or {}\n        return add_hook(self._hooks, hook)")],
        chapter6.NEVER_CALLED),
    "remove() takes the last hook": ("6.3", [(HOOKS, REMOVE, "        self._table.popitem()\n")], chapter6.WRONG_HOOK),
    "remove() takes the first hook": (
        "6.3", [(HOOKS, REMOVE, "        if self._table:\n            del self._table[next(iter(self._table))]\n")],
        chapter6.WRONG_HOOK),
    "remove() takes every hook": ("6.3", [(HOOKS, REMOVE, "        self._table.clear()\n")], chapter6.ALL_HOOKS),
    "remove() rebuilds a dict of its own": (
        "6.3", [(HOOKS, REMOVE, "        self._table = {k: h for k, h in self._table.items() if k != self.id}\n")],
        chapter6.NOT_REMOVED),
    "remove() raises the second time": ("6.3", [(HOOKS, REMOVE, "        del self._table[self.id]\n")],
                                        chapter6.REMOVED_TWICE_RAISES),
    "remove() forgets its table, and fails the second time": (
        "6.3", [(HOOKS, REMOVE, "        del self._table[self.id]\n        self._table = None\n")],
        chapter6.REMOVED_TWICE_RAISES),
    "leaving `with handle:` keeps the hook": ("6.3", [(HOOKS, "        self.remove()\n", "        pass\n")],
                                              chapter6.KEPT_AFTER_WITH),
    "the pack hook is never called": ("6.4", [(FORMS, PACK, "            pass\n")], chapter6.NOT_PACKED),
    "the outermost hooks are used": ("6.4", [(FORMS, "_in_effect[-1]", "_in_effect[0]")],
                                     chapter6.OUTERMOST),
    "pack's result is dropped and the tensor kept": (
        "6.4", [(FORMS, LET_GO, "        self._array = self._tensor._array if self._tensor is not None else None\n"),
                (FORMS, "        self._tensor = Packed(packed_value, unpack_hook, self._tensor)\n",
                 "        pack = Packed(packed_value, unpack_hook, self._tensor)\n")],
        chapter6.NEVER_UNPACKED),
    "the array is kept after packing": ("6.4", [(FORMS, LET_GO, "")], chapter6.NEVER_UNPACKED),
    "the unpack hook's result is ignored": (
        "6.4", [(PACKED, UNPACKED, "        self.unpack_hook(self.value)\n        value = self.value\n")],
        chapter6.UNPACK_IGNORED),
    "the unpack hook gets the tensor instead of pack's result": (
        "6.4", [(FORMS, PACK, "            pack_hook(tensor)\n            self._pack(tensor, unpack_hook)\n")],
        chapter6.UNPACKED_THE_TENSOR),
    "in-place changes are not counted": ("6.6", [(SAVED, BUMP, "    pass\n")], chapter6.NOT_BUMPED),
    "in-place changes counted twice": ("6.6", [(SAVED, BUMP, BUMP + "    tensor._bump_version()\n")],
                                       chapter6.BUMPED_TWICE),
    "a view gets a copy of the counter": (
        "6.6", [(SAVED, SHARED, "    view._version_counter = list(input._version_counter)\n")], chapter6.VIEW_ONLY),
    "a view gets a counter of its own": ("6.6", [(SAVED, SHARED, "")], chapter6.VIEW_ONLY),
    "the counter replaced instead of counted": (
        "6.6", [(SAVED, BUMP, "    tensor._version_counter = [tensor._version + 1]\n")],
        chapter6.COUNTER_REPLACED),
    "a result written in place does not follow its tensor": (
        "6.6", [(SAVED, "        self._counter, self._version = tensor._version_counter, tensor._version_counter[0]\n",
                 "        pass\n")], chapter6.NOT_FOLLOWED),
    "stale saved tensors are used": ("6.6", [(SAVED, STALE, "")], chapter6.NOT_CHECKED),
    "C6: the handle removes nothing": ("C6", [(MULTI, "            each.remove()\n", "            pass\n")],
                                       chapter6.STILL_CALLED),
    "C6: mode any calls at every gradient": (
        "C6", [(MULTI, "            if not arrived:\n                queue_callback(end_of_pass)\n                if mode == \"any\":\n"
                "                    fn(grad)\n", "            if mode == \"any\":\n                fn(grad)\n"
                "            if not arrived:\n                queue_callback(end_of_pass)\n")], chapter6.ANY_ONCE),
}
