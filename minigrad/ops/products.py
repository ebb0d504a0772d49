"""``prod``: the product of all elements, or of each slice along one dimension.

Each element's derivative is the product of the others; without zeros that is the
product over the element itself, and with zeros it is built without dividing.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..creation import eye
from ..public_names import public
from ..tensor import Tensor
from .reductions import _axes, _dims
from .selection import masked_fill
from .statistics import _kept


def _product_of_others(x, result, dim):
    """For each element of ``x``, the product of the other elements of its slice along
    ``dim`` (``result`` is the slice's product, shaped to broadcast against ``x``).

    Without zeros that is ``result / x``. A zero makes the division useless (its own
    entry would be 0/0), so then the product is built from both sides instead: the
    running product of the elements before each one times that of the elements after
    it, which never divides. PyTorch takes the same two paths, so ``inf`` and ``nan``
    inputs give the same answers as there.
    """
    values = x._array if isinstance(x, Tensor) else x
    if not (values == 0).any():
        return result / x
    if isinstance(x, Tensor):  # create_graph: computed with recorded operations
        return _product_of_others_recorded(x, dim)
    before = _exclusive_cumprod(x, dim)
    after = np.flip(_exclusive_cumprod(np.flip(x, dim), dim), dim)
    return before * after


def _exclusive_cumprod(array, axis):
    """The running product along ``axis`` of the elements strictly before each one (1 first)."""
    first = np.ones_like(array.take([0], axis=axis))
    shifted = np.concatenate([first, array.take(range(array.shape[axis] - 1), axis=axis)], axis=axis)
    return np.multiply.accumulate(shifted, axis=axis)  # the ufunc itself: its nan warnings are minigrad's, silenced


def _product_of_others_recorded(x, dim):
    """The same products as tensors whose graph is recorded, for a second derivative.

    A new dimension after ``dim`` repeats each slice once per element; in the copy for
    element i, element i is replaced by 1, and the product over the copy is what the
    others multiply to. It costs n times the memory, which only higher-order gradients pay.
    """
    n = x.shape[dim]
    repeated = x.unsqueeze(dim).expand(*x.shape[:dim], n, *x.shape[dim:])
    diagonal = eye(n, dtype=dtypes.bool).reshape((n, n) + (1,) * (x.dim() - dim - 1))
    return masked_fill(repeated, diagonal, 1.0).prod(dim + 1)


class ProdBackward0(Node):
    """d(x0 * x1 * ... ) / dxi: the product of all the other elements."""

    __slots__ = ()
    saved_names = ("self", "result")

    def __init__(self, input, result):
        self._saved = (SavedTensor(input), SavedTensor(result, is_output=True))

    def backward(self, grad):
        self_, result = self.saved_tensors
        if not self_.shape:
            return grad
        flat = self_.reshape(-1)
        return (grad * _product_of_others(flat, result, 0)).reshape(self_.shape)


class ProdBackward1(Node):
    """``prod(dim)``: in each slice, every element gets the product of the others in that slice."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "result", "self")

    def __init__(self, dim, keepdim, result, input):
        self._saved = (dim, keepdim, SavedTensor(result, is_output=True), SavedTensor(input))

    def backward(self, grad):
        dim, keepdim, result, self_ = self.saved_tensors
        if not self_.shape:
            return grad
        shape = self_.shape
        others = _product_of_others(self_, _kept(result, shape, (dim,), keepdim), dim)
        return _kept(grad, shape, (dim,), keepdim) * others


@public("prod", methods="prod")
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """The product of all elements, or along one ``dim``; integers and bools give int64, as in PyTorch."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(
            f"prod() received an invalid combination of arguments - got ({type(dim).__name__}), but expected one of:\n"
            " * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
        )
    array = input._array if dtype is None else input._array.astype(dtype.numpy)
    result_dtype = np.int64 if array.dtype.kind in "biu" else array.dtype
    if dim is None:
        out = Tensor._wrap(np.asarray(np.multiply.reduce(array, axis=None, dtype=result_dtype)))
        return recorded(out, (input,), ProdBackward0, input, out)
    (d,) = _dims(dim, array.ndim)
    product = np.multiply.reduce(array, axis=_axes((d,), array.ndim), dtype=result_dtype, keepdims=keepdim)
    out = Tensor._wrap(np.asarray(product))
    return recorded(out, (input,), ProdBackward1, d, keepdim, out, input)
