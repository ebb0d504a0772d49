"""Joining tensors: ``cat`` puts them end to end along an existing dimension, ``stack``
along a new one. Backward cuts the gradient back into one piece per input.
"""
import functools

import numpy as np

from .. import dtypes
from ..autograd.graph import Node, record, should_record
from ..tensor import Tensor
from .views import _dim


class CatBackward0(Node):
    """Input ``i`` filled ``sizes[i]`` positions along ``dim``: its gradient is that slice.

    A skipped input (``sizes[i]`` None) gets an empty gradient.
    """

    __slots__ = ("sizes",)
    saved_names = ("dim",)

    def backward(self, grad):
        (dim,) = self._saved
        grads, start = [], 0
        for size in self.sizes:
            if size is None:
                grads.append(grad.reshape(-1)[:0])
            else:
                grads.append(grad[(slice(None),) * dim + (slice(start, start + size),)])
                start += size
        return tuple(grads)


class StackBackward0(Node):
    """Input ``i`` became index ``i`` of the new dimension: its gradient is that slice."""

    __slots__ = ("count",)
    saved_names = ("dim",)

    def backward(self, grad):
        (dim,) = self._saved
        return tuple(grad[(slice(None),) * dim + (i,)] for i in range(self.count))


def _common_dtype(arrays):
    """The dtype PyTorch gives the joined result: all the inputs' dtypes promoted together."""
    return functools.reduce(dtypes.promote_types, [a.dtype for a in arrays])


def cat(tensors, dim=0):
    """Join ``tensors`` along ``dim``; a 1-D tensor with no elements is skipped, as in PyTorch."""
    tensors = tuple(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    arrays = [t._array for t in tensors]
    for i, a in enumerate(arrays):
        if a.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    joined = [a for a in arrays if a.shape != (0,)] or arrays[:1]
    dim = _dim(dim, joined[0].ndim)
    _check_cat_shapes(joined, dim)
    dtype = _common_dtype(arrays)
    out = Tensor._wrap(np.concatenate([a.astype(dtype, copy=False) for a in joined], axis=dim))
    if should_record(*tensors):
        node = CatBackward0(dim)
        node.sizes = [a.shape[dim] if a.shape != (0,) else None for a in arrays]
        record(out, node, *tensors)
    return out


def _check_cat_shapes(arrays, dim):
    """Every shape must equal the first one's, except along ``dim``."""
    first = arrays[0].shape
    for i, a in enumerate(arrays[1:], start=1):
        if a.ndim != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} and {a.ndim}")
        for d, (expected, got) in enumerate(zip(first, a.shape)):
            if d != dim and expected != got:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size {expected} but got "
                    f"size {got} for tensor number {i} in the list."
                )


def stack(tensors, dim=0):
    """Join same-shaped ``tensors`` along a new dimension ``dim``."""
    tensors = tuple(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    arrays = [t._array for t in tensors]
    for i, a in enumerate(arrays[1:], start=1):
        if a.shape != arrays[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} at entry 0 and "
                f"{list(a.shape)} at entry {i}"
            )
    dim = _dim(dim, arrays[0].ndim + 1)
    dtype = _common_dtype(arrays)
    out = Tensor._wrap(np.stack([a.astype(dtype, copy=False) for a in arrays], axis=dim))
    if should_record(*tensors):
        node = StackBackward0(dim)
        node.count = len(tensors)
        record(out, node, *tensors)
    return out
