"""``torch.autograd.gradcheck``: compare backward's gradients with finite differences.

For each input that requires grad and each of its elements, nudge the element by
``±eps`` and watch every output move: ``(f(x + eps) - f(x - eps)) / 2eps`` is one
column of the *numerical* Jacobian. The *analytical* Jacobian comes from backward,
one row per output element (``autograd.grad`` seeded with a one-hot vector). They must
agree to ``atol + rtol * |numerical|``. Use float64 inputs: in float32 the rounding
error of the finite differences is larger than the tolerance.

``gradgradcheck`` does the same for the gradient itself, as a function of the inputs
and of the vector backward is seeded with, so it checks the backward of backward
(``create_graph=True``).
"""
import warnings

import numpy as np

from ..creation import tensor, zeros_like
from ..random import randn_like
from ..tensor import Tensor
from . import forward_ad, grad

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """What ``gradcheck`` raises when the gradients disagree."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """True when backward's Jacobian of ``func`` at ``inputs`` matches the finite differences,
    and with ``check_forward_ad=True`` forward mode's too (column by column, with dual tensors).

    On a mismatch, raise ``GradcheckError`` naming the output and input (or return False
    with ``raise_exception=False``). The batched options are accepted and must stay off.
    """
    if check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("minigrad's gradcheck has no batched checks")
    try:
        checked = _check(func, inputs, eps, atol, rtol, nondet_tol) if check_backward_ad else True
        return checked and (not check_forward_ad or _check_forward(func, inputs, eps, atol, rtol))
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _check(func, inputs, eps, atol, rtol, nondet_tol):
    inputs = _as_tuple(inputs)
    differentiable = _inputs_to_check(inputs)
    outputs = _as_tuple(func(*inputs))
    numerical = _numerical_jacobians(func, inputs, differentiable, outputs, eps)
    checked = [(out, [n[i] for n in numerical]) for i, out in enumerate(outputs)
               if _is_tensor(out) and out.requires_grad]
    if not checked:  # no output has history: then nothing may depend on the inputs
        if any(np.any(column != 0) for per_input in numerical for column in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    for i, (out, expected) in enumerate(checked):  # numbered among the outputs with history, as PyTorch does
        analytical, again = _analytical_jacobians(out, differentiable), _analytical_jacobians(out, differentiable)
        if any(np.abs(a - b).max(initial=0) > nondet_tol for a, b in zip(analytical, again)):
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times "
                "gives different values, although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}."
            )
        for j, (a, n) in enumerate(zip(analytical, expected)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise GradcheckError(
                    f"Jacobian mismatch for output {i:d} with respect to input {j:d},\n"
                    f"numerical:{_show(n, out)}\nanalytical:{_show(a, differentiable[j])}\n"
                )
    return True


def _check_forward(func, inputs, eps, atol, rtol):
    """Forward mode's Jacobian, one column per input element (a unit tangent), against the numerical one."""
    inputs = _as_tuple(inputs)
    differentiable = _inputs_to_check(inputs)
    outputs = _as_tuple(func(*inputs))
    numerical = _numerical_jacobians(func, inputs, differentiable, outputs, eps)
    for j, x in enumerate(differentiable):
        for k in range(x._array.size):
            with forward_ad.dual_level():
                duals = [_dual(a, a is x, k) if any(a is d for d in differentiable) else a for a in inputs]
                tangents = [forward_ad.unpack_dual(out).tangent for out in _as_tuple(func(*duals))]
            for i, (out, tangent) in enumerate(zip(outputs, tangents)):
                if not _is_tensor(out):
                    continue
                column = np.zeros(out._array.size) if tangent is None else tangent._array.reshape(-1)
                if not np.allclose(column, numerical[j][i][k], rtol=rtol, atol=atol):
                    raise GradcheckError(
                        f"Jacobian computed with forward mode mismatch for output {i:d} with respect to input {j:d},"
                        f"\nnumerical:{_show(numerical[j][i], out)}\nanalytical (column {k}):{column}\n"
                    )
    return True


def _dual(x, is_unit, k):
    """``x`` as a dual tensor whose tangent is 0, or the k-th unit vector."""
    tangent = np.zeros_like(x._array)
    if is_unit:
        tangent.reshape(-1)[k] = 1
    return forward_ad.make_dual(x.detach(), Tensor._wrap(tangent))


def _is_tensor(x):
    return isinstance(x, Tensor)


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    return tuple(x) if isinstance(x, list) else (x,)


def _inputs_to_check(inputs):
    """The inputs that require grad, with PyTorch's warning for those that are not float64."""
    found = []
    for index, x in enumerate(inputs):
        if _is_tensor(x) and x.requires_grad:
            if x.dtype.name != "float64":
                warnings.warn(
                    f"Input #{index} requires gradient and is not a double precision floating point or complex. "
                    "This check will likely fail if all the inputs are not of double precision floating point or "
                    "complex. ",
                    UserWarning,
                    stacklevel=4,
                )
            array = x._array
            if any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape)):
                raise RuntimeError(
                    f"The {index}th input has a dimension with stride 0. gradcheck only supports inputs that are "
                    "non-overlapping to be able to compute the numerical gradients correctly. You should call "
                    ".contiguous on the input before passing it to gradcheck."
                )
            found.append(x)
    if not found:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them have "
            "requires_grad=True."
        )
    return found


def _numerical_jacobians(func, inputs, differentiable, outputs, eps):
    """For each input checked, one matrix per output: rows are the input's elements,
    columns the output's, as PyTorch lays them out (and prints them)."""
    jacobians = []
    for x in differentiable:
        flat = x._array.reshape(-1)  # the input's own memory: func sees each nudge
        columns = []
        for k in range(flat.size):
            original = flat[k]
            flat[k] = original - eps
            below = [_values(out) for out in _as_tuple(func(*inputs))]  # copies: an output may be a view of x
            flat[k] = original + eps
            above = [_values(out) for out in _as_tuple(func(*inputs))]
            flat[k] = original
            columns.append([(b - a).reshape(-1) / (2 * eps) for a, b in zip(below, above)])
        jacobians.append([
            np.stack([column[i] for column in columns]) if columns else np.zeros((0, _size(out)))
            for i, out in enumerate(outputs)
        ])
    return jacobians


def _values(out):
    return np.array(out._array if _is_tensor(out) else out, dtype=np.float64)


def _size(out):
    return out._array.size if _is_tensor(out) else 1


def _analytical_jacobians(out, differentiable):
    """backward's Jacobian of ``out``, one matrix per input, laid out like the numerical ones."""
    rows = [[] for _ in differentiable]
    seed = zeros_like(out)
    for k in range(out.numel()):
        seed._array.reshape(-1)[:] = 0
        seed._array.reshape(-1)[k] = 1
        grads = grad(out, differentiable, seed, retain_graph=True, allow_unused=True)
        for row, g, x in zip(rows, grads, differentiable):
            row.append(np.zeros(x._array.size) if g is None else np.asarray(g._array, dtype=np.float64).reshape(-1))
    return [np.stack(row, axis=1) if row else np.zeros((x._array.size, 0)) for row, x in zip(rows, differentiable)]


def _show(matrix, like):
    """A Jacobian printed as PyTorch prints it: a tensor of ``like``'s dtype."""
    return repr(tensor(matrix, dtype=like.dtype))


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0, check_undefined_grad=True,
                  check_grad_dtypes=False, check_batched_grad=False, check_fwd_over_rev=False,
                  check_rev_over_rev=True, fast_mode=False, masked=False):
    """``gradcheck`` of backward itself: of ``(inputs, v) -> vᵀ·J``, which needs the graph
    of the backward pass (``create_graph=True``) to be right."""
    inputs = _as_tuple(inputs)
    outputs = [out for out in _as_tuple(func(*inputs)) if _is_tensor(out) and out.requires_grad]
    if grad_outputs is None:
        grad_outputs = tuple(randn_like(out, requires_grad=True) for out in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(inputs)
    checked = [x for x in inputs if _is_tensor(x) and x.requires_grad]

    def first_gradients(*values):
        outs = [out for out in _as_tuple(func(*values[:count])) if _is_tensor(out) and out.requires_grad]
        differentiable = [x for x in values[:count] if _is_tensor(x) and x.requires_grad]
        return grad(outs, differentiable, values[count:], create_graph=True, allow_unused=True,
                    materialize_grads=True) if checked else ()

    return gradcheck(first_gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)
