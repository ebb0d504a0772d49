"""``torch.autograd.Variable``: what tensors were before PyTorch 0.4 merged the two.

Old code still writes ``Variable(x, requires_grad=True)``. It now makes a tensor: the
same data, cut off from any graph, requiring grad as asked; and every tensor counts as
an instance of ``Variable``, as in PyTorch.
"""
import warnings

from ..creation import INTEGER_GRAD, empty
from ..tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data`` detached, requiring grad if asked."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn(
                "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                UserWarning,
                stacklevel=2,
            )
        if data is None:
            data = empty(0)
        elif not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(INTEGER_GRAD)
        out = data.detach()
        out._requires_grad = bool(requires_grad)
        return out
