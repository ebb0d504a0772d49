"""Inverting square matrices: ``inv``, ``det`` and ``solve``, each on a matrix or a batch of them.

Their gradients, from d(A^-1) = -A^-1 dA A^-1 (``^-T`` is the transposed inverse):
- ``inv``: grad_A = -A^-T grad A^-T.
- ``det``: d det = det tr(A^-1 dA), so grad_A = grad det A^-T, the cofactor matrix times grad. The
  cofactors exist for a singular A too: numpy's backward takes them from an SVD, which needs no inverse.
- ``solve`` (X = A^-1 B): grad_B = A^-T grad (one more solve), grad_A = -grad_B X^T.
Under ``create_graph`` each is written with recorded operations (``inv``, ``solve``, ``@``).
"""
import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import SavesResult
from ..autograd.saved_tensor import SavedTensor
from ..dtypes import scalar_type_name
from ..ops.linalg import _transpose
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor


class LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a matrix that cannot be inverted (a RuntimeError, as in PyTorch)."""


def _check_square(name, array):
    """PyTorch's checks on the matrices a function inverts."""
    if array.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if array.shape[-1] != array.shape[-2]:
        rows, columns = array.shape[-2:]
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {rows} by {columns} matrices")
    if array.dtype.kind != "f":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got {scalar_type_name(array.dtype)}"
        )


def _zero_pivot(matrix):
    """The 1-based column of the first pivot that is exactly 0 in an LU factorization with partial
    pivoting (LAPACK's, which PyTorch names in its error), or 0 if there is none."""
    a = np.array(matrix, dtype=np.float64)
    for k in range(len(a)):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        if a[p, k] == 0:
            return k + 1
        a[[k, p]] = a[[p, k]]
        a[k + 1:] -= np.outer(a[k + 1:, k] / a[k, k], a[k])
    return 0


def _singular(array):
    """PyTorch's error for inverting the singular matrix (of a batch, the first one) in ``array``."""
    n = array.shape[-1]
    for b, matrix in enumerate(array.reshape(-1, n, n)):
        pivot = _zero_pivot(matrix)
        if pivot:
            batch = f"(Batch element {b}): " if array.ndim > 2 else ""
            return LinAlgError(
                f"linalg.inv: {batch}The diagonal element {pivot} is zero, the inversion could not be completed "
                "because the input matrix is singular."
            )
    return LinAlgError("linalg.inv: The inversion could not be completed because the input matrix is singular.")


class LinalgInvExBackward0(SavesResult):
    """out = A^-1: grad_A = -A^-T grad A^-T (the node keeps the inverse)."""

    __slots__ = ()
    saved_names = ("inverse",)

    def backward(self, grad):
        (inverse,) = self.saved_tensors
        transposed = _transpose(inverse)
        return -(transposed @ grad @ transposed)


@public("inverse", methods="inverse")
def inv(A):  # noqa: N803 - PyTorch's name
    """The inverse of a square matrix, or of each one of a batch."""
    array = A._array
    _check_square("linalg.inv", array)
    try:
        value = np.linalg.inv(array)
    except np.linalg.LinAlgError:
        raise _singular(array) from None
    out = Tensor._wrap(value.astype(array.dtype, copy=False))
    return recorded(out, (A,), LinalgInvExBackward0, out)


class LinalgDetBackward0(Node):
    """out = det(A): grad_A = grad times A's cofactor matrix, det A^-T."""

    __slots__ = ()
    saved_names = ("A", "result")

    def __init__(self, A, result):  # noqa: N803 - PyTorch's name
        self._saved = (SavedTensor(A), SavedTensor(result, is_output=True))

    def backward(self, grad):
        A, det = self.saved_tensors
        if isinstance(A, Tensor):  # create_graph: recorded, through inv (so A must not be singular)
            return (grad * det).reshape(tuple(det.shape) + (1, 1)) * _transpose(inv(A))
        return grad[..., None, None] * _cofactors(A)


def _cofactors(a):
    """The cofactor matrix det(A) A^-T of each matrix of ``a``, from its SVD A = U S V^T, for singular
    matrices too: adj(A) = det(U) det(V) V adj(S) U^T, with adj(S)_ii the product of the other singular values."""
    u, s, vh = np.linalg.svd(a)
    n = s.shape[-1]
    others = np.prod(np.where(np.eye(n, dtype=bool), 1, s[..., None, :]), axis=-1)
    sign = np.linalg.det(u) * np.linalg.det(vh)
    return (sign[..., None, None] * (u * others[..., None, :]) @ vh).astype(a.dtype, copy=False)


@public("det", methods="det")
def det(A):  # noqa: N803 - PyTorch's name
    """The determinant of a square matrix, or of each one of a batch."""
    array = A._array
    _check_square("linalg.det", array)
    out = Tensor._wrap(np.asarray(np.linalg.det(array), dtype=array.dtype))
    return recorded(out, (A,), LinalgDetBackward0, A, out)


class LinalgSolveExBackward0(Node):
    """out X = A^-1 B: grad_B = A^-T grad, grad_A = -grad_B X^T (B and X one column each when B is a vector)."""

    __slots__ = ("vector", "shapes")
    saved_names = ("A", "left", "result")

    def __init__(self, A, result, vector, shapes):  # noqa: N803 - PyTorch's name
        self._saved = (SavedTensor(A), True, SavedTensor(result, is_output=True))
        self.vector, self.shapes = vector, shapes

    def backward(self, grad):
        A, _, X = self.saved_tensors
        a_shape, b_shape = self.shapes
        if self.vector:
            grad, X = _column(grad), _column(X)
        grad_b = _solved(_transpose(A), grad)
        grad_a = sum_to(-(grad_b @ _transpose(X)), a_shape) if self.needs_input_grad[0] else None
        if self.vector:
            grad_b = grad_b.reshape(tuple(grad_b.shape[:-1]))
        return grad_a, sum_to(grad_b, b_shape)


def _column(x):
    """A vector, or each one of a batch, as a one-column matrix (an array or a tensor)."""
    return x.reshape(tuple(x.shape) + (1,))


def _solved(a, b):
    """A^-1 B for arrays, or recorded for tensors (create_graph)."""
    if isinstance(a, Tensor):
        return solve(a, b if isinstance(b, Tensor) else Tensor._wrap(b))
    return np.linalg.solve(a, b)


def solve(A, B, *, left=True):  # noqa: N803 - PyTorch's names
    """X with A X = B, for a matrix or a batch of them; B is a vector (or a batch of vectors) when it has
    one dimension, or one fewer than A with A's batch shape, as PyTorch reads it."""
    if not left:
        raise NotImplementedError("minigrad's linalg.solve solves A X = B only (left=True)")
    a, b = A._array, B._array
    _check_square("linalg.solve", a)
    if a.dtype != b.dtype:
        raise RuntimeError(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{scalar_type_name(a.dtype)} and B of type {scalar_type_name(b.dtype)} instead"
        )
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    rhs = b[..., None] if vector else b
    if rhs.shape[-2] != a.shape[-1]:
        n, (rows, columns) = a.shape[-1], rhs.shape[-2:]
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B ({n}x{n} and {rows}x{columns})"
        )
    try:
        value = np.linalg.solve(a, rhs)
    except np.linalg.LinAlgError:
        batch = "(Batch element 0): " if a.ndim > 2 else ""
        raise LinAlgError(f"torch.linalg.solve: {batch}The solver failed because the input matrix is singular.") from None
    out = Tensor._wrap(value[..., 0] if vector else value)
    return recorded(out, (A, B), LinalgSolveExBackward0, A, out, vector, (a.shape, b.shape))
