"""Chapter 2's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "2.1": ("dependencies[next_node] += 1",),
    "2.2": ("np.array(grad, dtype=variable._array.dtype)",),
    "2.3": ("-node._seq", "(-_seq", "a heap of -_seq", "dependencies[next_node] -= 1", "buffer[nr] + grad"),
    "2.4": ("grad @ mat2.T", "self.T @ grad", "grad @ _transpose(mat2)", "_transpose(self_) @ grad", "a.T @ grad",
            "grad @ b.T", "grad (m, n) times b transposed",
            "(1 + 0 + 2, then 0 + 1 + 3)", "（1 + 0 + 2 与 0 + 1 + 3）"),
    "2.5": ("np.expand_dims(grad", "grad.unsqueeze(d)",
            "the element's gradient is its output's gradient, unchanged", "这个元素的梯度就是它所在输出的梯度，原封不动",
            "backward copies each output's gradient back", "反向传播把每个输出的梯度复制回"),
    "2.6": ("grad / numel", "/ count, shape)",
            "its gradient is the sum's, divided by n", "它的梯度就是求和的梯度再除以 n", "24 / 8 = 3"),
    "2.7": ("grad * result * (1 - result)", "result * (1 - result)", "s (1 - s)", "grad * dispatch(result, np.sign",
            "Its slope is 1 where x > 0 and 0 where x < 0", "x > 0 处斜率为 1，x < 0 处为 0",
            "exactly where the result is above 0", "恰好是结果大于 0 的地方"),
    "2.8": ("_sigmoid(z) - y", "sigmoid(z) - y", "sigmoid(x) - y", "(pos_weight * y + 1 - y) * _sigmoid(z)",
            "(pos_weight - 1) * _softplus_neg(z) - z",
            "(positive where σ(z) is above the target)", "（σ(z) 高于目标的地方为正）"),
    "C2": ("s * (grad - Σ grad * s)", "grad - softmax(x) * Σ grad", "result * (grad - _sum_kept(grad * result",
           "s_i (δ_ij - s_j)", "grad - dispatch(result, np.exp"),
}
