"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``eye``, ``arange``, ... with PyTorch's dtypes.

Python floats become float32 (the default dtype), ints int64, bools bool; a numpy
array keeps its dtype. ``requires_grad=True`` is allowed for floating dtypes only.
"""
import builtins

import numpy as np

from . import device as _device
from . import dtypes
from .shape import Size
from .tensor import Tensor, _plain

INTEGER_GRAD = "Only Tensors of floating point and complex dtype can require gradients"


def _finish(array, requires_grad, device=None):
    """The new leaf, after checking that it may require grad."""
    _device.check(device)
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError(INTEGER_GRAD)
    return Tensor._wrap(array, requires_grad)


def _size(size):
    """``ones(2, 3)``, ``ones((2, 3))`` and ``ones([2, 3])`` all mean shape (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        return tuple(size[0])
    return tuple(size)


def _inferred_dtype(values):
    """PyTorch's dtype for Python data: bool, int64 or the default float."""
    array = np.asarray(values)
    if array.dtype.kind == "b":
        return np.bool_
    if array.dtype.kind in "iu":
        return np.int64
    return dtypes.get_default_dtype().numpy


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf holding a copy of ``data`` (nested lists, numbers, numpy arrays, tensors)."""
    if isinstance(data, Tensor):
        array = np.array(data._array, dtype=dtypes.to_numpy(dtype) if dtype else None)
    elif isinstance(data, np.ndarray):
        array = np.array(data, dtype=dtypes.to_numpy(dtype) if dtype else None)
    else:
        plain = _plain(data)
        array = np.array(plain, dtype=dtypes.to_numpy(dtype) if dtype else _inferred_dtype(plain))
    return _finish(array, requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype):
        return data
    if isinstance(data, np.ndarray) and dtype is None:
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    """A tensor sharing memory with ``array``."""
    dtypes.from_numpy(array.dtype)  # refuses dtypes PyTorch has no twin of
    return Tensor._wrap(array)


def _filled(fill, size, dtype, requires_grad, device):
    return _finish(np.full(_size(size), fill, dtype=dtypes.to_numpy(dtype)), requires_grad, device)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _filled(1, size, dtype, requires_grad, device)


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _filled(0, size, dtype, requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad, device)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.from_numpy(_inferred_dtype(fill_value))
    return _filled(fill_value, (size,) if isinstance(size, int) else size, dtype, requires_grad, device)


def _like(input, dtype):
    return dtype if dtype is not None else input.dtype


def ones_like(input, *, dtype=None, device=None, requires_grad=False):
    return _filled(1, input.shape, _like(input, dtype), requires_grad, device)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False):
    return _filled(0, input.shape, _like(input, dtype), requires_grad, device)


def empty_like(input, *, dtype=None, device=None, requires_grad=False):
    return _filled(0, input.shape, _like(input, dtype), requires_grad, device)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False):
    return _filled(fill_value, input.shape, _like(input, dtype), requires_grad, device)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    return _finish(np.eye(n, n if m is None else m, dtype=dtypes.to_numpy(dtype)), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Integers give int64, any float gives the default float dtype, as in PyTorch."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        whole = all(isinstance(v, (builtins.int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if whole else dtypes.get_default_dtype()
    return _finish(np.arange(start, end, step).astype(dtypes.to_numpy(dtype)), requires_grad, device)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    values = np.linspace(start, end, steps, dtype=np.float64)
    return _finish(values.astype(dtypes.to_numpy(dtype)), requires_grad, device)
