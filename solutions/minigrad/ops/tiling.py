"""Copies of a tensor laid out anew: ``repeat`` tiles it, ``roll`` shifts it around in a circle.

``repeat`` reads each element once per tile, so an element's gradient is the sum of its
tiles' gradients. ``roll`` moves every element once, so its gradient is rolled back.
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..public_names import public
from ..tensor import Tensor
from .views import _dim, _shape_args


class RepeatBackward0(Node):
    """out = self tiled ``repeats`` times along each dimension (self first given leading 1s)."""

    __slots__ = ()
    saved_names = ("repeats", "self_sym_sizes")

    def backward(self, grad):
        repeats, shape = self._saved
        padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
        # Split every dimension into (tile, element) and add the tiles up.
        split = tuple(n for pair in zip(repeats, padded) for n in pair)
        summed = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return summed.reshape(shape)


@public(methods="repeat")
def repeat(input, *sizes):
    """``input`` tiled ``sizes[i]`` times along dimension ``i``; more sizes than dimensions add
    leading ones, as in PyTorch (numpy's ``tile``, which also allows fewer, is stricter here)."""
    repeats = _shape_args(sizes)
    array = input._array
    if len(repeats) < array.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    padded = array.reshape((1,) * (len(repeats) - array.ndim) + array.shape)
    out = Tensor._wrap(np.tile(padded, repeats))
    return recorded(out, (input,), RepeatBackward0, repeats, array.shape)


class RollBackward0(Node):
    """out = self rolled by ``shifts`` along ``dims`` (flattened when ``dims`` is empty): roll the gradient back."""

    __slots__ = ()
    saved_names = ("dims", "shifts")

    def backward(self, grad):
        dims, shifts = self._saved
        back = tuple(-s for s in shifts)
        if isinstance(grad, Tensor):
            return roll(grad, back, dims or None)
        return _rolled(grad, back, dims)


def _rolled(array, shifts, dims):
    """numpy's roll of ``array``: along ``dims``, or over the flattened array when there are none."""
    if not dims:
        return np.roll(array, shifts[0])
    return np.roll(array, shifts, dims)


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


@public("roll", methods="roll")
def roll(input, shifts, dims=None):
    """Elements shifted ``shifts`` places along ``dims``, those pushed off the end coming back at the
    start; without ``dims`` the tensor is rolled as one flat row and keeps its shape."""
    shifts = tuple(int(s) for s in _as_tuple(shifts))
    array = input._array
    dims = () if dims is None else tuple(_dim(d, array.ndim) for d in _as_tuple(dims))
    if len(shifts) != max(len(dims), 1) or not shifts:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    out = Tensor._wrap(_rolled(array, shifts, dims))
    return recorded(out, (input,), RollBackward0, dims, shifts)
