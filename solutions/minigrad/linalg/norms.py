"""``torch.linalg``'s norms: ``vector_norm`` of any order, ``matrix_norm`` (Frobenius), and ``norm``,
which picks one of the two by its arguments as PyTorch does.

A Frobenius norm is the 2-norm of a matrix's elements, so every norm here is recorded as
PyTorch records it, one ``LinalgVectorNormBackward0`` node (``ops/statistics.py``).
"""
import numpy as np

from ..dtypes import scalar_type_name
from ..autograd.graph import recorded
from ..ops.reductions import _dims
from ..ops.statistics import LinalgVectorNormBackward0
from ..tensor import Tensor

_INF = float("inf")


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - PyTorch's names
    """(sum |x|^ord)^(1/ord) over ``dim`` (every element when None); ord inf and -inf are the largest
    and smallest |x|, ord 0 counts the elements that are not 0."""
    if isinstance(ord, str):
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str")
    if dtype is not None:
        x = x.to(dtype)
    array = x._array
    if array.dtype.kind != "f":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {scalar_type_name(array.dtype)}"
        )
    dims = None if dim is None else _dims(dim, array.ndim)
    out = Tensor._wrap(np.asarray(_vector_norm(array, ord, dims, keepdim), dtype=array.dtype))
    return recorded(out, (x,), LinalgVectorNormBackward0, dims, keepdim, ord, x, out)


def _vector_norm(array, ord, axes, keepdim):
    magnitude = np.abs(array)
    if ord == 2:
        return np.sqrt((array * array).sum(axis=axes, keepdims=keepdim))
    if ord == _INF:
        return magnitude.max(axis=axes, keepdims=keepdim)
    if ord == -_INF:
        return magnitude.min(axis=axes, keepdims=keepdim)
    if ord == 0:
        return (array != 0).sum(axis=axes, keepdims=keepdim)
    return (magnitude**ord).sum(axis=axes, keepdims=keepdim) ** (1.0 / ord)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002, N803 - PyTorch's names
    """The norm of each matrix over the two dimensions ``dim``: minigrad has the Frobenius one."""
    ndim = A._array.ndim
    if ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    if ord != "fro":
        raise NotImplementedError(f"minigrad's linalg.matrix_norm computes the Frobenius norm ('fro') only, not {ord!r}")
    return vector_norm(A, 2, dims, keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002, N803 - PyTorch's names
    """A vector norm or a matrix norm, as PyTorch chooses: without ``ord``, the 2-norm of the elements
    over ``dim`` (all of them when None); with ``ord``, a vector norm over one dimension or a matrix
    norm over two (a string ``ord`` is a matrix norm's), the input's own when ``dim`` is None."""
    ndim = A._array.ndim
    dims = None if dim is None else tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    if ord is None:
        if dims is not None and len(dims) == 2:
            return matrix_norm(A, "fro", dims, keepdim, dtype=dtype)
        return vector_norm(A, 2, dims, keepdim, dtype=dtype)
    if dims is None:
        if ndim not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {ndim}D.")
        dims = tuple(range(ndim))
    if isinstance(ord, str) or len(dims) == 2:
        return matrix_norm(A, ord, dims if len(dims) == 2 else (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, ord, dims, keepdim, dtype=dtype)
