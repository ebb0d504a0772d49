"""Matrix products. ``matmul`` picks the product by the operands' dimensions, as
PyTorch does, so its graph shows the same nodes:

- two vectors: ``DotBackward0``; a matrix and a vector: ``MvBackward0``;
- two matrices: ``MmBackward0``; a vector and a matrix: unsqueeze, ``MmBackward0``, squeeze;
- a batch of matrices and a matrix or vector: the batch is folded into one tall matrix
  (``ViewBackward0``), multiplied (``MmBackward0`` or ``MvBackward0``), and unfolded
  (``UnsafeViewBackward0``); so is a vector or matrix that requires grad times a batch,
  through transposes: ``a @ b`` is ``(b.mT @ a.mT).mT``;
- otherwise, batches on both sides: the batch dimensions are broadcast
  (``ExpandBackward0``), flattened into one (``ViewBackward0``), multiplied batch by
  batch (``BmmBackward0``), and unflattened (``UnsafeViewBackward0``).

PyTorch multiplies only operands of one dtype: ``float32 @ float64`` is an error.
"""
import numpy as np

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import Operands
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from ._operands import broadcast_mismatch, dispatch
from .arithmetic import mul
from .copies import clone
from .views import SqueezeBackward4, _unsafe_view, expand, reshape, squeeze, t, transpose, unsqueeze


def _transpose(x):
    """The transpose of a matrix, array or tensor; of a batch of matrices, each one's (the last two
    dimensions swapped)."""
    return dispatch(x, lambda a: np.swapaxes(a, -1, -2), lambda t: t.t() if t.ndim == 2 else t.transpose(-1, -2))


def product_gradients(grad, a, b, need_a=True, need_b=True):
    """The gradients for ``a`` and ``b`` of ``a @ b`` (matrices, or batches of them), by step 2.4's rule:
    the other products (a batch of them, matrix times vector, two vectors, ``addmm``) hand their factors
    over as matrices, so that the rule of a product is written once."""
    return MmBackward0.backward(Operands((a, b), (need_a, need_b)), grad)


def _column(x):
    """A vector as a one-column matrix, an array or a tensor."""
    return x.reshape(-1, 1)


class _ProductNode(Node):
    """A product of two tensors keeps both: each one's gradient is made with the other."""

    __slots__ = ()

    def __init__(self, input, other):
        saved_other = SavedTensor(other)  # first, as PyTorch saves it (pack hooks see that order)
        self._saved = (SavedTensor(input), saved_other)


class MmBackward0(_ProductNode):
    """out = self @ mat2, a matrix product: self (m, k), mat2 (k, n), out (m, n)."""

    __slots__ = ()
    saved_names = ("self", "mat2")


class MvBackward0(_ProductNode):
    """out = self @ vec, a matrix (m, k) times a vector (k,): the matrix product of self and vec as a
    column, whose gradients are step 2.4's."""

    __slots__ = ()
    saved_names = ("self", "vec")

    def backward(self, grad):
        self_, vec = self.saved_tensors
        grad_self, grad_vec = product_gradients(_column(grad), self_, _column(vec), *self.needs_input_grad)
        return grad_self, (grad_vec.reshape(-1) if grad_vec is not None else None)


class DotBackward0(_ProductNode):
    """out = self . tensor, two vectors (k,): the matrix product of self as a row and tensor as a
    column, whose gradients are step 2.4's."""

    __slots__ = ()
    saved_names = ("self", "tensor")

    def backward(self, grad):
        self_, other = self.saved_tensors
        row = self_.reshape(1, -1)
        grads = product_gradients(grad.reshape(1, 1), row, _column(other), *self.needs_input_grad)
        return tuple(g.reshape(-1) if g is not None else None for g in grads)


class BmmBackward0(_ProductNode):
    """out[b] = self[b] @ mat2[b] for each b: step 2.4's rule, which ``@`` and ``_transpose`` apply to
    every matrix of a batch at once."""

    __slots__ = ()
    saved_names = ("self", "mat2")

    def backward(self, grad):
        self_, mat2 = self.saved_tensors
        return product_gradients(grad, self_, mat2, *self.needs_input_grad)


def _product(node_type, input, other, value):
    return recorded(Tensor._wrap(value), (input, other), node_type, input, other)


@public("mm", methods="mm")
def mm(input, mat2):
    a, b = input._array, mat2._array
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"{'self' if a.ndim != 2 else 'mat2'} must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{dtypes.c_type_name(a.dtype)} != {dtypes.c_type_name(b.dtype)}"
        )
    return _product(MmBackward0, input, mat2, a @ b)


@public("mv", methods="mv")
def mv(input, vec):
    a, b = input._array, vec._array
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})"
        )
    if a.dtype != b.dtype:
        vec_name, mat_name = dtypes.scalar_type_name(b.dtype), dtypes.scalar_type_name(a.dtype)
        raise RuntimeError(
            f"addmv input tensors must have the same dtype, but got {vec_name}, {mat_name}, and {vec_name}"
        )
    return _product(MvBackward0, input, vec, a @ b)


@public("dot", methods="dot")
def dot(input, other):
    a, b = input._array, other._array
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape != b.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have the same number of "
            f"elements, but got {a.size} and {b.size} elements respectively"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{dtypes.scalar_type_name(a.dtype)} and {dtypes.scalar_type_name(b.dtype)}"
        )
    return _product(DotBackward0, input, other, np.dot(a, b))


@public("bmm", methods="bmm")
def bmm(input, mat2):
    """A batch of matrix products: ``input[b] @ mat2[b]`` for every ``b``."""
    a, b = input._array, mat2._array
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch{'1' if a.ndim != 3 else '2'} must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"expected scalar type {dtypes.scalar_type_name(a.dtype)} but found {dtypes.scalar_type_name(b.dtype)}"
        )
    return _product(BmmBackward0, input, mat2, np.matmul(a, b))


@public("matmul", methods="matmul __matmul__")
def matmul(input, other):
    """The product PyTorch's ``matmul`` would compute, recorded with the same nodes."""
    da, db = input._array.ndim, other._array.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        return squeeze(mm(unsqueeze(input, 0), other), 0, _node=SqueezeBackward4)  # PyTorch saves dim 0 there
    if da == 2 and db == 2:
        return mm(input, other)
    if db <= 2:
        return _folded_matmul(input, other)
    if da <= 2 and input.requires_grad:
        return _transposed_folded_matmul(input, other)
    return _batched_matmul(input, other)


def _folded_matmul(input, other):
    """A batch of matrices times one matrix or vector: one tall matrix product."""
    shape = input._array.shape
    tall = reshape(input, (-1, shape[-1]))
    product = mm(tall, other) if other._array.ndim == 2 else mv(tall, other)
    return _unsafe_view(product, shape[:-1] + product._array.shape[1:])


def _transposed_folded_matmul(input, other):
    """A vector or matrix times a batch, as PyTorch does it when the first one requires grad
    (sparing it a gradient per batch element): ``(other.mT @ input.mT).mT``."""
    flipped = _folded_matmul(transpose(other, -1, -2), t(input) if input._array.ndim == 2 else input)
    if input._array.ndim == 1:
        return flipped
    product = transpose(flipped, -1, -2)
    return product if product.is_contiguous() else clone(product)


def _batched_matmul(input, other):
    """Batches on both sides (a lone vector or matrix counts as a batch of one)."""
    a, b = input._array.shape, other._array.shape
    rows = a[-2] if len(a) > 1 else 1
    batch_a, batch_b = a[:-2], b[:-2]
    mismatch = broadcast_mismatch(batch_a, batch_b)
    if mismatch is not None:
        raise RuntimeError(mismatch)
    batch = np.broadcast_shapes(batch_a, batch_b)
    count = int(np.prod(batch))
    left = reshape(expand(input, batch + (rows, a[-1])), (count, rows, a[-1]))
    right = reshape(expand(other, batch + b[-2:]), (count,) + b[-2:])
    product = bmm(left, right)
    return _unsafe_view(product, batch + ((rows,) if len(a) > 1 else ()) + (b[-1],))


@public("outer ger", methods="outer ger")
def outer(input, vec2):
    """``input[i] * vec2[j]``: recorded as PyTorch records it, a column view of ``input``
    (``ViewBackward0``) times ``vec2`` broadcast (``MulBackward0``); dtypes promote as in ``*``."""
    for name, vector in (("self", input), ("vec2", vec2)):
        if vector._array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector._array.ndim}-D")
    return mul(reshape(input, (input._array.shape[0], 1)), vec2)


@public(methods="__rmatmul__")
def rmatmul(input, other):
    """``array @ x``: ``other @ input``."""
    return matmul(other, input)
