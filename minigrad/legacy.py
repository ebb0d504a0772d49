"""PyTorch's legacy tensor types: the constructors ``torch.FloatTensor([1, 2])``, ``torch.LongTensor(3)``, ...
and ``x.type()``, which names a tensor's type (``'torch.FloatTensor'``) or converts it to another one
given as a dtype, a constructor or such a name. Also ``torch.result_type``, PyTorch's promotion rule.
"""
import builtins

import numpy as np

from . import dtypes
from .ops.copies import to
from .public_names import public
from .tensor import Tensor, legacy_tensor
from .tensor_data import tensor_type_name

_NUMPY_NAMES = ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool")


def _legacy(numpy_name):
    """``torch.LongTensor([1, 2])`` and its kin: the legacy constructor of one dtype."""
    name = tensor_type_name(np.dtype(numpy_name))
    make = lambda *args: legacy_tensor(numpy_name, args)  # noqa: E731
    make.__name__ = make.__qualname__ = name
    make.dtype = dtypes.from_numpy(np.dtype(numpy_name))  # what ``x.type(torch.FloatTensor)`` converts to
    return make


CONSTRUCTORS = {f"torch.{maker.__name__}": maker for maker in map(_legacy, _NUMPY_NAMES)}
(FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor,
 BoolTensor) = CONSTRUCTORS.values()


@public(methods="type")
def type(input, dtype=None, non_blocking=False, **kwargs):  # noqa: A001 - PyTorch's name
    """With no type, the tensor's type's name; else the tensor in that type (itself if it has it already)."""
    if dtype is None:
        return f"torch.{tensor_type_name(input._array.dtype)}"
    if isinstance(dtype, str):
        if dtype not in CONSTRUCTORS:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = CONSTRUCTORS[dtype]
    return to(input, getattr(dtype, "dtype", dtype))


@public("result_type")
def result_type(tensor, other):
    """The dtype of ``tensor op other`` (tensors or numbers): dimensioned tensors decide before
    zero-dim ones, and those before numbers, unless a later one is of a higher category."""
    values = []
    for x in (tensor, other):
        if isinstance(x, Tensor):
            values.append(x._array)
        elif isinstance(x, (builtins.bool, builtins.int, builtins.float)):
            values.append(x)
        else:
            kinds = ", ".join(builtins.type(v).__name__ for v in (tensor, other))
            raise TypeError(f"result_type() received an invalid combination of arguments - got ({kinds})")
    return dtypes.from_numpy(dtypes.result_type(*values))
