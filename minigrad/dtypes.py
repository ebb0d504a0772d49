"""The dtypes a tensor can hold, and PyTorch's rule for the dtype of a result.

A dtype here is a thin named wrapper around a numpy dtype, so that it prints as
PyTorch's does (``torch.float32``) while numpy does the arithmetic.
"""
import builtins

import numpy as np


class dtype:
    """A tensor element type, printed the way PyTorch prints it."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_signed", "itemsize", "_kind")

    def __init__(self, name, numpy_dtype, kind):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self._kind = kind  # 0 bool, 1 integer, 2 floating: the order promotion follows
        self.is_floating_point = kind == 2
        self.is_signed = kind == 2 or self.numpy.kind == "i"
        self.itemsize = self.numpy.itemsize

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


bool = dtype("bool", np.bool_, 0)  # noqa: A001 - PyTorch's own name
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)

# PyTorch's aliases are the same objects: ``torch.float is torch.float32``.
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

_BY_NUMPY = {d.numpy: d for d in (bool, uint8, int8, int16, int32, int64, float16, float32, float64)}

_default_float = float32


def from_numpy(numpy_dtype):
    """The dtype object for a numpy dtype (a TypeError for one PyTorch has no twin of)."""
    try:
        return _BY_NUMPY[np.dtype(numpy_dtype)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np.dtype(numpy_dtype)}") from None


def to_numpy(d):
    """The numpy dtype for a dtype object, a numpy dtype, or None (the default float)."""
    if d is None:
        return _default_float.numpy
    if isinstance(d, dtype):
        return d.numpy
    return np.dtype(d)


def get_default_dtype():
    return _default_float


def set_default_dtype(d):
    """Change the dtype of new float tensors, as ``torch.set_default_dtype`` does."""
    global _default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def scalar_kind(value):
    """The promotion category of a Python number: 0 bool, 1 integer, 2 floating."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return 0
    if isinstance(value, (builtins.int, np.integer)):
        return 1
    return 2


def result_type(a, b):
    """The numpy dtype of ``a op b`` (numpy arrays or Python numbers) under PyTorch's rules.

    PyTorch ranks operands in three tiers: tensors with dimensions, zero-dim tensors,
    then Python numbers. A lower tier changes the result only when its category is
    higher (bool < integer < floating); so ``float32 + 2.5`` stays float32, and a Python
    float meeting an integer tensor gives the default float, not float64 as numpy would.
    """
    result = None
    for tier in _tiers(a, b):
        if result is None or _kind(tier) > _kind(result):
            result = tier
    return result


def _tiers(a, b):
    """The promoted numpy dtype of each non-empty tier, highest priority first."""
    tiers = ([], [], [])
    for x in (a, b):
        if isinstance(x, np.ndarray):
            tiers[0 if x.ndim else 1].append(x.dtype)
        else:
            tiers[2].append(_SCALAR_TYPES[scalar_kind(x)]())
    return [np.result_type(*t) for t in tiers if t]


_SCALAR_TYPES = (
    lambda: np.dtype(np.bool_),
    lambda: np.dtype(np.int64),
    lambda: _default_float.numpy,
)


def _kind(numpy_dtype):
    return 0 if numpy_dtype.kind == "b" else (2 if numpy_dtype.kind == "f" else 1)
