"""Copies: ``clone`` and dtype changes (``to``), each with its backward node.

A copy's gradient is the incoming gradient itself; a dtype change sends it back in
the input's dtype, which the engine does for every input.
"""
from .. import device, dtypes
from ..autograd.graph import Node, recorded
from ..public_names import public
from ..tensor import Tensor
from .pointwise import _wrap


class CloneBackward0(Node):
    __slots__ = ()

    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    """A dtype change: the gradient goes back in the input's dtype (the engine casts it)."""

    __slots__ = ()

    def backward(self, grad):
        return grad


@public("clone", methods="clone")
def clone(input, *, memory_format=None):
    return recorded(_wrap(input._array.copy()), (input,), CloneBackward0)


def to_dtype(input, dtype):
    """A copy in another dtype; gradients flow only between floating dtypes."""
    value = input._array.astype(dtype.numpy)
    if not dtype.is_floating_point:
        return Tensor._wrap(value)
    return recorded(_wrap(value), (input,), ToCopyBackward0)


@public(methods="to")
def to(input, *args, **kwargs):
    """``x.to(torch.float64)``, ``x.to("cpu")``, ``x.to(other)``: another dtype, or the "meta" device
    (shape and dtype kept, data dropped); the CPU is the only device with data."""
    target, where = kwargs.get("dtype"), None
    for arg in args + tuple(v for k, v in kwargs.items() if k == "device"):
        if isinstance(arg, dtypes.dtype):
            target = arg
        elif isinstance(arg, Tensor):
            target, where = arg.dtype, arg.device
        elif arg is not None:
            where = device.META if device.device(arg) == device.META else device.check(arg)
    if where is not None and where != input.device:
        return _moved(input, target or input.dtype, where)
    if target is None or target.numpy == input._array.dtype:
        return input
    return to_dtype(input, target)


def _moved(input, dtype, where):
    """A copy on another device: only to "meta" (a meta tensor has no data to copy back)."""
    if where != device.META:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    out = _wrap(device.meta_array(input.shape, dtype.numpy))
    if not (dtype.is_floating_point and input.is_floating_point()):
        return out
    return recorded(out, (input,), ToCopyBackward0)
