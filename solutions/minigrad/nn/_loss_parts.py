"""What the losses share: the reduction a loss was asked for, and how it is applied.

PyTorch saves a loss's reduction in its node as a number (``_saved_reduction``):
0 for ``"none"``, 1 for ``"mean"``, 2 for ``"sum"``.
"""
import warnings

from ..autograd.saved_tensor import SavedTensor

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction, size_average=None, reduce=None):
    """The reduction to apply: ``reduction``, unless a deprecated flag is given."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def legacy_reduction(size_average, reduce):
    """The reduction meant by the flags losses took before ``reduction`` existed (PyTorch < 0.4.1)."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    reduction = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn(
        f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.", stacklevel=3
    )
    return reduction


def _reduce(values, reduction):
    if reduction == "mean":
        return values.mean(dtype=values.dtype)
    if reduction == "sum":
        return values.sum(dtype=values.dtype)
    return values


def _numel(x):
    """How many elements ``x`` has (an array or a tensor)."""
    n = 1
    for d in x.shape:
        n *= d
    return n


def _maybe_saved(x):
    return None if x is None else SavedTensor(x)
