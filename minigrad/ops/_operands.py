"""Turning the operands of an operation into numpy arrays, with PyTorch's dtype rules."""
import numpy as np

from .. import dtypes
from ..tensor import Tensor


def array_of(x):
    """The numpy value behind a tensor, or the Python number itself."""
    return x._array if isinstance(x, Tensor) else x


def promoted(a, b):
    """Numpy operands for ``a op b`` whose numpy result has PyTorch's result dtype.

    numpy already agrees with PyTorch in the common cases (two arrays of one dtype; a
    float array and a Python number); only the others need a cast.
    """
    x = a._array if isinstance(a, Tensor) else a
    y = b._array if isinstance(b, Tensor) else b
    if type(x) is np.ndarray and type(y) is np.ndarray:
        if x.dtype is y.dtype or x.dtype == y.dtype:
            return x, y
    elif type(x) is np.ndarray and x.dtype.kind == "f" and type(y) in (float, int):
        return x, y
    elif type(y) is np.ndarray and y.dtype.kind == "f" and type(x) in (float, int):
        return x, y
    elif not isinstance(x, (np.ndarray, int, float, bool, np.number, np.bool_)) or not isinstance(
        y, (np.ndarray, int, float, bool, np.number, np.bool_)
    ):
        raise TypeError(f"unsupported operand types: '{type(a).__name__}' and '{type(b).__name__}'")
    target = dtypes.result_type(x, y)
    return _cast(x, target), _cast(y, target)


def _cast(value, target):
    if isinstance(value, np.ndarray):
        return value if value.dtype == target else value.astype(target)
    return target.type(value)


def as_tensor(x, like=None):
    """A tensor for ``x``: tensors pass through; numbers take the dtype PyTorch would give them."""
    if isinstance(x, Tensor):
        return x
    if like is not None and isinstance(x, (int, float)) and like._array.dtype.kind == "f":
        return Tensor._wrap(np.asarray(x, dtype=like._array.dtype))
    from ..creation import tensor

    return tensor(x)
