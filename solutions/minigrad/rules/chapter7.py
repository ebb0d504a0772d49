"""Chapter 7's backward rules, the four a transformer needs that no earlier chapter wrote: the lookup table
(7.1), layer normalisation (7.2), the causal mask (7.3) and GELU (7.4).

Each rule is a node's ``backward``, as in chapters 1 and 2: it receives the node (what the forward saved) and the
gradient of the output, and returns one gradient per input. While the engine runs, the gradient and the saved
values are numpy arrays; under ``create_graph=True`` they are tensors, and the rule's own operations are recorded.
``RULES``, at the end, tells ``rules/__init__.py`` which node each belongs to.

第 7 章的反向传播规则，是 Transformer 需要而前面各章都没有写过的四条：查找表（7.1）、层归一化（7.2）、因果掩码（7.3）
和 GELU（7.4）。

与第 1、2 章一样，每条规则都是一个节点的 ``backward``：接收节点（前向保存的值）和输出的梯度，为每个输入返回一个梯度。
引擎运行时，梯度和保存的值都是 numpy 数组；``create_graph=True`` 时它们是张量，规则自己的运算也会被记录下来。文件末尾的
``RULES`` 告诉 ``rules/__init__.py`` 每条规则属于哪个节点。
"""
import numpy as np

from ..creation import zeros
from ..nn.activations import _INV_SQRT_2PI, _SQRT_HALF, _TANH_CUBE, _TANH_SCALE, GeluBackward0
from ..nn.normalization import NativeLayerNormBackward0, _mean, _sum
from ..nn.sparse import EmbeddingBackward0
from ..ops import indexing, pointwise, special
from ..ops._operands import dispatch
from ..ops.selection import MaskedFillBackward0, MaskedFillBackward1, _zero_where
from ..tensor import Tensor


# EmbeddingBackward0 (nn/sparse.py): out = weight[indices], the rows of a table of num_weights rows picked by an
# int64 tensor of indices of any shape; out has the indices' shape with the row's length (dim) added last.
def embedding_backward(self, grad):
    """The gradient for the table ``weight``, of its shape ``(num_weights, dim)``, for ``grad`` of out's shape
    ``(*indices.shape, dim)``. ``indices`` is the saved int64 tensor (``indices._array`` is its array);
    ``padding_idx`` is the padding row, counted from 0, or -1 when there is none: that row of the answer is
    always 0. A row no index picked gets 0. An array for an array ``grad``; a tensor for a tensor ``grad``
    (create_graph), made with operations (``indexing.index_add``, ``*``) so that its graph is recorded.
    With num_weights = 3, indices = [2, 0], no padding and grad = [[1, 2], [3, 4]]: [[3, 4], [0, 0], [1, 2]].

    对表 ``weight`` 的梯度，形状与它相同，为 ``(num_weights, dim)``；``grad`` 的形状与 out 相同，为
    ``(*indices.shape, dim)``。``indices`` 是保存的 int64 张量（``indices._array`` 是它的数组）；``padding_idx``
    是填充行的编号（从 0 数起），没有填充行时为 -1：答案的这一行总是 0。没有被任何索引选中的行得到 0。``grad``
    是数组时返回数组；``grad`` 是张量时（create_graph）返回张量，要用运算（``indexing.index_add``、``*``）得出，
    这样它的计算图才会被记录。num_weights = 3、indices = [2, 0]、没有填充行、grad = [[1, 2], [3, 4]] 时：
    [[3, 4], [0, 0], [1, 2]]。
    """
    indices, padding_idx, num_weights = self._saved
    flat = indices._array.reshape(-1)  # the indices, one row of grad.reshape(-1, dim) for each
    dim = grad.shape[-1]
    # BEGIN SOLUTION 7.1
    if isinstance(grad, Tensor):  # under create_graph: the same sums, as operations
        kept = Tensor._wrap((flat != padding_idx).astype(grad._array.dtype)[:, None])
        rows = grad.reshape(-1, dim) * kept
        return indexing.index_add(zeros(num_weights, dim, dtype=grad.dtype), 0, Tensor._wrap(flat), rows)
    table = np.zeros((num_weights, dim), grad.dtype)
    np.add.at(table, flat, grad.reshape(-1, dim))
    if padding_idx >= 0:
        table[padding_idx] = 0
    return table
    # END SOLUTION


# NativeLayerNormBackward0 (nn/normalization.py): each slice of x over its last len(shape) dimensions (the
# normalised ones, ``dims``; the others are ``leading``) is brought to mean 0 and variance 1, then
# out = x̂ · weight + bias, x̂ = (x - mean) · rstd, rstd = 1 / √(var + eps), weight and bias of shape ``shape``.
def layer_norm_backward(self, grad):
    """``(grad_x, grad_weight, grad_bias)`` for ``grad`` of x's shape: grad_x of x's shape, grad_weight and
    grad_bias of the normalised ``shape``, each None unless ``needs_input_grad`` asks for it (weight and bias
    are None when the layer has none). ``mean`` and ``rstd`` are the forward's statistics, of x's shape with
    the normalised dimensions kept as 1s (arrays). Under create_graph (x a tensor), compute them again from x
    with operations (``x.mean``, ``x.var(..., unbiased=False)``, ``sqrt``, ``reciprocal``), so that a second
    derivative sees how they depend on x. Each slice of grad_x sums to 0. ``_mean`` and ``_sum`` (given) take
    means and sums with the dimensions kept or dropped, for arrays and tensors. With x = [1, 2, 3], no weight,
    and grad = [1, 0, 0]: grad_x ≈ [0.2041, -0.4082, 0.2041].

    对形状与 x 相同的 ``grad``，返回 ``(grad_x, grad_weight, grad_bias)``：grad_x 的形状与 x 相同，grad_weight 和
    grad_bias 的形状是被归一化的 ``shape``；``needs_input_grad`` 不要求的为 None（层没有 weight、bias 时它们是
    None）。``mean`` 和 ``rstd`` 是前向算出的统计量（数组），形状与 x 相同，只是被归一化的各维保留为 1。
    create_graph 时（x 是张量），要用运算（``x.mean``、``x.var(..., unbiased=False)``、``sqrt``、``reciprocal``）
    从 x 重新算出它们，这样二阶导数才看得到它们怎样依赖于 x。grad_x 的每一片之和为 0。``_mean`` 和 ``_sum``
    （已提供）对数组和张量求平均、求和，分别保留或去掉这些维度。x = [1, 2, 3]、没有 weight、grad = [1, 0, 0] 时：
    grad_x ≈ [0.2041, -0.4082, 0.2041]。
    """
    x, shape, mean, rstd, weight, _, eps = self.saved_tensors
    need_x, need_weight, need_bias = self.needs_input_grad
    dims = tuple(range(x.ndim - len(shape), x.ndim))  # the normalised dimensions
    leading = tuple(range(x.ndim - len(shape)))  # the others
    # BEGIN SOLUTION 7.2
    if isinstance(x, Tensor):
        mean = x.mean(dims, keepdim=True)
        rstd = (x.var(dims, keepdim=True, unbiased=False) + eps).sqrt().reciprocal()
    x_hat = (x - mean) * rstd
    g = grad * weight if weight is not None else grad  # the affine scale, when there is one
    grad_x = rstd * (g - _mean(g, dims) - x_hat * _mean(g * x_hat, dims)) if need_x else None
    grad_weight = _sum(grad * x_hat, leading) if need_weight else None
    grad_bias = _sum(grad, leading) if need_bias else None
    return grad_x, grad_weight, grad_bias
    # END SOLUTION


# MaskedFillBackward0 (ops/selection.py): out = x.masked_fill(mask, value) for a number value: out is x's copy
# with value wherever the bool mask (broadcast against x) is True.
def masked_fill_backward(self, grad):
    """The gradient for x, of out's shape (where the mask broadcast x to a larger shape, the engine sums it back
    to x's). ``mask`` is the saved bool mask (an array; a tensor under create_graph). ``_zero_where(values, where)``
    (given) is ``values`` with 0 where the bool ``where`` is True, for arrays and tensors. With mask = [False, True]
    and grad = [5, 7]: [5, 0].

    对 x 的梯度，形状与 out 相同（掩码把 x 广播成更大的形状时，引擎会把它求和回 x 的形状）。``mask`` 是保存的布尔
    掩码（数组；create_graph 时是张量）。``_zero_where(values, where)``（已提供）返回在布尔值 ``where`` 为 True
    处置 0 的 ``values``，对数组和张量都适用。mask = [False, True]、grad = [5, 7] 时：[5, 0]。
    """
    (mask,) = self.saved_tensors
    # BEGIN SOLUTION 7.3
    return _zero_where(grad, mask)
    # END SOLUTION


# MaskedFillBackward1 (ops/selection.py): the same, with value a 0-dim tensor: an input of the graph too.
def masked_fill_value_backward(self, grad):
    """``(grad_x, grad_value)``: grad_x as for MaskedFillBackward0, grad_value of value's shape (0-dim: a number
    in an array, or a 0-dim tensor), each None unless ``needs_input_grad`` asks for it. ``~mask`` flips a
    tensor mask, ``np.logical_not(mask)`` an array. With mask = [True, False, True] and grad = [1, 2, 4]: the
    gradient for x is [0, 2, 0], and value's is 5.

    ``(grad_x, grad_value)``：grad_x 与 MaskedFillBackward0 的相同；grad_value 的形状与 value 相同（0 维：数组里的
    一个数，或 0 维张量）；``needs_input_grad`` 不要求的为 None。``~mask`` 对张量掩码取反，``np.logical_not(mask)``
    对数组取反。mask = [True, False, True]、grad = [1, 2, 4] 时：x 的梯度是 [0, 2, 0]，value 的梯度是 5。
    """
    (mask,) = self.saved_tensors
    need_x, need_value = self.needs_input_grad
    # BEGIN SOLUTION 7.3
    grad_x = _zero_where(grad, mask) if need_x else None
    grad_value = None
    if need_value:
        inverted = ~mask if isinstance(mask, Tensor) else np.logical_not(mask)
        grad_value = _zero_where(grad, inverted).sum()
    return grad_x, grad_value
    # END SOLUTION


# GeluBackward0 (nn/activations.py): out = x · Φ(x), Φ the standard normal distribution's cumulative
# function, Φ(x) = (1 + erf(x / √2)) / 2; with approximate="tanh", out = x · (1 + tanh(u)) / 2 instead,
# u = _TANH_SCALE · (x + _TANH_CUBE · x³).
def gelu_backward(self, grad):
    """The gradient for x, of its shape. ``approximate`` is "none" or "tanh"; ``cdf`` is the forward's Φ(x), an
    array of x's shape, for "none" (None for "tanh"): while x is an array, use it rather than computing erf
    again (erf is costly, and a transformer's training calls this node at every step). Under create_graph
    (x a tensor), compute Φ(x) with operations (``dispatch`` with ``special.erf_array`` and ``special.erf``,
    ``pointwise.exp``, ``pointwise.tanh``). ``_INV_SQRT_2PI`` is 1/√(2π) and ``_SQRT_HALF`` 1/√2. With
    x = [-1, 0, 1] and a gradient of ones: about [-0.0833, 0.5, 1.0833] ("none"), [-0.0830, 0.5, 1.0830] ("tanh").

    对 x 的梯度，形状与 x 相同。``approximate`` 为 "none" 或 "tanh"；``cdf`` 是前向算出的 Φ(x)，形状与 x 相同的
    数组，仅 "none" 时有（"tanh" 时为 None）：x 是数组时就用它，不要再算一遍 erf（erf 计算代价高，而 Transformer
    训练的每一步都要调用这个节点）。create_graph 时（x 是张量），要用运算算出 Φ(x)（``dispatch`` 配合 ``special.erf_array`` 和 ``special.erf``、
    ``pointwise.exp``、``pointwise.tanh``）。``_INV_SQRT_2PI`` 是 1/√(2π)，``_SQRT_HALF`` 是 1/√2。x = [-1, 0, 1]、
    梯度全为 1 时：约为 [-0.0833, 0.5, 1.0833]（"none"）、[-0.0830, 0.5, 1.0830]（"tanh"）。
    """
    approximate, x, cdf = self.saved_tensors
    # BEGIN SOLUTION 7.4
    if cdf is not None and not isinstance(x, Tensor):  # Φ(x) as the forward computed it, in place for speed
        slope = x * x.dtype.type(_INV_SQRT_2PI)
        slope *= np.exp(x * (x * x.dtype.type(-0.5)))
        slope += cdf
        return grad * slope
    if approximate == "tanh":
        inner = (x + _TANH_CUBE * x * x * x) * _TANH_SCALE  # u
        t = dispatch(inner, np.tanh, pointwise.tanh)
        slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_SCALE * (1 + 3 * _TANH_CUBE * x * x)
    else:
        cdf = 0.5 * (1 + dispatch(x * _SQRT_HALF, special.erf_array, special.erf))
        slope = cdf + x * _INV_SQRT_2PI * dispatch(-0.5 * (x * x), np.exp, pointwise.exp)
    return grad * slope
    # END SOLUTION


# Which node's method each rule is: ``rules/__init__.py`` sets them.
RULES = {
    (EmbeddingBackward0, "backward"): embedding_backward,
    (NativeLayerNormBackward0, "backward"): layer_norm_backward,
    (MaskedFillBackward0, "backward"): masked_fill_backward,
    (MaskedFillBackward1, "backward"): masked_fill_value_backward,
    (GeluBackward0, "backward"): gelu_backward,
}
