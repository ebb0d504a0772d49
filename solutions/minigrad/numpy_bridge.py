"""A tensor's numbers handed to numpy: ``Tensor.numpy()`` and ``np.asarray(tensor)``.

The array handed out is the tensor's own, outside the graph: what numpy computes with it is never recorded.
So, as PyTorch does, a tensor that requires grad is refused while grad mode is on (``detach()`` first);
under ``no_grad`` nothing would be recorded anyway, and it is handed out.
"""
from .autograd import grad_mode
from .public_names import public


@public(methods="numpy")
def numpy(self, force=False):
    if self._requires_grad and not force and grad_mode._enabled:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    return self._array


@public(methods="__array__")
def __array__(self, dtype=None, copy=None):
    array = numpy(self)
    return array if dtype is None else array.astype(dtype)
