"""How an in-place operation is recorded: the old value's history, views, and PyTorch's refusals.

``apply(tensor, op, ...)`` is what every in-place operation of ``inplace.py`` calls: it
checks the change is allowed, runs ``op`` on a copy of the old value that carries the old
history, writes the result into the tensor's memory, bumps the version counter, and
rebases the history of the tensor (and, when it is a view, of its base and the base's
other views: ``CopySlices``, ``AsStridedBackward0``).
"""
import numpy as np

from ..autograd import grad_mode
from ..autograd.function import BackwardCFunction
from ..autograd.graph import Node, record, should_record
from ..autograd.inference_mode import IN_PLACE, refuse_outside
from ..autograd.saved_mutation import before_write
from ..autograd.saved_tensor import count_write, op_name
from ..autograd.view_tracking import live_views, register_view
from ..dtypes import scalar_type_name
from ..tensor import Tensor
from .joining import SplitBackward0, SplitWithSizesBackward0, UnbindBackward0
from .views import _scatter

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
CUSTOM_FUNCTION_VIEW = (
    "Output {} of {} is a view and is being modified inplace. This view was created inside a custom Function (or "
    "because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom "
    "backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You "
    "can fix this by cloning the output of the custom Function."
)
_MULTIPLE_VIEWS = (SplitBackward0, SplitWithSizesBackward0, UnbindBackward0)  # nodes whose outputs are several views of one input
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
    """Refuse what PyTorch refuses: writing into an inference tensor outside inference mode or
    into broadcast memory, and (under grad mode) changing a leaf that requires grad, a view of
    one, a view made under no_grad, or a view a custom Function returned (an input returned as-is).
    Any code that writes into a tensor's memory (the random fillers too) asks this first; once the write is
    allowed, ``allow_mutation_on_saved_tensors`` clones what was saved of the tensor (``before_write``)."""
    _refuse(tensor, recording)
    before_write(tensor)


def _refuse(tensor, recording):
    """``check_allowed``'s refusals, in PyTorch's words."""
    if tensor._inference:
        refuse_outside(tensor, IN_PLACE)
    array = tensor._array
    if any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)):
        raise RuntimeError(OVERLAP)
    if not grad_mode._enabled:
        return
    base = tensor._base
    if base is not None and type(tensor.grad_fn) in _MULTIPLE_VIEWS:
        raise RuntimeError(MULTIPLE_VIEWS.format(tensor._output_nr, op_name(tensor.grad_fn)))
    if base is not None and isinstance(tensor.grad_fn, BackwardCFunction):  # an input a custom Function returned
        raise RuntimeError(CUSTOM_FUNCTION_VIEW.format(tensor._output_nr, type(tensor.grad_fn)._forward_cls.__name__))
    if base is not None and tensor.__dict__.get("_made_in_no_grad") and (recording or base._requires_grad):
        raise RuntimeError(NO_GRAD_VIEW)
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF)
    if tensor.grad_fn is None and tensor._requires_grad:
        raise RuntimeError(LEAF)


def _old_value(tensor):
    """A stand-in for ``tensor`` before the write: a copy of its values, with its history."""
    old = Tensor._wrap(tensor._array.copy())
    old.grad_fn, old._output_nr, old._requires_grad = tensor.grad_fn, tensor._output_nr, tensor._requires_grad
    return old


def _write(tensor, value):
    """Store ``value`` in ``tensor``'s memory and count the change, if its shape and dtype fit.

    如果形状和 dtype 合适，把 ``value`` 写进 ``tensor`` 的内存，并记下这次改动。
    """
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
    count_write(tensor)


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
