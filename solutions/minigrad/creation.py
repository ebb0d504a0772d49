"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``eye``, ``arange``, ... with PyTorch's dtypes.

Python floats become float32 (the default dtype), ints int64, bools bool; a numpy
array or number keeps its dtype. ``requires_grad=True`` is allowed for floating dtypes only.
``arange`` and ``linspace`` compute their values the way PyTorch's loops do, so that
they match PyTorch's bit for bit (the course compares printed results).
"""
import builtins
import functools
import math
import warnings

import numpy as np

from . import device as _device
from . import dtypes
from .public_names import public
from .shape import Size
from .tensor import Tensor, _plain, legacy_tensor

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
        size = size[0]
    size = tuple(size)
    negative = [n for n in size if n < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {list(size)}")
    return size


def _inferred_dtype(data):
    """PyTorch's dtype for Python data: a bool is bool, an int int64, a float the default
    float; numpy values keep their dtype; a list takes its elements' dtypes promoted."""
    if isinstance(data, (list, tuple)):
        found = [_inferred_dtype(x) for x in data]
        return functools.reduce(dtypes.promote_types, found) if found else dtypes.get_default_dtype().numpy
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype
    if isinstance(data, (builtins.bool, builtins.int, builtins.float)):
        return dtypes.python_number_dtype(data)
    raise TypeError(f"new(): invalid data type '{type(data).__name__}'")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf holding a copy of ``data`` (nested lists, numbers, numpy arrays, tensors)."""
    if isinstance(data, Tensor):
        warnings.warn(COPY_CONSTRUCT, UserWarning, stacklevel=2)
        array = np.array(data._array, dtype=dtypes.to_numpy(dtype) if dtype else None)
    elif isinstance(data, np.ndarray):
        array = np.array(data, dtype=dtypes.to_numpy(dtype) if dtype else None)
    else:
        plain = _plain(data)
        try:
            array = np.array(plain, dtype=dtypes.to_numpy(dtype) if dtype else _inferred_dtype(plain))
        except ValueError:
            _refuse_ragged(plain, _first_lengths(plain))
            raise
    return _finish(array, requires_grad, device)


COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)


def _first_lengths(data):
    """The shape PyTorch reads off nested lists: the length of the first list at each depth."""
    lengths = []
    while isinstance(data, (list, tuple)):
        lengths.append(len(data))
        if not data:
            break
        data = data[0]
    return lengths


def _refuse_ragged(data, lengths, dim=0):
    """PyTorch's error for the first list whose length differs from that shape."""
    if dim == len(lengths) or not isinstance(data, (list, tuple)):
        return
    if len(data) != lengths[dim]:
        raise ValueError(f"expected sequence of length {lengths[dim]} at dim {dim} (got {len(data)})")
    for item in data:
        _refuse_ragged(item, lengths, dim + 1)


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
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    if dtype is None:
        dtype = dtypes.from_numpy(_inferred_dtype(fill_value))
    return _filled(fill_value, (size,), dtype, requires_grad, device)


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


# ``x.new_ones(2, 3)`` and its kin: new tensors with ``x``'s dtype unless another is given.


def _new_size(sizes, size):
    """``new_ones(2, 3)``, ``new_ones((2, 3))`` and ``new_ones(size=(2, 3))`` mean the same."""
    return _size(sizes if size is None else (size,))


@public(methods="new")
def new(self, *args):
    """``x.new([1, 2])`` or ``x.new(2, 3)``: the legacy constructor in ``x``'s dtype (zeros for a
    shape, where PyTorch leaves the memory uninitialised)."""
    return legacy_tensor(self._array.dtype, args)


@public(methods="new_ones")
def new_ones(self, *sizes, size=None, dtype=None, device=None, requires_grad=False):
    return _filled(1, _new_size(sizes, size), _like(self, dtype), requires_grad, device)


@public(methods="new_zeros")
def new_zeros(self, *sizes, size=None, dtype=None, device=None, requires_grad=False):
    return _filled(0, _new_size(sizes, size), _like(self, dtype), requires_grad, device)


@public(methods="new_empty")
def new_empty(self, *sizes, size=None, dtype=None, device=None, requires_grad=False):
    return _filled(0, _new_size(sizes, size), _like(self, dtype), requires_grad, device)


@public(methods="new_full")
def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    """Unlike ``full``, the fill value does not choose the dtype: ``self`` does."""
    fill = fill_value._array if isinstance(fill_value, Tensor) else fill_value
    return _filled(fill, (size,), _like(self, dtype), requires_grad, device)


@public(methods="new_tensor")
def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """``tensor(data)`` in ``self``'s dtype (not the one ``data`` would choose)."""
    if isinstance(data, Tensor):
        warnings.warn(COPY_CONSTRUCT.replace("torch.tensor(", "tensor.new_tensor("), UserWarning, stacklevel=2)
        data = data._array
    numpy_dtype = dtypes.to_numpy(_like(self, dtype))
    return _finish(np.array(_plain(data), dtype=numpy_dtype), requires_grad, device)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    return _finish(np.eye(n, n if m is None else m, dtype=dtypes.to_numpy(dtype)), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Integers give int64, any float gives the default float dtype, as in PyTorch."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        whole = all(isinstance(v, (builtins.int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if whole else dtypes.get_default_dtype()
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    numpy_dtype = dtypes.to_numpy(dtype)
    count = math.ceil((end - start) / step)
    if numpy_dtype.kind == "f":
        values = _float_range(start, step, count, numpy_dtype)
    else:
        values = np.arange(start, end, step).astype(numpy_dtype)
    return _finish(values, requires_grad, device)


def _fused(a, b, c):
    """``a + b * c`` rounded once, to float64: a fused multiply-add, as PyTorch's compiled
    loops compute it. numpy has none; its long double carries enough digits on x86."""
    wide = np.longdouble
    return (np.asarray(a, dtype=wide) + np.asarray(b, dtype=wide) * np.asarray(c, dtype=wide)).astype(np.float64)


def _float_range(start, step, count, dtype):
    """PyTorch's floating ``arange``, bit for bit. Its loop fills vectors of 32 bytes: each
    vector's first element is ``start + step * i`` rounded to ``dtype``, and the vector's
    other lanes add ``lane * step`` to that rounded value; the last elements that do
    not fill two vectors are computed one by one, as ``start + step * i``."""
    lanes = 32 // dtype.itemsize
    index = np.arange(count)
    lane = index % lanes
    first = _fused(start, step, index - lane).astype(dtype)
    values = _fused(first, step, lane).astype(dtype)
    rest = count % (2 * lanes)
    if rest:
        values[count - rest :] = _fused(start, step, index[count - rest :]).astype(dtype)
    return values


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, computed as PyTorch does:
    the first half as ``start + step * i``, the second half back from ``end``, so both
    ends are exact; each value in the result's float type, with a fused multiply-add.
    For an integer dtype the ends are made integers first, and the values truncated."""
    numpy_dtype = dtypes.to_numpy(dtype)
    if steps == 1:
        return _finish(np.array([start]).astype(numpy_dtype), requires_grad, device)
    if numpy_dtype.kind == "f":
        compute = numpy_dtype.type
    else:
        compute, start, end = np.float64, builtins.int(start), builtins.int(end)
    first, last = compute(start), compute(end)
    step = (last - first) / compute(steps - 1)
    index = np.arange(steps)
    values = np.where(index < steps // 2, _fused(first, step, index), _fused(last, -step, steps - 1 - index))
    return _finish(values.astype(numpy_dtype), requires_grad, device)
