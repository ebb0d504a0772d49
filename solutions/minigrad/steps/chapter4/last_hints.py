"""Chapter 4's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "4.1": {
        "en": "A gradient that is not a tensor becomes one, in the output's dtype. If its shape differs from the "
              "output's, raise a RuntimeError with PyTorch's message (\"Mismatch in shape: grad_output[i] has a "
              "shape of ... and output[i] has a shape of ...\"). With create_graph the engine gets the tensor "
              "itself; otherwise its array, in the output's dtype.",
        "zh": "不是张量的梯度先变成张量，用输出的 dtype。如果它的形状与输出的不同，抛出带 PyTorch 消息的 RuntimeError"
              "（\"Mismatch in shape: grad_output[i] has a shape of ... and output[i] has a shape of ...\"）。"
              "有 create_graph 时交给引擎的是这个张量本身；否则是它的数组，用输出的 dtype。",
    },
    "4.2": {
        "en": "A tensor (backward with create_graph): .grad becomes a new tensor, the sum of the old .grad and grad, "
              "so that the sum is recorded. An array: add it into .grad's own array in place (numpy's add with "
              "out=), and count one more version of .grad, whose grad_fn, if any, stays.",
        "zh": "张量（带 create_graph 的反向传播）：.grad 变为一个新张量，即原来的 .grad 与 grad 之和，这样这次求和会被"
              "记录。数组：把它原地加进 .grad 自己的数组（用 numpy 带 out= 的 add），并让 .grad 的版本加一；.grad 若有 "
              "grad_fn 则保持不变。",
    },
    "4.3": {
        "en": "Fill the tensor's own array with zeros in place (no new array), count one more version, and return "
              "the tensor itself.",
        "zh": "把张量自己的数组原地填成 0（不建新数组），版本加一，并返回这个张量本身。",
    },
    "4.4": {
        "en": "release_saved(node) releases every SavedTensor among the values in node._saved, and leaves the others "
              "(None, numbers) alone. SavedTensor.release forgets both what it holds: its tensor and its array "
              "both become None.",
        "zh": "release_saved(node) 对 node._saved 中每个是 SavedTensor 的值调用释放，其他值（None、数字）不动。"
              "SavedTensor.release 忘掉它持有的两样东西：它的张量和数组都变为 None。",
    },
    "4.5": {
        "en": "The output's tangent is the sum of one term per input whose tangent is not None, that tangent times "
              "∂out/∂input (start from 0). Mul: dx·y + x·dy. Div: dx/y − x·dy/y². Mm: dA·B + A·dB, each tangent on "
              "its own factor's side. Pow with a number n: t·n·xⁿ⁻¹ (computed with _power), and zeros for n = 0.",
        "zh": "输出的切向量是若干项之和，每个切向量不为 None 的输入贡献一项：该切向量乘以 ∂out/∂该输入（从 0 开始累加）。"
              "乘法：dx·y + x·dy。除法：dx/y − x·dy/y²。矩阵乘法：dA·B + A·dB，每个切向量留在它所属因子的那一侧。"
              "数字次幂 n：t·n·xⁿ⁻¹（用 _power 计算），n = 0 时为零。",
    },
    "4.6": {
        "en": "Take x detached, made to require grad, and y = f(x). For each flat position i of y: a seed of zeros "
              "shaped like y with a 1 at i; the gradient of y with respect to x for that seed (autograd.grad, "
              "retaining the graph, None read as zeros) is row i of J. Stack the rows and reshape them to "
              "y.shape + x.shape.",
        "zh": "取 x 分离出来的、需要梯度的副本，令 y = f(x)。对 y 展平后的每个位置 i：一个与 y 同形状、在 i 处为 1 的零"
              "种子向量；这个种子向量下 y 关于 x 的梯度（autograd.grad，保留计算图，None 当作零）就是 J 的第 i 行。"
              "把各行堆叠起来，变形为 y.shape + x.shape。",
    },
    "4.7": {
        "en": "For each flat position j of x: a tangent of zeros shaped like x with a 1 at j; inside a dual level, y = "
              "f of the dual tensor made of x and that tangent, and y's tangent, read with unpack_dual, is column j "
              "of J (zeros like y when it is None). Stack the columns on a new last axis and reshape them to "
              "y.shape + x.shape.",
        "zh": "对 x 展平后的每个位置 j：一个与 x 同形状、在 j 处为 1 的零切向量；在一个对偶层级中，令 y = f(由 x 和这个"
              "切向量构成的对偶张量)，用 unpack_dual 读出的 y 的切向量就是 J 的第 j 列（为 None 时取与 y 同形状的零）。"
              "把各列沿新的最后一维堆叠起来，变形为 y.shape + x.shape。",
    },
    "4.8": {
        "en": "permute: apply the inverse permutation, the one that sends place dims[i] back to i (a tensor's permute, "
              "or numpy's transpose, by kind). transpose: swap the same two axes again (swapaxes for arrays). expand: "
              "sum_to the saved sizes. unsqueeze(dim): the gradient without its axis dim. squeeze(dim): if the "
              "gradient has as many axes as the saved sizes, nothing was removed, and it stays as it is; otherwise "
              "an axis of size 1 goes back at dim.",
        "zh": "permute：施加逆置换，即把位置 dims[i] 送回 i 的那个置换（按类型选用张量的 permute 或 numpy 的 transpose）。"
              "transpose：再交换一次同样的两个轴（数组用 swapaxes）。expand：用 sum_to 求和到保存的 sizes。"
              "unsqueeze(dim)：去掉第 dim 个轴的梯度。squeeze(dim)：如果梯度的轴数已经与保存的 sizes 相同，说明什么也"
              "没去掉，原样返回；否则在第 dim 处放回一个长度为 1 的轴。",
    },
    "C4": {
        "en": "A plain number becomes a Dual with tangent 0. +: value a + b, tangent da + db. ×: value a·b, tangent "
              "da·b + a·db (the product rule). sin: value sin a, tangent cos(a)·da. exp: value eᵃ, tangent eᵃ·da "
              "(the chain rule).",
        "zh": "普通的数变成切向量为 0 的 Dual。+：值为 a + b，切向量为 da + db。×：值为 a·b，切向量为 da·b + a·db"
              "（乘积法则）。sin：值为 sin a，切向量为 cos(a)·da。exp：值为 eᵃ，切向量为 eᵃ·da（链式法则）。",
    },
}
