"""Inference mode: ``no_grad`` that also marks what it makes, so it can never join a graph later.

Inside ``torch.inference_mode()`` nothing is recorded, as under ``no_grad``, and every
tensor made there is an *inference tensor* (``t.is_inference()``). PyTorch can skip
the bookkeeping autograd needs (version counters, views' history) for such tensors,
which is why it refuses, outside inference mode, to let them back into autograd: to
require grad, to be changed in place, or to be saved for a backward. A copy
(``t.clone()``) made outside is a normal tensor. A view is an inference tensor
exactly when its base is.

How tensors get marked costs nothing outside the mode: while it is on, ``tensor.py``'s
allocator (``_new``, which ``Tensor._wrap`` calls for every tensor) is swapped for one
that marks each new tensor; ``Tensor._inference`` is False otherwise (``tensor_data.py``).
"""
from .. import tensor as _tensor_module
from ..public_names import public
from . import grad_mode
from .mode_decorators import DecoratorContext

REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
IN_PLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
)
SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
    "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
)
NO_VERSION = "Inference tensors do not track version counter."  # reading ``_version``, in the mode or not

_enabled = False
_plain_new = object.__new__


def _inference_new(cls):
    """The allocator while inference mode is on: a tensor marked as an inference tensor."""
    t = _plain_new(cls)
    t._inference = True
    return t


def is_inference_mode_enabled():
    return _enabled


def _set_enabled(mode):
    global _enabled
    _enabled = mode
    _tensor_module._new = _inference_new if mode else _plain_new


class inference_mode(DecoratorContext):
    """Record nothing and make inference tensors (``inference_mode(False)``: record again, make normal ones).
    Unlike PyTorch, ``enable_grad`` inside it records again."""

    def __init__(self, mode=True):
        self._mode = mode

    def _clone(self):
        return inference_mode(self._mode)

    def __enter__(self):
        self._prev, self._prev_inference = grad_mode._enabled, _enabled
        grad_mode._set_enabled(not self._mode)
        _set_enabled(bool(self._mode))

    def __exit__(self, *exc):
        grad_mode._set_enabled(self._prev)
        _set_enabled(self._prev_inference)


@public("is_inference", methods="is_inference")
def is_inference(input):
    """Whether ``input`` was made in inference mode (or is a view of a tensor that was)."""
    return input._inference


def refuse_outside(tensor, message):
    """PyTorch's error ``message`` when ``tensor`` is an inference tensor and the mode is off."""
    if tensor._inference and not _enabled:
        raise RuntimeError(message)
