"""In-place operations: ``x.add_(y)``, ``x += y``, ``x[0] = 5.``, ``x.zero_()``, ...

An in-place operation writes into the tensor's own memory, which it shares with its
views and ``detach()`` copies, and bumps their common version counter, so that a node
that saved the old value refuses to use it (see ``SavedTensor``).

Its gradient is that of the out-of-place operation, run on the old value: ``b.mul_(2)``
records a ``MulBackward0`` whose input is b's old history, and that node becomes
``b.grad_fn``. When ``b`` is a view, its base changed too: the base's new ``grad_fn``
is a ``CopySlices`` node, which sends the gradient of the written region through the
operation and the rest straight to the base's old history; and every view of that base
now reads from it (an ``AsStridedBackward0`` node each).

PyTorch's rules are kept: under grad mode, a leaf that requires grad (or a view of one)
may not be changed in place, since its old value may be needed by the graph and its
``.grad`` would no longer describe it; under ``no_grad`` it may (that is how
optimizers update weights).
"""

import numpy as np

from ..autograd.graph import Node, recorded, should_record
from ..autograd.saved_tensor import count_write
from ..public_names import public
from ..shape import is_expandable_to, sum_to
from ..tensor import Tensor
from . import arithmetic, pointwise, powers, trig
from ._operands import broadcast_mismatch
from .inplace_history import apply, check_allowed
from .views import _as_view_key, _is_advanced, _plain_key, expand_error, getitem



@public(methods="add_ __iadd__")
def add_(tensor, other, *, alpha=1):
    return apply(tensor, arithmetic.add, other, alpha=alpha)


@public(methods="sub_ subtract_ __isub__")
def sub_(tensor, other, *, alpha=1):
    return apply(tensor, arithmetic.sub, other, alpha=alpha)


@public(methods="mul_ multiply_ __imul__")
def mul_(tensor, other):
    return apply(tensor, arithmetic.mul, other)


@public(methods="div_ divide_ true_divide_ __itruediv__")
def div_(tensor, other, *, rounding_mode=None):
    return apply(tensor, arithmetic.div, other, rounding_mode=rounding_mode)


@public(methods="pow_ __ipow__")
def pow_(tensor, exponent):
    return apply(tensor, powers.pow, exponent)


@public("neg_", methods="neg_")
def neg_(tensor):
    return apply(tensor, arithmetic.neg)


@public("reciprocal_", methods="reciprocal_")
def reciprocal_(tensor):
    return apply(tensor, arithmetic.reciprocal)


@public("square_", methods="square_")
def square_(tensor):
    return pow_(tensor, 2)


@public("clamp_ clip_", methods="clamp_ clip_")
def clamp_(tensor, min=None, max=None):  # noqa: A002 - PyTorch's names
    return apply(tensor, pointwise.clamp, min, max)


clip_ = clamp_


@public(methods="addcmul_")
def addcmul_(tensor, tensor1, tensor2, *, value=1):
    """``tensor += value * tensor1 * tensor2`` (optimizers use it)."""
    return apply(tensor, lambda t, a, b: t + value * a * b, tensor1, tensor2)


@public(methods="addcdiv_")
def addcdiv_(tensor, tensor1, tensor2, *, value=1):
    """``tensor += value * tensor1 / tensor2`` (optimizers use it)."""
    return apply(tensor, lambda t, a, b: t + value * a / b, tensor1, tensor2)


def _unary(function):
    """``x.exp_()`` and ``torch.exp_(x)`` from ``exp``."""

    def operation(tensor):
        return apply(tensor, function)

    operation.__name__ = name = function.__name__ + "_"
    return public(name, methods=name)(operation)


exp_, log_, sqrt_, abs_, sin_, cos_, tanh_, sigmoid_, relu_ = (
    _unary(f) for f in (pointwise.exp, pointwise.log, pointwise.sqrt, pointwise.abs, trig.sin, trig.cos,
                        pointwise.tanh, pointwise.sigmoid, pointwise.relu)
)


class ZeroBackward0(Node):
    """The old values are gone: they get no gradient (zeros)."""

    def backward(self, grad):
        return grad * 0


class FillBackward2(ZeroBackward0):
    """``fill_(number)``: like zero_."""


class FillBackward3(Node):
    """``fill_(value)`` with a 0-dim tensor: every element came from ``value``."""

    def backward(self, grad):
        return grad * 0, grad.sum()


class CopyBackwards(Node):
    """``copy_(src)``: the old values get zeros; ``src`` gets the gradient, summed back to its shape."""

    __slots__ = ("src_shape",)

    def __init__(self, src_shape):
        self._saved = ()
        self.src_shape = src_shape

    def backward(self, grad):
        return grad * 0, sum_to(grad, self.src_shape)


def _zeros(old):
    return recorded(Tensor._wrap(np.zeros_like(old._array)), (old,), ZeroBackward0)


def _filled(old, value):
    if isinstance(value, Tensor):
        if value._array.ndim:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value._array.ndim} dimensions."
            )
        return recorded(Tensor._wrap(np.full_like(old._array, value._array)), (old, value), FillBackward3)
    return recorded(Tensor._wrap(np.full_like(old._array, value)), (old,), FillBackward2)


def _copied(old, src):
    source = src._array if isinstance(src, Tensor) else np.asarray(src)
    shape = old._array.shape
    mismatch = broadcast_mismatch(shape, source.shape)
    if mismatch:
        raise RuntimeError(mismatch)
    value = np.broadcast_to(source, np.broadcast_shapes(shape, source.shape))  # _write refuses a bigger one
    return recorded(Tensor._wrap(value.astype(old._array.dtype)), (old, src), CopyBackwards, source.shape)


@public("fill_", methods="fill_")
def fill_(tensor, value):
    return apply(tensor, _filled, value)


@public(methods="copy_")
def copy_(tensor, src, non_blocking=False):
    return apply(tensor, _copied, src)


# ---------------------------------------------------------------- x[key] = value


class IndexPutBackward0(Node):
    """``x[mask] = v`` or ``x[indices] = v``: the overwritten elements get no gradient;
    ``v`` gets the gradient of the places it was written to."""

    __slots__ = ("key", "keep", "values_shape")

    def __init__(self, key, values_shape, shape, dtype):
        self._saved = ()
        self.key, self.values_shape = key, values_shape
        self.keep = np.ones(shape, dtype=dtype)  # 1 where the old value stays, 0 where it was overwritten
        self.keep[key] = 0

    def backward(self, grad):
        values_grad = sum_to(grad[self.key], self.values_shape) if self.needs_input_grad[1] else None
        return grad * self.keep, values_grad


def _index_put(old, key, values):
    value = values._array if isinstance(values, Tensor) else values
    array = old._array.copy()
    try:
        array[key] = value
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(np.shape(value))} cannot be broadcast to indexing result "
            f"of shape {list(array[key].shape)}"
        ) from None
    return recorded(Tensor._wrap(array), (old, values), IndexPutBackward0, key, np.shape(value), array.shape, array.dtype)


@public(methods="__setitem__")
def setitem(tensor, key, value):
    """``tensor[key] = value``: a copy into the view ``tensor[key]``, or, for index
    tensors and masks, an ``index_put_`` into ``tensor`` itself (as PyTorch does).

    ``tensor[key] = value``：复制进视图 ``tensor[key]``；若 key 是索引张量或掩码，则对 ``tensor`` 本身做
    ``index_put_``（与 PyTorch 相同）。
    """
    key = _plain_key(key)
    if _is_advanced(key):
        apply(tensor, _index_put, key, value)
        return
    key = _as_view_key(key)
    source = value._array if isinstance(value, Tensor) else np.asarray(value)
    target_shape = tensor._array[key].shape
    if not is_expandable_to(source.shape, target_shape):
        raise expand_error(source, target_shape)
    if should_record(tensor, value):
        copy_(getitem(tensor, key), value)
    else:
        check_allowed(tensor)
        tensor._array[key] = source
        count_write(tensor)
