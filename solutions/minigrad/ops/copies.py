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
    """``x.to(torch.float64)``, ``x.to("cpu")``, ``x.to(other)``: another dtype (the CPU is the only device)."""
    target = kwargs.get("dtype")
    for arg in args + tuple(v for k, v in kwargs.items() if k == "device"):
        if isinstance(arg, dtypes.dtype):
            target = arg
        elif isinstance(arg, Tensor):
            target = arg.dtype
        elif arg is not None:
            device.check(arg)
    if target is None or target.numpy == input._array.dtype:
        return input
    return to_dtype(input, target)
