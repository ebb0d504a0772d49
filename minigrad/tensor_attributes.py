"""PyTorch's rules for a tensor's writable attributes: ``requires_grad``, ``.data`` and ``.grad``.

``tensor.py`` defines what these attributes mean; the rules here wrap them with what
PyTorch also checks or allows: a flag must be a bool, an inference tensor may not be
flagged outside inference mode, ``.data`` takes only a tensor and can't be deleted, and
``del x.grad`` is ``x.grad = None``.

A base's flag also reaches the views taken from it before: PyTorch computes a view's
``requires_grad`` from its base's. Such a view stays a leaf; like a view made under
``no_grad`` it requires grad only through its base and gets no gradient of its own.
"""
import functools

from .autograd.inference_mode import NO_VERSION, REQUIRES_GRAD, refuse_outside
from .autograd.view_tracking import live_views
from .tensor import Tensor

NOT_A_BOOL = "requires_grad must be a bool"
DELETE_DATA = "Deleting tensor data is not allowed. Delete tensor instead!"


def _follow_base(tensor, flag):
    """The leaf views taken from ``tensor`` before now say ``flag`` too (they reach it through their base)."""
    for view in live_views(tensor) if "_views" in tensor.__dict__ else ():
        if view.grad_fn is None:
            view._requires_grad = flag
            view._made_in_no_grad = False  # present: no gradient of its own (graph.py); False: not made under no_grad


def _checked_flag_method(requires_grad_):
    @functools.wraps(requires_grad_)
    def checked(self, requires_grad=True):
        if requires_grad:
            refuse_outside(self, REQUIRES_GRAD)
        out = requires_grad_(self, requires_grad)
        _follow_base(self, self._requires_grad)
        return out

    return checked


def _checked_flag_setter(set_flag):
    def checked(self, flag):
        if type(flag) is not bool:
            raise RuntimeError(NOT_A_BOOL)
        if flag:
            refuse_outside(self, REQUIRES_GRAD)
        set_flag(self, flag)
        _follow_base(self, flag)

    return checked


def _refuse_delete_flag(self):
    raise RuntimeError(NOT_A_BOOL)


def _checked_data_setter(set_data):
    def checked(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        set_data(self, value)

    return checked


def _refuse_delete_data(self):
    raise RuntimeError(DELETE_DATA)


def _delete_grad(self):
    self.grad = None


def _checked_version(version):
    """``_version``, which an inference tensor does not have (PyTorch's error, even inside the mode)."""

    @functools.wraps(version)
    def checked(self):
        if self._inference:
            raise RuntimeError(NO_VERSION)
        return version(self)

    return checked


def install():
    """Wrap ``Tensor``'s attributes with the rules (once, when minigrad is imported)."""
    flag, data, grad, version = Tensor.requires_grad, Tensor.data, Tensor.grad, Tensor._version
    Tensor.requires_grad_ = _checked_flag_method(Tensor.requires_grad_)
    Tensor.requires_grad = property(flag.fget, _checked_flag_setter(flag.fset), _refuse_delete_flag, flag.__doc__)
    Tensor.data = property(data.fget, _checked_data_setter(data.fset), _refuse_delete_data, data.__doc__)
    Tensor.grad = property(grad.fget, grad.fset, _delete_grad, grad.__doc__)
    Tensor._version = property(_checked_version(version.fget), None, None, version.__doc__)
