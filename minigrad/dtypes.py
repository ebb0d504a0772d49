"""The dtypes a tensor can hold, and PyTorch's rule for the dtype of a result.

A dtype here is a thin named wrapper around a numpy dtype, so that it prints as
PyTorch's does (``torch.float32``) while numpy does the arithmetic.
"""
import builtins

import numpy as np


class dtype:
    """A tensor element type, printed the way PyTorch prints it."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_signed", "itemsize")

    def __init__(self, name, numpy_dtype):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.is_signed = self.numpy.kind in "fi"
        self.itemsize = self.numpy.itemsize

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


bool = dtype("bool", np.bool_)  # noqa: A001 - PyTorch's own name
uint8 = dtype("uint8", np.uint8)
int8 = dtype("int8", np.int8)
int16 = dtype("int16", np.int16)
int32 = dtype("int32", np.int32)
int64 = dtype("int64", np.int64)
float16 = dtype("float16", np.float16)
float32 = dtype("float32", np.float32)
float64 = dtype("float64", np.float64)

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


def result_type(a, b):
    """The numpy dtype of ``a op b`` (numpy arrays or Python numbers) under PyTorch's rules.

    PyTorch ranks operands in three tiers: tensors with dimensions, zero-dim tensors,
    then Python numbers. A lower tier changes the result only when its category is
    higher (bool < integer < floating); so ``float32 + 2.5`` stays float32, and a Python
    float meeting an integer tensor gives the default float, not float64 as numpy would.
    """
    tiers = [None, None, None]
    for x in (a, b):
        if isinstance(x, np.ndarray):
            tier, x_dtype = (0 if x.ndim else 1), x.dtype
        else:
            tier, x_dtype = 2, python_number_dtype(x)
        tiers[tier] = x_dtype if tiers[tier] is None else promote_types(tiers[tier], x_dtype)
    dimensioned, zero_dim, number = tiers
    return _combine(dimensioned, _combine(zero_dim, number))


def promote_types(a, b):
    """The smallest numpy dtype holding both: the higher category wins outright
    (int64 with float16 is float16, where numpy would say float64); within one
    category numpy's rule applies (uint8 with int8 is int16)."""
    ka, kb = _category(a), _category(b)
    if ka != kb:
        return a if ka > kb else b
    return np.promote_types(a, b)


def _combine(higher, lower):
    """The result of a higher tier meeting a lower one (PyTorch's ``combine_categories``)."""
    if higher is None or lower is None:
        return lower if higher is None else higher
    if _category(lower) > _category(higher):
        return promote_types(higher, lower)
    return higher


def python_number_dtype(value):
    """Python bools are bool, ints int64, floats the default float dtype."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(value, (builtins.int, np.integer)):
        return np.dtype(np.int64)
    return _default_float.numpy


def _category(numpy_dtype):
    """0 bool, 1 integer, 2 floating: the order promotion follows."""
    return 0 if numpy_dtype.kind == "b" else (2 if numpy_dtype.kind == "f" else 1)


_SCALAR_TYPE_NAMES = {
    "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
    "float16": "Half", "float32": "Float", "float64": "Double",
}


def scalar_type_name(numpy_dtype):
    """PyTorch's name for a dtype in error messages: ``Float``, ``Double``, ``Long``, ..."""
    return _SCALAR_TYPE_NAMES[np.dtype(numpy_dtype).name]


# How PyTorch names the C types in some dtype errors (``mm``, ``masked_fill``, assigning ``.grad``).
_C_TYPE_NAMES = {
    "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
    "int64": "long int", "float16": "c10::Half", "float32": "float", "float64": "double",
}


def c_type_name(numpy_dtype):
    """PyTorch's C name of a dtype in some errors: ``float``, ``long int``, ``c10::Half``, ..."""
    return _C_TYPE_NAMES[np.dtype(numpy_dtype).name]
