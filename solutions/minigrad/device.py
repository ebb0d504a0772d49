"""Devices: minigrad computes on the CPU only, but speaks PyTorch's device language.

Tutorial code picks a device (``"cuda" if torch.cuda.is_available() else "cpu"``) and
moves tensors there with ``.to(device)``; here every such question answers "cpu".

The one other device is "meta": a tensor there has a shape and a dtype but no data, what
PyTorch uses for a model's structure alone (``copy.deepcopy(model).to("meta")``). Its array
is a read-only broadcast of a zero kept here, so it costs no memory, any view of it stays
on "meta", and ``of`` tells it from real data by that zero.
"""
import numpy as np


class device:
    """``device(type='cpu')``; any other device type is refused when a tensor goes there."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's parameter name
        if isinstance(type, device):
            type, index = type.type, type.index
        name, _, number = str(type).partition(":")
        self.type = name
        self.index = int(number) if number else index

    def __repr__(self):
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


CPU = device("cpu")
META = device("meta")
_default = CPU
_META_ZEROS = {}  # numpy dtype -> the 0-d zero that every meta array of that dtype is a view of


def meta_array(shape, dtype):
    """An array of ``shape`` and ``dtype`` without data of its own: the data of a meta tensor."""
    zero = _META_ZEROS.setdefault(np.dtype(dtype), np.zeros((), dtype))
    return np.broadcast_to(zero, tuple(shape))


def of(array):
    """The device of the tensor whose data is ``array``: "meta" for a view of a meta zero, else the CPU."""
    base = array.base  # any object that owns memory: an array, bytes, numpy's stride tricks
    if base is not None and any(base is zero for zero in _META_ZEROS.values()):
        return META
    return CPU


def check(where):
    """The device a tensor may live on: the CPU, or a clear error for anything else."""
    if where is None:
        return _default
    d = device(where)
    if d.type != "cpu":
        raise RuntimeError(f"minigrad runs on the CPU only: device '{d}' is not available")
    return CPU


def set_default_device(where):
    """Accept only the CPU (or None), so tutorial code that sets it still runs."""
    global _default
    _default = check(where) if where is not None else CPU


def get_default_device():
    return _default


class _Unavailable:
    """``torch.cuda`` / ``torch.mps`` / ``torch.accelerator``: present, and never available."""

    def is_available(self):
        return False

    def device_count(self):
        return 0

    def current_accelerator(self):
        return None


cuda = _Unavailable()
mps = _Unavailable()
accelerator = _Unavailable()
