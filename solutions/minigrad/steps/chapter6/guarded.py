"""The expressions chapter 6's answers are made of, by step: nothing a learner reads before solving a step may
show them (the notebooks, the package around the stub, the first two hints, the checks' messages), in either
language. ``tests/course/test_answer_leaks.py`` searches for each with every space removed, together with the
lines of the step's solution region that compute something. Reference only (``tools/editions.py``): the
expressions are the answers.
"""

GUARDED = {
    "6.1": ("weakref.ref(self)",),
    "6.2": ("hooks_of(self.grad_fn).tensor_pre.setdefault(self._output_nr",),
    "6.3": ("output 0 of {op_name(producer)}",),
    "6.4": ("del self._table[self.id]",),
    "6.5": ("self._pack(pack_hook(tensor), unpack_hook)", "_hooks_in_effect[-1]",
            "saved_hooks.Packed(packed_value, unpack_hook, self._tensor)"),
    "6.6": ("self._counter[0] != self._version",),
    "C6": ("queue_callback(end_of_pass)",),
}
