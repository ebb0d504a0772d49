"""``torch.linalg``: norms, and the inverse, determinant and solution of square systems, with their gradients.

``import minigrad as torch`` makes this ``torch.linalg``, as ``torch.nn`` is ``minigrad.nn``.
"""
from .inverse import LinAlgError, det, inv, solve
from .norms import matrix_norm, norm, vector_norm

__all__ = ["LinAlgError", "det", "inv", "matrix_norm", "norm", "solve", "vector_norm"]
