"""Chapter 6's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "6.1": ("weakref.ref(self)",),
    "6.2": ("hooks_of(self.grad_fn).tensor_pre.setdefault(self._output_nr",),
    "6.3": ("del self._table[self.id]",),
    "6.4": ("self._pack(pack_hook(tensor), unpack_hook)", "_in_effect[-1]",
            "Packed(packed_value, unpack_hook, self._tensor)"),
    "6.5": ("output 0 of {op_name(producer)}",),
    "6.6": ("self._counter[0] != self._version",),
    "C6": ("queue_callback(end_of_pass)",),
}
