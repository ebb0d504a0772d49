"""The spread and size of values: ``var``, ``std``, ``var_mean``, ``std_mean``, ``norm``.

A variance's gradient is 2 (x - mean) / (n - correction): the mean's own change
cancels out, since the deviations sum to zero. A norm's is x / ||x||.
"""
import builtins
import warnings

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..tensor import Tensor
from ._operands import dispatch
from .reductions import _axes, _dims, _expand, _kept_shape, mean


def _kept(value, shape, dims, keepdim):
    """A reduced result (or its gradient) with its reduced dimensions back as 1s, so it
    broadcasts against the input; already so with ``keepdim``."""
    return value if keepdim else value.reshape(_kept_shape(shape, dims))



def _centered(x, dims):
    """``x`` minus its mean over ``dims`` (kept as 1s), for an array or a tensor."""
    return x - dispatch(x, lambda a: a.mean(axis=dims, keepdims=True), lambda t: t.mean(dims, keepdim=True))


def _reduced_count(shape, dims):
    """How many elements each output of a reduction over ``dims`` gathers."""
    count = 1
    for d in dims:
        count *= shape[d] if shape else 1
    return count


def _degrees_of_freedom(shape, dims, correction):
    """n - correction, never below 0: PyTorch divides by this (0 gives ``inf`` or ``nan``)."""
    return builtins.max(0, _reduced_count(shape, dims) - (1 if correction is None else correction))


class _SpreadNode(Node):
    """The nodes of ``var`` and ``std``, alone or with the mean: made with the reduction's
    arguments, its input and its result, they keep the result only where their backward
    uses it (``std``'s, which names it last in ``saved_names``)."""

    __slots__ = ()

    def __init__(self, correction, dim, keepdim, input, result):
        saved = (correction, dim, keepdim, SavedTensor(input))
        if len(self.saved_names) == 5:
            saved += (SavedTensor(result, is_output=True),)
        self._saved = saved


class VarBackward0(_SpreadNode):
    """d var / dxi = 2 (xi - mean) / (n - correction): the mean's own change cancels out,
    since the deviations sum to zero."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self")

    def backward(self, grad):
        correction, dim, keepdim, self_ = self.saved_tensors
        dims = _all_dims(self_.shape, dim)
        return _var_backward(self_, _kept(grad, self_.shape, dims, keepdim), dims, correction)


class StdBackward0(_SpreadNode):
    """std = sqrt(var): d std = d var / (2 std); where std is 0 the gradient is 0, not 0/0."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self", "result")

    def backward(self, grad):
        correction, dim, keepdim, self_, result = self.saved_tensors
        dims = _all_dims(self_.shape, dim)
        grad, result = _kept(grad, self_.shape, dims, keepdim), _kept(result, self_.shape, dims, keepdim)
        grad_var = grad / (2 * result + (result == 0)) * (result != 0)
        return _var_backward(self_, grad_var, dims, correction)


class VarMeanBackward0(_SpreadNode):
    """``var_mean``: one node, two outputs; each output's gradient goes back by its own rule."""

    __slots__ = ()
    _num_outputs = 2
    saved_names = ("correction", "dim", "keepdim", "self")

    def backward(self, grad_var, grad_mean):
        correction, dim, keepdim, self_ = self.saved_tensors[:4]
        dims = _all_dims(self_.shape, dim)
        grad = 0
        if grad_var is not None:
            grad = _var_backward(self_, _kept(grad_var, self_.shape, dims, keepdim), dims, correction)
        if grad_mean is not None:
            spread = _kept(grad_mean, self_.shape, dims, keepdim) / _reduced_count(self_.shape, dims)
            grad = grad + _expand(spread, self_.shape)
        return grad

    def _output_meta(self, nr):
        return self._shape, self._dtype


class StdMeanBackward0(VarMeanBackward0):
    """``std_mean``: the standard deviation's gradient is the variance's, over 2 std."""

    __slots__ = ()
    saved_names = ("correction", "dim", "keepdim", "self", "result0")

    def backward(self, grad_std, grad_mean):
        std = self.saved_tensors[4]
        if grad_std is not None:
            grad_std = grad_std / (2 * std + (std == 0)) * (std != 0)
        return VarMeanBackward0.backward(self, grad_std, grad_mean)


def _var_backward(self_, grad, dims, correction):
    """The variance's gradient, for ``grad`` already shaped to broadcast against ``self_``.

    With no degrees of freedom left PyTorch's factor is 2/0 = inf, so the gradient is
    inf * 0 = nan; a Python float division would raise instead, hence the explicit inf.
    """
    dof = _degrees_of_freedom(self_.shape, dims, correction)
    scale = 2.0 / dof if dof else float("inf")
    return grad * scale * _centered(self_, _axes(dims, len(self_.shape)))


def _all_dims(shape, dim):
    """The dimensions a variance reduces: ``None`` and ``()`` both mean all of them."""
    return tuple(range(len(shape))) if not dim else dim


class LinalgVectorNormBackward0(Node):
    """d ||x||_2 / dx = x / ||x||_2 (zero where the norm is zero); other orders in ``_other_order``."""

    __slots__ = ()
    saved_names = ("dim", "keepdim", "ord", "self", "result")

    def __init__(self, dim, keepdim, ord, input, result):
        self._saved = (dim, keepdim, ord, SavedTensor(input), SavedTensor(result, is_output=True))

    def backward(self, grad):
        dims, keepdim, ord, self_, result = self.saved_tensors
        if not keepdim and dims is not None:
            kept = _kept_shape(self_.shape, dims)
            grad, result = grad.reshape(kept), result.reshape(kept)
        if ord != 2:
            return _other_order(grad, self_, result, ord, _all_dims(self_.shape, dims))
        scale = result + (result == 0)  # avoid 0/0: the gradient there is 0
        return grad * self_ / scale


def _other_order(grad, x, norm, ord, dims):
    """The gradient of ``vector_norm(x, ord)`` for an ``ord`` other than 2, as PyTorch writes it: ties of
    the largest (smallest) |x| share an inf (-inf) norm's gradient; an ord-0 norm counts, and has none
    (None: PyTorch leaves the input's ``.grad`` None)."""
    if ord == 0:
        return None
    sign = dispatch(x, np.sign, lambda t: t.sign())
    if ord in (float("inf"), float("-inf")):
        ties = abs(x) == norm
        count = dispatch(ties, lambda m: m.sum(axis=dims, keepdims=True), lambda m: m.sum(dims, keepdim=True))
        return sign * ties * (grad / count)
    magnitude = abs(x)
    if ord < 1:  # |x|^(ord - 1) is infinite at 0, where PyTorch puts 0
        power = (magnitude + (magnitude == 0)) ** (ord - 1) * (magnitude != 0)
    else:
        power = magnitude ** (ord - 1)
    scale = grad / (norm + (norm == 0)) ** (ord - 1) * (norm != 0)  # no gradient where the norm is 0
    return sign * power * scale


_NO_DIM = type("NoDim", (), {"__repr__": lambda self: "None", "__doc__": "``dim`` was not given at all."})()


@public("var", methods="var")
def var(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """The variance: the mean squared deviation from the mean, divided by n - correction.

    PyTorch accepts ``var(unbiased)``, ``var(dim, unbiased, keepdim)`` and
    ``var(dim, *, correction, keepdim)``; ``unbiased`` is the old spelling of
    ``correction`` 1 (True) or 0 (False). ``dim`` None or ``()`` means every dimension.
    """
    return _spread("var", VarBackward0, input, dim, unbiased, keepdim, correction)


@public("std", methods="std")
def std(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """The standard deviation: the square root of ``var`` (same arguments)."""
    return _spread("std", StdBackward0, input, dim, unbiased, keepdim, correction)


@public("var_mean")
def var_mean(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)`` over the same dimensions, the outputs of one node."""
    return _with_mean(var, VarMeanBackward0, input, dim, unbiased, keepdim, correction)


@public("std_mean")
def std_mean(input, dim=_NO_DIM, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)`` over the same dimensions, the outputs of one node."""
    return _with_mean(std, StdMeanBackward0, input, dim, unbiased, keepdim, correction)


def _with_mean(spread, node_class, input, dim, unbiased, keepdim, correction):
    detached = Tensor._wrap(input._array)
    first = spread(detached, dim, unbiased, keepdim, correction=correction)
    dims = None if dim is _NO_DIM or dim is None else _dims(dim, input._array.ndim)
    second = mean(detached, _all_dims(input._array.shape, dims), keepdim)
    recorded(first, (input,), node_class, _saved_correction(dim, unbiased, correction), dims, keepdim, input, first)
    if first.grad_fn is not None:  # the mean is the same node's second output
        second.grad_fn, second._output_nr, second._requires_grad = first.grad_fn, 1, True
    return first, second


def _spread(name, node_class, input, dim, unbiased, keepdim, correction):
    """``var`` or ``std``: the arguments read as PyTorch reads them, then the reduction."""
    if isinstance(dim, builtins.bool):  # ``x.var(False)``: the one positional argument is ``unbiased``
        dim, unbiased = _NO_DIM, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got both unbiased and correction")
    saved_correction = _saved_correction(dim, unbiased, correction)
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims = None if dim is _NO_DIM or dim is None else _dims(dim, array.ndim)
    if dims is not None and len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    reduced = _all_dims(array.shape, dims)
    axes = _axes(reduced, array.ndim)
    dof = _degrees_of_freedom(array.shape, reduced, saved_correction)
    if dof == 0:
        warnings.warn(_NO_DOF.format(name), UserWarning, stacklevel=3)
    deviations = array - array.sum(axis=axes, keepdims=True) / _reduced_count(array.shape, reduced)
    squares = (deviations * deviations).sum(axis=axes, keepdims=keepdim)
    value = squares / dof if dof else squares / np.zeros((), array.dtype)  # x/0: inf or nan, silently
    if name == "std":
        value = np.sqrt(value)
    out = Tensor._wrap(np.asarray(value, dtype=array.dtype))
    return recorded(out, (input,), node_class, saved_correction, dims, keepdim, input, out)


def _saved_correction(dim, unbiased, correction):
    """The correction as PyTorch's node shows it: None when nothing chose it, except that
    naming ``dim`` (even as None) picks the signature whose ``unbiased`` defaults to True."""
    if correction is not None:
        return correction
    if unbiased is not None:
        return builtins.int(unbiased)
    return None if dim is _NO_DIM else 1


_NO_DOF = (
    "{}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel "
    "divided by output numel). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)"
)


@public("norm", methods="norm")
def norm(input, p="fro", dim=None, keepdim=False):
    """The 2-norm (``p=2`` or ``"fro"``) over all elements or over ``dim``."""
    if p not in (2, "fro", 2.0):
        raise NotImplementedError("minigrad's norm computes the 2-norm only")
    array = input._array
    dims = None if dim is None else _dims(dim, array.ndim)
    out = Tensor._wrap(np.sqrt((array * array).sum(axis=dims, keepdims=keepdim, dtype=array.dtype)))
    return recorded(out, (input,), LinalgVectorNormBackward0, dims, keepdim, 2, input, out)
