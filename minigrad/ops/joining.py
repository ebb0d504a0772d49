"""Joining tensors and cutting them apart: ``cat`` puts tensors end to end along an
existing dimension, ``stack`` along a new one; ``split`` and ``chunk`` cut one tensor
into pieces along a dimension. Backward does the opposite: it cuts the gradient of a
join into one piece per input, and joins the gradients of the pieces of a split.
"""
import functools
import math

import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.view_tracking import view_of
from ..creation import zeros
from ..public_names import public
from ..tensor import Tensor
from .views import _dim


class CatBackward0(Node):
    """Input ``i`` filled ``sizes[i]`` positions along ``dim``: its gradient is that slice.

    A skipped input (``sizes[i]`` None) gets an empty gradient.
    """

    __slots__ = ("sizes",)
    saved_names = ("dim",)

    def __init__(self, dim, sizes):
        self._saved = (dim,)
        self.sizes = sizes

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

    def __init__(self, dim, count):
        self._saved = (dim,)
        self.count = count

    def backward(self, grad):
        (dim,) = self._saved
        return tuple(grad[(slice(None),) * dim + (i,)] for i in range(self.count))


def _common_dtype(arrays):
    """The dtype PyTorch gives the joined result: all the inputs' dtypes promoted together."""
    return functools.reduce(dtypes.promote_types, [a.dtype for a in arrays])


@public("cat concat concatenate")
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
    sizes = [a.shape[dim] if a.shape != (0,) else None for a in arrays]
    return recorded(out, tensors, CatBackward0, dim, sizes)


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


@public("stack")
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
    return recorded(out, tensors, StackBackward0, dim, len(tensors))


# ---------------------------------------------------------------- split and chunk


class SplitBackward0(Node):
    """The pieces of ``split(size)`` (and ``chunk``) side by side are the input: so are
    their gradients, joined along ``dim``; a piece that got no gradient contributes zeros.

    One node with an output per piece, as in PyTorch: ``_num_outputs`` tells the engine
    how many gradients to collect, and ``_output_meta`` each one's shape.
    """

    __slots__ = ("_num_outputs", "_piece_shapes")
    saved_names = ("dim", "self_sym_sizes", "split_size")

    def backward(self, *grads):
        return _joined(grads, self._piece_shapes, self._saved[0])

    def _output_meta(self, nr):
        return self._piece_shapes[nr], self._dtype


class SplitWithSizesBackward0(SplitBackward0):
    """``split([sizes])``: the same rule, pieces of the sizes given."""

    __slots__ = ()
    saved_names = ("dim", "self_sym_sizes", "split_sizes")


def _joined(grads, shapes, dim):
    """The pieces' gradients concatenated along ``dim``, with zeros for the missing ones."""
    present = next(g for g in grads if g is not None)
    if isinstance(present, Tensor):  # create_graph: the join is recorded
        parts = [g if g is not None else zeros(s, dtype=present.dtype) for g, s in zip(grads, shapes)]
        return cat(parts, dim)
    parts = [g if g is not None else np.zeros(s, dtype=present.dtype) for g, s in zip(grads, shapes)]
    return np.concatenate(parts, axis=dim)


@public("split")
def split(tensor, split_size_or_sections, dim=0):
    """Cut ``tensor`` along ``dim`` into views: pieces of ``split_size`` (the last one may be
    shorter), or of the listed sizes, which must add up to the dimension's size."""
    array = tensor._array
    if not array.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _dim(dim, array.ndim)
    length = array.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = tuple(split_size_or_sections)
        _check_sizes(sizes, length, dim)
        return _pieces(tensor, dim, sizes, SplitWithSizesBackward0, dim, array.shape, sizes)
    size = split_size_or_sections
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and length != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {length}")
    count = max(math.ceil(length / size), 1) if size else 1
    sizes = (size,) * (count - 1) + (length - size * (count - 1),)
    return _pieces(tensor, dim, sizes, SplitBackward0, dim, array.shape, size)


def _check_sizes(sizes, length, dim):
    if any(n < 0 for n in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={list(sizes)}"
        )
    if sum(sizes) != length:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's size at dimension "
            f"{dim}), but got split_sizes={list(sizes)}"
        )


@public("chunk", methods="chunk")
def chunk(input, chunks, dim=0):
    """At most ``chunks`` pieces of equal size (the last may be shorter): ``split`` by
    ceil(size / chunks). A dimension of size 0 gives ``chunks`` empty pieces."""
    array = input._array
    if not array.ndim:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = array.shape[_dim(dim, array.ndim)]
    if length == 0:
        return split(input, [0] * chunks, dim)
    return split(input, math.ceil(length / chunks), dim)


def _pieces(tensor, dim, sizes, node_type, *args):
    """The views of ``tensor`` of ``sizes`` along ``dim``, as outputs 0, 1, ... of one
    ``node_type(*args)``.

    Made under grad mode, ``ops.inplace`` refuses to change them in place, as PyTorch does
    for every function that returns several views; made under ``no_grad``, they are
    no-grad views like any other (``view_tracking.view_of``).
    """
    array, start, pieces = tensor._array, 0, []
    for size in sizes:
        piece = view_of(tensor, array[(slice(None),) * dim + (slice(start, start + size),)])
        pieces.append(piece)
        start += size
    return _record_pieces(tensor, tuple(pieces), node_type, *args)


def _record_pieces(tensor, pieces, node_type, *args):
    """Make ``pieces`` outputs 0, 1, ... of one ``node_type(*args)``, as in PyTorch."""
    node = recorded(pieces[0], (tensor,), node_type, *args).grad_fn if pieces else None
    if node is not None:
        for nr, piece in enumerate(pieces[1:], start=1):
            piece.grad_fn, piece._output_nr, piece._requires_grad = node, nr, True
        node._num_outputs = len(pieces)
        node._piece_shapes = [p._array.shape for p in pieces]
    return pieces


class UnbindBackward0(Node):
    """The pieces of ``unbind`` are the input's slices along ``dim``: their gradients are
    stacked back along it, zeros for a piece that got none."""

    __slots__ = ("_num_outputs", "_piece_shapes")
    saved_names = ("dim",)

    def backward(self, *grads):
        (dim,) = self._saved
        present = next(g for g in grads if g is not None)
        if isinstance(present, Tensor):  # create_graph: the stack is recorded
            return stack([g if g is not None else zeros(present.shape, dtype=present.dtype) for g in grads], dim)
        return np.stack([g if g is not None else np.zeros_like(present) for g in grads], axis=dim)

    def _output_meta(self, nr):
        return self._piece_shapes[nr], self._dtype


@public("unbind", methods="unbind")
def unbind(input, dim=0):
    """The slices of ``input`` along ``dim``, each without that dimension: views that are
    the outputs of one ``UnbindBackward0``."""
    array = input._array
    if not array.ndim:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    dim = _dim(dim, array.ndim)
    pieces = tuple(view_of(input, array[(slice(None),) * dim + (i, Ellipsis)]) for i in range(array.shape[dim]))
    return _record_pieces(input, pieces, UnbindBackward0, dim)


@public(methods="split")
def split_method(self, split_size, dim=0):
    """``x.split(split_size, dim)``: ``torch.split`` under the method's own keyword names."""
    return split(self, split_size, dim)
