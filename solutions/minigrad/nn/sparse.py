"""Embeddings: ``F.embedding`` and ``nn.Embedding``, a table of vectors looked up by index.

A lookup is a gather of rows, recorded as one node (``EmbeddingBackward0``, as PyTorch records it);
its backward is exercise 7.1 (``rules/chapter7.py``).
"""
import numpy as np

from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, recorded
from ..creation import empty
from ..tensor import Tensor
from . import init
from .module import Module
from .parameter import Parameter


class EmbeddingBackward0(Node):
    """out = weight[indices]: keeps the indices, the padding row (-1 for none) and the table's number of rows.
    Its ``backward`` is set by ``rules/__init__.py`` (exercise 7.1)."""

    saved_names = ("indices", "padding_idx", "weight_sym_argsize_0")

    def __init__(self, indices, padding_idx, num_weights):
        self._saved = (indices, padding_idx, num_weights)


def _padding_index(padding_idx, num_embeddings):
    """``padding_idx`` counted from 0 (a negative one from the end), checked as PyTorch checks it."""
    if padding_idx is None:
        return -1
    if padding_idx > 0 and padding_idx >= num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    if padding_idx < 0:
        if padding_idx < -num_embeddings:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx += num_embeddings
    return padding_idx


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    """The rows of ``weight`` picked by the int64 (or int32) ``input``, of any shape: the result has
    the input's shape with the embedding dimension added last."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("minigrad's embedding has no max_norm, scale_grad_by_freq or sparse")
    index = input._array
    if index.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
            f"but got {input.type()} instead (while checking arguments for embedding)"
        )
    table = weight._array
    if index.size and (index.min() < 0 or index.max() >= table.shape[0]):
        raise IndexError("index out of range in self")
    padding = _padding_index(padding_idx, table.shape[0])
    out = Tensor._wrap(table[index])
    return recorded(out, (weight,), EmbeddingBackward0, input, padding, table.shape[0])


class Embedding(Module):
    """A table of ``num_embeddings`` vectors of ``embedding_dim`` numbers, drawn from N(0, 1) as
    PyTorch draws them; the ``padding_idx`` row starts at zero and is never trained."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = None if padding_idx is None else _padding_index(padding_idx, num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), device=device, dtype=dtype),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        for name, default in (("padding_idx", None), ("max_norm", None), ("norm_type", 2),
                              ("scale_grad_by_freq", False), ("sparse", False)):
            if getattr(self, name) != default:
                text += f", {name}={getattr(self, name)}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose table is ``embeddings`` (2-D), frozen unless ``freeze=False``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   _weight=embeddings, _freeze=freeze)
