"""``nn.Parameter``: a tensor a Module trains (in a module of its own, where PyTorch has it:
``type(p)`` prints ``<class 'minigrad.nn.parameter.Parameter'>``, PyTorch's path in minigrad's package)."""
from ..creation import INTEGER_GRAD, empty
from ..tensor import Tensor


class Parameter(Tensor):
    """A tensor that a Module registers as one of its parameters (a leaf that requires grad).

    It shares memory and version counter with ``data``, as PyTorch's does: the
    parameter *is* that storage, seen as something to train.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        shared = data.detach()
        if requires_grad and not shared.is_floating_point():
            raise RuntimeError(INTEGER_GRAD)
        param = cls._wrap(shared._array, requires_grad)
        param._version_counter = shared._version_counter
        return param

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()
