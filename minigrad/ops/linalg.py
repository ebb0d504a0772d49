"""Matrix products. ``matmul`` picks the product by the operands' dimensions, as
PyTorch does, so its graph shows the same nodes: ``MmBackward0`` for two matrices,
``MvBackward0`` for a matrix and a vector, ``DotBackward0`` for two vectors, and for a
vector times a matrix an unsqueeze, a matrix product, and a squeeze.
"""
import numpy as np

from ..autograd.graph import Node, SavedTensor, record, should_record
from ..tensor import Tensor
from ._operands import promoted
from .views import SqueezeBackward4, squeeze, unsqueeze


def _transpose(x):
    """The matrix transpose of an array or a tensor."""
    return x.T if isinstance(x, (np.ndarray, np.generic)) else x.t()


def _outer(a, b):
    return np.outer(a, b) if isinstance(a, (np.ndarray, np.generic)) else a.unsqueeze(1) @ b.unsqueeze(0)


class MmBackward0(Node):
    """out = self @ mat2: d/d(self) = grad @ mat2.T, d/d(mat2) = self.T @ grad."""

    saved_names = ("self", "mat2")

    def backward(self, grad):
        self_, mat2 = self.saved_tensors
        need_self, need_mat2 = self.needs_input_grad
        raise NotImplementedError("step 2.4: your code goes here (see the chapter's exercise)")


class MvBackward0(Node):
    """out = self @ vec (matrix times vector)."""

    saved_names = ("self", "vec")

    def backward(self, grad):
        self_, vec = self.saved_tensors
        need_self, need_vec = self.needs_input_grad
        return (_outer(grad, vec) if need_self else None, _transpose(self_) @ grad if need_vec else None)


class DotBackward0(Node):
    """out = self . tensor (two vectors)."""

    saved_names = ("self", "tensor")

    def backward(self, grad):
        self_, other = self.saved_tensors
        return grad * other, grad * self_


class MatmulBackward0(Node):
    """Batched products of 3 or more dimensions, with the batch dimensions broadcast."""

    __slots__ = ("self_shape", "other_shape")
    saved_names = ("self", "other")

    def backward(self, grad):
        from ..shape import sum_to

        self_, other = self.saved_tensors
        swap = lambda x: np.swapaxes(x, -1, -2) if isinstance(x, (np.ndarray, np.generic)) else x.transpose(-1, -2)  # noqa: E731
        return sum_to(grad @ swap(other), self.self_shape), sum_to(swap(self_) @ grad, self.other_shape)


def _product(node_type, input, other, value):
    out = Tensor._wrap(value)
    if should_record(input, other):
        node = node_type(SavedTensor(input), SavedTensor(other))
        if node_type is MatmulBackward0:
            node.self_shape, node.other_shape = input._array.shape, other._array.shape
        record(out, node, input, other)
    return out


def mm(input, mat2):
    a, b = promoted(input, mat2)
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"{'self' if a.ndim != 2 else 'mat2'} must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    return _product(MmBackward0, input, mat2, a @ b)


def mv(input, vec):
    a, b = promoted(input, vec)
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})")
    return _product(MvBackward0, input, vec, a @ b)


def dot(input, other):
    a, b = promoted(input, other)
    if a.shape != b.shape:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.size}] and src [{b.size}] to have the same number of "
            f"elements, but got {a.size} and {b.size} elements respectively"
        )
    return _product(DotBackward0, input, other, np.dot(a, b))


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
        return squeeze(mm(unsqueeze(input, 0), other), (0,), _node=SqueezeBackward4)
    if da == 2 and db == 2:
        return mm(input, other)
    a, b = promoted(input, other)
    return _product(MatmulBackward0, input, other, np.matmul(a, b))
