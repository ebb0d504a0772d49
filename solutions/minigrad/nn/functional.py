"""``torch.nn.functional``: activations and losses built on minigrad's operations.

Losses PyTorch implements as one fused kernel get one node here too, so the graph
shows the same ``grad_fn`` names; binary cross-entropy with logits, whose backward
is exercise 2.8, has a module of its own (``logits_loss``).
"""
import warnings

import numpy as np

from .. import dtypes, random
from ..autograd.graph import Node, recorded
from ..autograd.node_kinds import Operands
from ..autograd.saved_tensor import SavedTensor
from ..ops import arithmetic, comparison, linalg, pointwise, views
from ..ops._operands import compute, dispatch
from ..ops.views import _dim
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor
from .convolution import adaptive_avg_pool2d, avg_pool2d, conv2d, max_pool2d  # noqa: F401
from ._loss_parts import _REDUCTIONS, _maybe_saved, _numel, _reduce, _reduction, legacy_reduction  # noqa: F401
from .logits_loss import BinaryCrossEntropyWithLogitsBackward0, binary_cross_entropy_with_logits  # noqa: F401
from .softmax import LogSoftmaxBackward0, SoftmaxBackward0, log_softmax, softmax  # noqa: F401
from .activations import GeluBackward0, HardtanhBackward0, LeakyReluBackward0, SiluBackward0  # noqa: F401
from .activations import gelu, hardtanh, leaky_relu, silu  # noqa: F401
from .normalization import NativeLayerNormBackward0, layer_norm  # noqa: F401
from .sparse import EmbeddingBackward0, embedding  # noqa: F401
from .regression_losses import ConstantPadNdBackward0, SmoothL1LossBackward0  # noqa: F401
from .regression_losses import l1_loss, pad, smooth_l1_loss  # noqa: F401

relu = pointwise.relu
sigmoid = pointwise.sigmoid
tanh = pointwise.tanh


# ---------------------------------------------------------------- linear


class AddmmBackward0(Node):
    """out = self + mat1 @ mat2 in one node: ``nn.Linear``'s bias + x @ weight.t()."""

    __slots__ = ("self_shape",)
    saved_names = ("mat1", "mat2")

    def __init__(self, mat1, mat2, self_shape):
        self._saved = (SavedTensor(mat1), SavedTensor(mat2))
        self.self_shape = self_shape

    def backward(self, grad):
        """The bias's gradient (summed back to its shape: it was added to every row), then the
        product's, by step 2.4's rule (``linalg.product_gradients``). mat2's comes from the
        transposed product, outᵀ = mat2ᵀ @ mat1ᵀ, transposed back: with ``nn.Linear``'s
        weight.t() as mat2, weight.grad is then contiguous, as in PyTorch (and BLAS is faster so)."""
        mat1, mat2 = self.saved_tensors
        need_self, need_mat1, need_mat2 = self.needs_input_grad
        grad_self = sum_to(grad, self.self_shape) if need_self else None
        grad_mat1 = linalg.product_gradients(grad, mat1, mat2, need_mat1, False)[0]
        transposed = linalg.product_gradients(_t(grad), _t(mat2), _t(mat1), need_mat2, False)[0]
        return grad_self, grad_mat1, (_t(transposed) if transposed is not None else None)


_t = linalg._transpose


def _addmm(bias, mat1, mat2):
    a, b = mat1._array, mat2._array
    if b.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {b.ndim}-D tensor")
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {dtypes.scalar_type_name(a.dtype)} and "
            f"{dtypes.scalar_type_name(b.dtype)}"
        )
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    value = a @ b
    value += bias._array  # in place: no second array of the output's size
    return recorded(Tensor._wrap(value), (bias, mat1, mat2), AddmmBackward0, mat1, mat2, bias._array.shape)


def linear(input, weight, bias=None):
    """x @ weight.t() + bias, recorded with the nodes PyTorch records.

    A matrix input with a bias gives one ``AddmmBackward0`` whose inputs are
    (bias, x, weight.t()). Other contiguous inputs with a bias are flattened to a
    matrix first and viewed back after (``ViewBackward0`` on both sides); a
    non-contiguous one goes through ``matmul``, and the bias is added to the product
    in place (``AddBackward0``). Without a bias it is ``matmul``, with its nodes.
    """
    x = input._array
    if x.ndim == 0 or weight._array.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {x.ndim}D and {weight._array.ndim}D"
        )
    weight_t = views.t(weight)
    if bias is None:
        return linalg.matmul(input, weight_t)
    if x.ndim == 2:
        return _addmm(bias, input, weight_t)
    if not x.flags.c_contiguous:
        return linalg.matmul(input, weight_t).add_(bias)
    flat = _addmm(bias, views.reshape(input, (-1, x.shape[-1])), weight_t)
    return views.reshape(flat, x.shape[:-1] + flat._array.shape[1:])


# ---------------------------------------------------------------- losses


class MseLossBackward0(Node):
    """d/dx (x - y)² = 2 (x - y); the target gets the opposite; a mean divides by n."""

    saved_names = ("self", "target", "reduction")

    def __init__(self, input, target, reduction):
        self._saved = (SavedTensor(input), SavedTensor(target), reduction)

    def backward(self, grad):
        x, y, reduction = self.saved_tensors
        need_x, need_y = self.needs_input_grad
        local = 2 * (x - y)
        if reduction == _REDUCTIONS["mean"]:
            local = local / _numel(local)
        g = grad * local
        return (sum_to(g, x.shape) if need_x else None, sum_to(-g, y.shape) if need_y else None)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The mean (or sum) of the squared differences (x - y)²."""
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). This will "
            "likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            stacklevel=2,
        )
    reduction = _reduction(reduction, size_average, reduce)
    diff = compute(np.subtract, input._array, target._array)  # PyTorch's error if the shapes do not broadcast
    out = Tensor._wrap(_reduce(diff * diff, reduction))
    return recorded(out, (input, target), MseLossBackward0, input, target, _REDUCTIONS[reduction])


class BinaryCrossEntropyBackward0(Node):
    """d/dp of -[y log p + (1 - y) log(1 - p)] = (p - y) / (p (1 - p)), kept finite near 0 and 1."""

    saved_names = ("self", "target", "weight", "reduction")

    def __init__(self, input, target, weight, reduction):
        self._saved = (SavedTensor(input), SavedTensor(target), _maybe_saved(weight), reduction)

    def backward(self, grad):
        p, y, weight, reduction = self.saved_tensors
        need_p, need_y = self.needs_input_grad
        # Weights and the mean counted as step 2.8 counts them (its ``scaled``, set on the logits loss's node).
        scale = BinaryCrossEntropyWithLogitsBackward0.scaled(grad, weight, reduction, p)
        return (
            scale * (p - y) / _at_least((1 - p) * p, _BCE_EPSILON) if need_p else None,
            scale * (_log(1 - p) - _log(p)) if need_y else None,
        )


_BCE_EPSILON = 1e-12  # PyTorch's floor for p (1 - p) in the gradient


def _log(x):
    return dispatch(x, np.log, pointwise.log)


def _at_least(x, low):
    return dispatch(x, lambda a: np.maximum(a, low), lambda t: pointwise.clamp(t, min=low))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-[y log p + (1 - y) log(1 - p)] for probabilities p; each log is clamped at -100, as in PyTorch."""
    reduction = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size."
        )
    p, y = input._array, target._array
    if np.any((p < 0) | (p > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if np.any((y < 0) | (y > 1)):
        raise RuntimeError("all elements of target should be between 0 and 1")
    with np.errstate(divide="ignore"):  # log(0) = -inf, clamped to -100
        loss = (y - 1) * np.maximum(np.log1p(-p), -100) - y * np.maximum(np.log(p), -100)
    if weight is not None:
        loss = loss * weight._array
    out = Tensor._wrap(_reduce(loss.astype(p.dtype, copy=False), reduction))
    return recorded(out, (input, target), BinaryCrossEntropyBackward0, input, target, weight, _REDUCTIONS[reduction])


class NllLossBackward0(Node):
    """-x[i, t_i] for each row: only the picked element gets a gradient, -w[t_i] (over Σ w for a mean)."""

    saved_names = ("self", "target", "weight", "total_weight", "ignore_index", "reduction")

    def __init__(self, input, target, weight, total_weight, ignore_index, reduction):
        saved = (SavedTensor(input), SavedTensor(target), _maybe_saved(weight), Tensor._wrap(total_weight))
        self._saved = saved + (ignore_index, reduction)

    def backward(self, grad):
        x, target, weight, total_weight, ignore_index, reduction = [_array_of(v) for v in self.saved_tensors]
        target = target.reshape(x.shape[:-1])
        index, picked = _picked_weights(target, weight, ignore_index, x.dtype)
        scale = -picked
        if reduction == _REDUCTIONS["mean"]:
            with np.errstate(invalid="ignore", divide="ignore"):  # a total weight of 0: nan, as in PyTorch
                scale = np.where(target != ignore_index, scale / total_weight, 0)  # but ignored rows get 0
        local = np.zeros(x.shape, x.dtype)
        np.put_along_axis(local, index[..., None], scale[..., None], axis=-1)
        if reduction == _REDUCTIONS["none"]:
            grad = grad.reshape(x.shape[:-1] + (1,))  # one loss per row: each row's grad to its row
        return grad * local


def _array_of(x):
    """The array of a tensor; anything else as it is. NLL's index arithmetic is plain numpy."""
    return x._array if isinstance(x, Tensor) else x


def _picked_weights(target, weight, ignore_index, dtype):
    """Each row's class index (0 where ignored) and the weight of that class (0 where ignored)."""
    kept = target != ignore_index
    index = np.where(kept, target, 0)
    picked = kept if weight is None else np.where(kept, weight[index], 0)
    return index, picked.astype(dtype)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """The negative log-likelihood -x[i, t_i] of each row's target class, given log-probabilities x.

    Takes (C,) or (N, C) inputs with int64 class indices; ``ignore_index`` rows count for nothing.
    """
    reduction = _reduction(reduction, size_average, reduce)
    x, t = input._array, target._array
    _check_nll_arguments(x, t, weight, ignore_index)
    index, picked = _picked_weights(t.reshape(x.shape[:-1]), _array_of(weight), ignore_index, x.dtype)
    losses = -picked * np.take_along_axis(x, index[..., None], axis=-1)[..., 0]
    total_weight = picked.sum(dtype=x.dtype)
    if reduction == "none":
        value = losses
    elif reduction == "sum":
        value = losses.sum(dtype=x.dtype)
    else:
        with np.errstate(invalid="ignore"):  # every row ignored: 0/0 = nan, silently, as in PyTorch
            value = losses.sum(dtype=x.dtype) / total_weight
    saved = (input, target, weight, total_weight, ignore_index, _REDUCTIONS[reduction])
    return recorded(Tensor._wrap(value), (input,), NllLossBackward0, *saved)


def _check_nll_arguments(x, t, weight, ignore_index):
    """PyTorch's checks, in its order, with its messages."""
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim > 2:
        raise NotImplementedError("minigrad's nll_loss takes (C,) or (N, C) inputs")
    batch = t.shape[0] if t.ndim else 0
    if x.ndim == 2 and x.shape[0] != batch:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({batch}).")
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {dtypes.scalar_type_name(t.dtype)}")
    if x.ndim == 1 and t.size != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {t.size}")
    n_classes = x.shape[-1]
    if weight is not None and weight.shape != (n_classes,):
        raise RuntimeError(
            f"weight tensor should be defined either for all {n_classes} classes or no classes but got weight "
            f"tensor of shape: {list(weight.shape)}"
        )
    bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
    if np.any(bad):
        raise IndexError(f"Target {t[bad].flat[0]} is out of bounds.")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """The cross-entropy between softmax(input) over the classes (dim 1, or 0 for one sample) and the target.

    A target shaped like the input holds class probabilities (see ``_cross_entropy_soft``).
    Otherwise it holds class indices: log_softmax, then nll_loss, two nodes as PyTorch
    records them. Label smoothing ε trains towards (1 - ε) · target + ε · uniform, which
    for indices adds ε times the loss against a uniform target (``_uniform_target_loss``).
    """
    reduction = _reduction(reduction, size_average, reduce)
    if input.shape == target.shape:
        return _cross_entropy_soft(input, target, weight, ignore_index, reduction, label_smoothing)
    _check_smoothing(label_smoothing)
    dim = 0 if input.ndim == 1 else 1
    log_p = log_softmax(input, dim)
    loss = nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return loss
    uniform = _uniform_target_loss(log_p, target, weight, ignore_index, reduction, dim)
    return loss * (1 - label_smoothing) + uniform * (label_smoothing / log_p.shape[dim])


def _check_smoothing(label_smoothing):
    if label_smoothing > 1:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")


def _class_weights(weight, dim, ndim):
    """The class weights shaped to multiply an input whose classes lie along ``dim``."""
    return weight if ndim == 1 else views.reshape(weight, (1, -1) + (1,) * (ndim - 2))


def _uniform_target_loss(log_p, target, weight, ignore_index, reduction, dim):
    """-Σ_c w_c log p_c for each sample (0 for an ignored one), reduced as nll_loss reduces,
    so that the two losses mix: a mean divides by the total weight of the kept samples' classes."""
    scores = log_p if weight is None else log_p * _class_weights(weight, dim, log_p.ndim)
    losses = -scores.sum(dim)
    kept = target._array != ignore_index
    if reduction == "none":
        return comparison.where(Tensor._wrap(kept), losses, 0.0)
    # Pick the kept samples rather than zero the others: with a total weight of 0 the mean is
    # nan and its gradient infinite, and an ignored sample must still get a gradient of 0.
    total = losses.reshape(-1)[np.flatnonzero(kept)].sum()
    if reduction == "sum":
        return total
    total_weight = kept.sum() if weight is None else weight._array[target._array[kept]].sum()
    return _divide_by_number(total, total_weight)


def _cross_entropy_soft(input, target, weight, ignore_index, reduction, label_smoothing):
    """-Σ_c w_c y_c log p_c per sample, for class probabilities y shaped like the input.

    As in PyTorch, the mean sums over every element, then divides by the number of
    samples (``DivBackward1``); the target gets a gradient too.
    """
    if target._array.dtype.kind != "f":
        raise RuntimeError(
            "Expected floating point type for target with class probabilities, got "
            f"{dtypes.scalar_type_name(target._array.dtype)}"
        )
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    dim = 0 if input.ndim == 1 else 1
    n_classes = input.shape[dim]
    if weight is not None and tuple(weight.shape) != (n_classes,):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no classes but "
            f"got weight tensor of shape: {list(weight.shape)}"
        )
    if label_smoothing > 0:
        _check_smoothing(label_smoothing)
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    scores = log_softmax(input, dim) * target
    if weight is not None:
        scores = scores * _class_weights(weight, dim, input.ndim)
    if reduction == "none":
        return -scores.sum(dim)
    total = scores.sum()
    if reduction == "sum":
        return -total
    if input._array.size == 0:
        return -total.fill_(float("nan"))  # no samples: PyTorch's nan
    return _divide_by_number(-total, input._array.size // n_classes)


class DivBackward1(Node):
    """out = self / other for a number ``other``."""

    saved_names = ("other",)

    def backward(self, grad):
        """``self``'s gradient, by step 1.6's rule for a quotient (``DivBackward0``)."""
        (other,) = self._saved
        operands = Operands((None, other), (True, False), (grad.shape, ()))
        with np.errstate(divide="ignore", invalid="ignore"):
            return arithmetic.DivBackward0.backward(operands, grad)[0]


def _divide_by_number(input, number):
    """``input / number``; dividing by 0 gives inf or nan without a warning, as in PyTorch."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = input._array / input._array.dtype.type(number)
    return recorded(Tensor._wrap(value), (input,), DivBackward1, number)


# ---------------------------------------------------------------- dropout


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the survivors by 1/(1-p), when training.

    The mask is drawn as PyTorch draws it on the CPU (a float64 uniform < 1-p keeps an
    element), so a seeded run drops the same elements. The result is ``input * mask``
    (``MulBackward0``), written into ``input`` itself with ``inplace``.
    """
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    x = input._array
    if p == 1:
        mask = Tensor._wrap(np.zeros((), x.dtype))
    else:
        mask = random.bernoulli_(Tensor._wrap(np.empty(x.shape, x.dtype)), 1 - p)
        mask._array /= 1 - p
    return input.mul_(mask) if inplace else arithmetic.mul(input, mask)


def one_hot(tensor, num_classes=-1):
    """Each int64 class index as a row of zeros with a 1 at that index (int64, one more dimension).
    ``num_classes=-1`` takes one more than the largest index."""
    indices = tensor._array
    if indices.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if indices.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(indices.max()) + 1
    if indices.size and indices.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if indices.size and indices.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._wrap((indices[..., None] == np.arange(num_classes)).astype(np.int64))
