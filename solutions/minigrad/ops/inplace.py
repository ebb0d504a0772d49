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

from ..autograd import grad_mode
from ..autograd.graph import Node, _op_name, record, should_record
from ..dtypes import scalar_type_name
from ..shape import is_expandable_to, sum_to
from ..tensor import Tensor
from . import arithmetic, pointwise
from ._operands import broadcast_mismatch
from .joining import SplitBackward0, SplitWithSizesBackward0
from .views import _as_view_key, _is_advanced, _plain_key, _scatter, expand_error, getitem, live_views, register_view

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this "
    "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
    "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
    "outside (if you want the inplace to be tracked)."
)
MULTIPLE_VIEWS = (
    "Output {} of {} is a view and is being modified inplace. This view is the output of a function that returns "
    "multiple views. Such functions do not allow the output views to be modified inplace. You should replace the "
    "inplace operation by an out-of-place one."
)
_MULTIPLE_VIEWS = (SplitBackward0, SplitWithSizesBackward0)  # nodes whose outputs are several views of one input
OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
    "Please clone() the tensor before performing the operation."
)


def apply(tensor, op, *args, **kwargs):
    """Compute ``op(tensor, *args, **kwargs)`` and write the result into ``tensor``.

    When the graph is recorded, ``op`` runs on a copy of the old value that carries the
    old history, so its node links to that history and keeps the old value if it needs it.
    """
    recording = should_record(tensor, *args)
    check_allowed(tensor, recording)
    if not recording:
        _write(tensor, op(tensor, *args, **kwargs)._array)
        return tensor
    out = op(_old_value(tensor), *args, **kwargs)
    _write(tensor, out._array)
    _rebase_history(tensor, out.grad_fn, out)
    return tensor


def check_allowed(tensor, recording=False):
    """Refuse what PyTorch refuses: writing into broadcast memory, and (under grad mode)
    changing a leaf that requires grad, a view of one, or a view made under no_grad.
    Any code that writes into a tensor's memory (the random fillers too) asks this first."""
    array = tensor._array
    if any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)):
        raise RuntimeError(OVERLAP)
    if not grad_mode._enabled:
        return
    base = tensor._base
    if base is not None and type(tensor.grad_fn) in _MULTIPLE_VIEWS:
        raise RuntimeError(MULTIPLE_VIEWS.format(tensor._output_nr, _op_name(tensor.grad_fn)))
    if base is not None and "_made_in_no_grad" in tensor.__dict__ and (recording or base._requires_grad):
        raise RuntimeError(NO_GRAD_VIEW)
    if tensor.grad_fn is None and tensor._requires_grad:
        raise RuntimeError(LEAF)
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF)


def _old_value(tensor):
    """A stand-in for ``tensor`` before the write: a copy of its values, with its history."""
    old = Tensor._wrap(tensor._array.copy())
    old.grad_fn, old._output_nr, old._requires_grad = tensor.grad_fn, tensor._output_nr, tensor._requires_grad
    return old


def _write(tensor, value):
    """Store ``value`` in ``tensor``'s memory and count the change, if its shape and dtype fit."""
    target = tensor._array
    if value.shape != target.shape:
        raise RuntimeError(
            f"output with shape {list(target.shape)} doesn't match the broadcast shape {list(value.shape)}"
        )
    if value.dtype != target.dtype and not np.can_cast(value.dtype, target.dtype, casting="same_kind"):
        raise RuntimeError(
            f"result type {scalar_type_name(value.dtype)} can't be cast to the desired output type "
            f"{scalar_type_name(target.dtype)}"
        )
    target[...] = value
    tensor._bump_version()


def _rebase_history(tensor, node, out):
    """Give ``tensor`` the history of the write; for a view, its base gets a ``CopySlices``.
    Every view of the changed tensor (or base) then reads from its new history."""
    for saved in node._saved:
        if getattr(saved, "_array", None) is out._array:  # the node saved its result: now tensor's memory
            saved.follow(tensor)
    node._shape, node._dtype = tensor._array.shape, tensor._array.dtype
    owner = tensor._base
    if owner is None:
        owner = tensor
        _set_history(tensor, node)
    else:
        copy_slices = CopySlices(node, _region(tensor, owner), owner._array.shape)
        _set_history(owner, copy_slices, owner)  # its first edge: the base's history before the write
        copy_slices.next_functions += node.next_functions[1:]
        register_view(owner, tensor)
    for view in live_views(owner):
        _set_history(view, AsStridedBackward0(_region(view, owner), owner._array.shape), owner)


def _set_history(tensor, node, *inputs):
    """Make ``node`` the tensor's ``grad_fn`` (recorded on ``inputs`` when given);
    a retained gradient follows the tensor to its new node, as in PyTorch."""
    retains = tensor._retains_grad
    if retains:
        tensor.grad_fn._hooks.retain.pop(tensor._output_nr, None)
        tensor._retains_grad = False
    if inputs:
        record(tensor, node, *inputs)
    else:
        tensor.grad_fn, tensor._requires_grad = node, True
    tensor._output_nr = 0
    if retains:
        tensor.retain_grad()


def _region(view, base):
    """For each element of ``view``, the flat (C-order) index of the element of ``base``
    whose memory it shares; found from memory addresses, so any chain of views works."""
    base_offsets = _byte_offsets(base._array).ravel()
    order = np.argsort(base_offsets, kind="stable")
    return order[np.searchsorted(base_offsets[order], _byte_offsets(view._array))]


def _byte_offsets(array):
    """The memory address of each element of ``array``, as an array of its shape."""
    offsets = np.full(array.shape, array.__array_interface__["data"][0], dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(array.shape, array.strides)):
        offsets += (np.arange(size, dtype=np.int64) * stride).reshape((size,) + (1,) * (array.ndim - axis - 1))
    return offsets


def _put_back(grad, region, base_shape):
    """Zeros shaped like the base with ``grad`` (shaped like the view) at ``region``."""
    return _scatter(grad, (int(np.prod(base_shape)),), region, accumulate=True).reshape(base_shape)


class CopySlices(Node):
    """The base's history after an in-place operation ``fn`` on one of its views.

    The gradient of the region the view covers goes through ``fn`` (whose first input
    was the view's old value); the rest of the base's gradient passes unchanged to the
    base's old history, the first edge. The other edges are ``fn``'s other inputs.
    """

    __slots__ = ("fn", "region", "base_shape", "keep")

    def __init__(self, fn, region, base_shape):
        self._saved = ()
        self.fn, self.region, self.base_shape = fn, region, base_shape
        self.keep = np.ones(base_shape, dtype=fn._dtype)
        self.keep.reshape(-1)[region.ravel()] = 0

    def backward(self, grad):
        results = self.fn.backward(grad.reshape(-1)[self.region])
        results = results if type(results) is tuple else (results,)
        base_grad = grad * self.keep
        if results[0] is not None:
            base_grad = base_grad + _put_back(results[0], self.region, self.base_shape)
        return (base_grad,) + results[1:]

    def _release(self):
        self.fn._release()


class AsStridedBackward0(Node):
    """A view's history once its base has changed in place: it reads ``region`` of the base."""

    __slots__ = ("region", "base_shape")

    def __init__(self, region, base_shape):
        self._saved = ()
        self.region, self.base_shape = region, base_shape

    def backward(self, grad):
        return _put_back(grad, self.region, self.base_shape)


# ---------------------------------------------------------------- the operations


def add_(tensor, other, *, alpha=1):
    return apply(tensor, arithmetic.add, other, alpha=alpha)


def sub_(tensor, other, *, alpha=1):
    return apply(tensor, arithmetic.sub, other, alpha=alpha)


def mul_(tensor, other):
    return apply(tensor, arithmetic.mul, other)


def div_(tensor, other, *, rounding_mode=None):
    return apply(tensor, arithmetic.div, other, rounding_mode=rounding_mode)


def pow_(tensor, exponent):
    return apply(tensor, arithmetic.pow, exponent)


def neg_(tensor):
    return apply(tensor, arithmetic.neg)


def reciprocal_(tensor):
    return apply(tensor, arithmetic.reciprocal)


def square_(tensor):
    return pow_(tensor, 2)


def clamp_(tensor, min=None, max=None):  # noqa: A002 - PyTorch's names
    return apply(tensor, pointwise.clamp, min, max)


clip_ = clamp_


def addcmul_(tensor, tensor1, tensor2, *, value=1):
    """``tensor += value * tensor1 * tensor2`` (optimizers use it)."""
    return apply(tensor, lambda t, a, b: t + value * a * b, tensor1, tensor2)


def addcdiv_(tensor, tensor1, tensor2, *, value=1):
    """``tensor += value * tensor1 / tensor2`` (optimizers use it)."""
    return apply(tensor, lambda t, a, b: t + value * a / b, tensor1, tensor2)


def _unary(function):
    def operation(tensor):
        return apply(tensor, function)

    operation.__name__ = function.__name__ + "_"
    return operation


exp_, log_, sqrt_, abs_, sin_, cos_, tanh_, sigmoid_, relu_ = (
    _unary(f) for f in (pointwise.exp, pointwise.log, pointwise.sqrt, pointwise.abs, pointwise.sin, pointwise.cos,
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

    def backward(self, grad):
        return grad * 0, sum_to(grad, self.src_shape)


def _zeros(old):
    return _recorded(np.zeros_like(old._array), ZeroBackward0(), old)


def _filled(old, value):
    if isinstance(value, Tensor):
        if value._array.ndim:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value._array.ndim} dimensions."
            )
        return _recorded(np.full_like(old._array, value._array), FillBackward3(), old, value)
    return _recorded(np.full_like(old._array, value), FillBackward2(), old)


def _copied(old, src):
    source = src._array if isinstance(src, Tensor) else np.asarray(src)
    shape = old._array.shape
    mismatch = broadcast_mismatch(shape, source.shape)
    if mismatch:
        raise RuntimeError(mismatch)
    node = CopyBackwards()
    node.src_shape = source.shape
    value = np.broadcast_to(source, np.broadcast_shapes(shape, source.shape))  # _write refuses a bigger one
    return _recorded(value.astype(old._array.dtype), node, old, src)


def _recorded(value, node, *inputs):
    out = Tensor._wrap(value)
    if should_record(*inputs):
        record(out, node, *inputs)
    return out


def zero_(tensor):
    """Set every element to 0 in place: how training resets a gradient between steps.

    Usually there is nothing to record (a ``.grad``, or any tensor under ``no_grad``) and
    the memory is written directly; a recorded zeroing goes through ``apply`` like every
    other in-place operation."""
    if should_record(tensor):
        return apply(tensor, _zeros)
    check_allowed(tensor)
    # BEGIN SOLUTION 4.3
    tensor._array[...] = 0
    tensor._bump_version()
    return tensor
    # END SOLUTION


def fill_(tensor, value):
    return apply(tensor, _filled, value)


def copy_(tensor, src, non_blocking=False):
    return apply(tensor, _copied, src)


# ---------------------------------------------------------------- x[key] = value


class IndexPutBackward0(Node):
    """``x[mask] = v`` or ``x[indices] = v``: the overwritten elements get no gradient;
    ``v`` gets the gradient of the places it was written to."""

    __slots__ = ("key", "keep", "values_shape")

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
    out = Tensor._wrap(array)
    if should_record(old, values):
        node = IndexPutBackward0()
        node.key, node.values_shape = key, np.shape(value)
        node.keep = np.ones(array.shape, dtype=array.dtype)
        node.keep[key] = 0
        record(out, node, old, values)
    return out


def setitem(tensor, key, value):
    """``tensor[key] = value``: a copy into the view ``tensor[key]``, or, for index
    tensors and masks, an ``index_put_`` into ``tensor`` itself (as PyTorch does)."""
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
        tensor._bump_version()
