"""``torch.autograd.profiler.profile``: which operations ran inside a block, how often, for how long.

PyTorch records its C++ operators (``aten::mul``...) and the backward functions the
engine evaluates. Here the operations are Python functions, so the profiler watches
Python calls (``sys.setprofile``) for two kinds: an operation of the library (a
``torch.*`` function or a tensor method, named ``aten::<name>``) and a node's backward
(``autograd::engine::evaluate_function: <Node>``). Each call's time counts in its
*CPU total*; its *self* time leaves out the watched calls made inside it. Watching every
call slows the block down, as any profiler does; the times are real, the ratios honest.
"""
import collections
import inspect
import sys
import time

from .. import public_names
from ..nn import functional
from ..tensor import Tensor
from .graph import GraphRoot, Node

Event = collections.namedtuple("Event", "key count self_cpu_time_total cpu_time_total")
OPERATION_MODULES = ("minigrad.ops", "minigrad.nn.functional")
HELPERS = "minigrad.ops._"  # the operands' plumbing (``compute``, ``dispatch``): part of each operation
NAME_WIDTH = 55  # PyTorch's widest Name column; longer names are cut with "..."


def _operations():
    """The code of every operation a user can call, by code object: its profiler name."""
    candidates = [*public_names.TORCH.values(), *vars(Tensor).values(), *vars(functional).values()]
    names = {}
    for function in candidates:
        module = getattr(function, "__module__", "") or ""
        if inspect.isfunction(function) and module.startswith(OPERATION_MODULES) and not module.startswith(HELPERS):
            names[function.__code__] = "aten::" + function.__name__.strip("_")
    return names


def _backward_codes():
    """The code of every node class's ``backward`` (not the engine's own ``GraphRoot``)."""
    codes, classes = set(), [Node]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        if "backward" in vars(cls) and cls is not GraphRoot:
            codes.add(vars(cls)["backward"].__code__)
    return codes


def _node_name(node):
    """How PyTorch's profiler names a node: its C++ name for ``AccumulateGrad``."""
    name = type(node).__name__
    return "torch::autograd::" + name if name == "AccumulateGrad" else name


class profile:  # noqa: N801 - PyTorch's name
    """``with profile() as prof: ...`` then ``print(prof.key_averages().table(sort_by=...))``.

    PyTorch's device and detail options (``use_cuda``, ``record_shapes``...) are accepted;
    everything here runs on the CPU, and only times and counts are recorded.
    """

    def __init__(self, enabled=True, **options):
        self.enabled = enabled
        self._totals = collections.defaultdict(lambda: [0, 0.0, 0.0])  # key -> [count, self, total]

    def __enter__(self):
        if self.enabled:
            self._names, self._backwards = _operations(), _backward_codes()
            self._open = []  # [key, start, time of watched calls inside] of the calls under way
            self._outer = sys.getprofile()
            sys.setprofile(self._watch)
        return self

    def __exit__(self, *exc_info):
        if self.enabled:
            sys.setprofile(self._outer)

    def _watch(self, frame, event, arg):
        code = frame.f_code
        if event == "call":
            key = self._names.get(code)
            if key is None and code in self._backwards:
                key = "autograd::engine::evaluate_function: " + _node_name(frame.f_locals["self"])
            if key is not None:
                self._open.append([key, code, time.perf_counter(), 0.0])
        elif event == "return" and self._open and self._open[-1][1] is code:
            key, _, start, inside = self._open.pop()
            total = time.perf_counter() - start
            entry = self._totals[key]
            entry[0] += 1
            entry[1] += total - inside
            entry[2] += total
            if self._open:
                self._open[-1][3] += total

    def key_averages(self):
        return EventList(Event(key, n, self_time * 1e6, total * 1e6) for key, (n, self_time, total) in self._totals.items())


class EventList(list):
    """The recorded events, one per operation name, with PyTorch's ``table``."""

    def table(self, sort_by=None, row_limit=100, **options):
        rows = sorted(self, key=lambda e: getattr(e, sort_by or "cpu_time_total").__neg__())[:row_limit]
        self_total = sum(e.self_cpu_time_total for e in self) or 1.0
        width = min(max([len("Name")] + [len(e.key) for e in rows]) + 4, NAME_WIDTH)
        line = "-" * width + "  " + "  ".join(["-" * 12] * 6) + "  "
        head = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        out = [line, "Name".rjust(width) + "  " + "  ".join(h.rjust(12) for h in head) + "  ", line]
        for e in rows:
            cells = [f"{100 * e.self_cpu_time_total / self_total:.2f}%", _time(e.self_cpu_time_total),
                     f"{100 * e.cpu_time_total / self_total:.2f}%", _time(e.cpu_time_total),
                     _time(e.cpu_time_total / e.count), str(e.count)]
            name = e.key if len(e.key) <= width else e.key[: width - 3] + "..."
            out.append(name.rjust(width) + "  " + "  ".join(c.rjust(12) for c in cells) + "  ")
        out += [line, f"Self CPU time total: {_time(sum(e.self_cpu_time_total for e in self))}", ""]
        return "\n".join(out)


def _time(microseconds):
    """PyTorch's way of writing a duration: us below a millisecond, then ms, then s."""
    if microseconds >= 1e6:
        return f"{microseconds / 1e6:.3f}s"
    if microseconds >= 1e3:
        return f"{microseconds / 1e3:.3f}ms"
    return f"{microseconds:.3f}us"
