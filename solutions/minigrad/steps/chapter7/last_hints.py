"""Chapter 7's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "7.1": {
        "en": "Arrays: start from a table of zeros of shape (num_weights, dim), in grad's dtype; np.add.at adds each row of "
              "grad.reshape(-1, dim) into the row of the table that flat names, every repeat included (a plain "
              "assignment would keep only the last); then, when padding_idx is 0 or more, set that row to 0. Tensors: "
              "multiply grad.reshape(-1, dim) by a column of 1s and 0s (0 where flat equals padding_idx), and add the rows "
              "with indexing.index_add, along dimension 0 at Tensor._wrap(flat), into zeros(num_weights, dim) of grad's "
              "dtype.",
        "zh": "数组：从一张形状为 (num_weights, dim)、dtype 与 grad 相同的全零表开始；np.add.at 把 grad.reshape(-1, dim) 的每一行"
              "加到 flat 所指的那一行上，重复的也都加上（普通的赋值只会留下最后一次）；然后，padding_idx 不小于 0 时，把那一行"
              "置为 0。张量：把 grad.reshape(-1, dim) 乘以一列 1 和 0（flat 等于 padding_idx 处为 0），再用 indexing.index_add "
              "沿第 0 维、在 Tensor._wrap(flat) 处把这些行加到 dtype 与 grad 相同的 zeros(num_weights, dim) 上。",
    },
    "7.2": {
        "en": "Under create_graph, first recompute the statistics from x with operations: the mean over dims (kept), and "
              "rstd, the reciprocal of the square root of x's variance over dims (unbiased=False, kept) plus eps. Then "
              "x̂ = (x − mean)·rstd and g = grad·weight (or grad): grad_x = rstd·(g − mean(g) − x̂·mean(g·x̂)), the means "
              "over dims kept (_mean); grad_weight is the sum of grad·x̂ over the leading dimensions (_sum), grad_bias the "
              "sum of grad over them; each only if needed.",
        "zh": "create_graph 时，先用运算从 x 重新算出统计量：沿 dims 的均值（保留维度），以及 rstd，即 x 沿 dims 的方差"
              "（unbiased=False，保留维度）加上 eps 后开平方再取倒数。然后 x̂ = (x − mean)·rstd，g = grad·weight（没有 weight 时"
              "就是 grad）：grad_x = rstd·(g − mean(g) − x̂·mean(g·x̂))，平均沿 dims 求取并保留维度（_mean）；grad_weight 是 "
              "grad·x̂ 沿前面各维之和（_sum），grad_bias 是 grad 沿这些维之和；各自只在需要时计算。",
    },
    "7.3": {
        "en": "MaskedFillBackward0: the gradient with 0 where the mask is True (_zero_where of grad and the mask). "
              "MaskedFillBackward1: x's gradient the same, if needed; value's, if needed, is the sum of the gradient "
              "where the mask is True: _zero_where of grad and the flipped mask (~mask for a tensor, np.logical_not for "
              "an array), then .sum().",
        "zh": "MaskedFillBackward0：在掩码为 True 处置 0 的梯度（对 grad 和掩码用 _zero_where）。MaskedFillBackward1：x 的梯度"
              "相同（需要时）；value 的梯度（需要时）是掩码为 True 处梯度之和：对 grad 和取反后的掩码（张量用 ~mask，数组用 "
              "np.logical_not）用 _zero_where，再 .sum()。",
    },
    "7.4": {
        "en": "GELU′(x) = Φ(x) + x·φ(x), φ(x) = exp(−x²/2)/√(2π). With x an array and cdf saved: slope = "
              "x·_INV_SQRT_2PI·np.exp(−x²/2) + cdf (in place, for speed), return grad·slope. Otherwise, exact: "
              "cdf = 0.5·(1 + erf(x·_SQRT_HALF)) through dispatch, the same slope with exp through dispatch. tanh: "
              "t = tanh(u), slope = 0.5·(1 + t) + 0.5·x·(1 − t²)·_TANH_SCALE·(1 + 3·_TANH_CUBE·x²).",
        "zh": "GELU′(x) = Φ(x) + x·φ(x)，φ(x) = exp(−x²/2)/√(2π)。x 是数组且保存了 cdf 时：slope = "
              "x·_INV_SQRT_2PI·np.exp(−x²/2) + cdf（为了速度原地计算），返回 grad·slope。否则，精确形式："
              "cdf = 0.5·(1 + erf(x·_SQRT_HALF))，经 dispatch 计算，斜率同上，exp 也经 dispatch。tanh：t = tanh(u)，"
              "slope = 0.5·(1 + t) + 0.5·x·(1 − t²)·_TANH_SCALE·(1 + 3·_TANH_CUBE·x²)。",
    },
}
