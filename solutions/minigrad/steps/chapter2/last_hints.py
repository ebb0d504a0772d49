"""Chapter 2's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "2.1": {
        "en": "Walk the graph from the root with a list used as a stack. The root's count starts at 0. Each time an "
              "edge (skip the None ones) leads to a node, that node's count grows by one; a node met for the first "
              "time starts at 0 and is pushed, so that it is walked once. The counts, by node, are the answer.",
        "zh": "用一个当作栈的列表从根节点开始遍历计算图。根节点的计数从 0 开始。每当一条边（跳过 None）指向某个节点，"
              "这个节点的计数就加一；第一次遇到的节点从 0 开始并压入栈中，这样每个节点只遍历一次。按节点记下的这些计数"
              "就是答案。",
    },
    "2.2": {
        "en": "When the leaf has no gradient yet (its _grad is None), its _grad becomes a tensor around its own copy of "
              "grad, in the leaf's dtype, and there is nothing more to do: the engine may reuse the array it passed.",
        "zh": "当叶子节点还没有梯度（它的 _grad 为 None）时，它的 _grad 变为一个张量，包装 grad 的一份自己的副本，dtype "
              "与叶子节点相同，然后就完成了：引擎可能会重用它传进来的数组。",
    },
    "2.3": {
        "en": "The queue keeps (−_seq, a count of pushes, node) in a heap, so the newest node leaves first and equal "
              "keys leave in the order they came. The loop, until the queue is empty: pop a node, run it (run_node) on "
              "its buffer, taken out of buffers; note it in order, and release it unless keep_graph. Then for each "
              "edge (next, nr) and its result g, skipping a None next: give next a buffer of next._num_outputs empty "
              "slots the first time an edge reaches it; when g is not None, validate it and add it into slot nr (or "
              "store it there if the slot is empty); count next's dependency down, and push next when it reaches 0.",
        "zh": "队列在一个堆里保存 (−_seq, 压入次数的计数, 节点)，这样最新的节点先出来，键相同时按进入的先后出来。循环直到"
              "队列为空：弹出一个节点，用从 buffers 中取出的它的缓冲运行它（run_node）；把它记入 order，除非 keep_graph，"
              "否则释放它。然后对每条边 (next, nr) 及其结果 g（next 为 None 时跳过）：边第一次到达 next 时，给它一个有 "
              "next._num_outputs 个空位的缓冲；g 不是 None 时，先 validate，再把它加到第 nr 个位置上（位置为空就直接放入）；"
              "把 next 的依赖数减一，减到 0 时把 next 压入队列。",
    },
    "2.4": {
        "en": "For out = a @ b: a's gradient is grad·bᵀ, (m, n)·(n, k) = (m, k), and b's is aᵀ·grad, "
              "(k, m)·(m, n) = (k, n); each only if needed (None otherwise). _transpose works on arrays and tensors.",
        "zh": "对 out = a @ b：a 的梯度是 grad·bᵀ，(m, n)·(n, k) = (m, k)；b 的梯度是 aᵀ·grad，(k, m)·(m, n) = (k, n)；"
              "各自只在需要时计算（否则为 None）。_transpose 对数组和张量都适用。",
    },
    "2.5": {
        "en": "Each input element gets its output's gradient, whole. _restored: with keepdim (or a 0-dim input) the "
              "gradient is already lined up; otherwise insert an axis of size 1 at each summed dimension, smallest "
              "first (numpy's expand_dims for arrays, unsqueeze one dimension at a time for tensors). SumBackward0 "
              "expands grad to the input's shape; SumBackward1 expands the restored gradient to it.",
        "zh": "每个输入元素都完整地得到它所属输出的梯度。_restored：keepdim 为真（或输入没有维度）时梯度已经对齐；否则在"
              "每个被求和的维度处插入一个长度为 1 的轴，从小到大（数组用 numpy 的 expand_dims，张量用 unsqueeze，一次一个"
              "维度）。SumBackward0 把 grad 扩展到输入的形状；SumBackward1 把放回维度后的梯度扩展到输入的形状。",
    },
    "2.6": {
        "en": "Each element counts 1/n in a mean of n elements. MeanBackward0: grad divided by the saved numel, expanded "
              "to the input's shape. MeanBackward1: n is the product of the sizes of the reduced dimensions; the "
              "restored gradient divided by n, expanded to the input's shape.",
        "zh": "在 n 个元素的平均值里，每个元素占 1/n。MeanBackward0：grad 除以保存的 numel，再扩展到输入的形状。"
              "MeanBackward1：n 是被约简的各维长度之积；放回维度后的梯度除以 n，再扩展到输入的形状。",
    },
    "2.7": {
        "en": "relu: grad where the saved result is above 0, and 0 elsewhere (the sign of the result is such a mask: "
              "np.sign for arrays, sign for tensors, dispatch picks one). sigmoid: σ′(x) = σ(x)(1 − σ(x)), so "
              "grad·s·(1 − s), s being the saved result.",
        "zh": "relu：在保存的结果大于 0 处为 grad，其余为 0（结果的符号就是这样的掩码：对数组用 np.sign，对张量用 sign，"
              "dispatch 会挑选其一）。sigmoid：σ′(x) = σ(x)(1 − σ(x))，所以是 grad·s·(1 − s)，s 是保存的结果。",
    },
    "2.8": {
        "en": "The common scale is grad, times the weight if there is one, divided by z's numel when reduction is MEAN. "
              "z's gradient is the scale times ∂ℓ/∂z = σ(z) − y, or with a pos_weight p, (p·y + 1 − y)·σ(z) − p·y. "
              "y's gradient is the scale times ∂ℓ/∂y = −z, or with p, (p − 1)·softplus(−z) − z. Each only if needed; "
              "_sigmoid and _softplus_neg compute σ(z) and softplus(−z).",
        "zh": "公共的缩放因子是 grad，有权重时乘上 weight，reduction 为 MEAN 时再除以 z 的 numel。z 的梯度是缩放因子乘以 "
              "∂ℓ/∂z = σ(z) − y，有 pos_weight p 时为 (p·y + 1 − y)·σ(z) − p·y。y 的梯度是缩放因子乘以 ∂ℓ/∂y = −z，"
              "有 p 时为 (p − 1)·softplus(−z) − z。各自只在需要时计算；_sigmoid 和 _softplus_neg 分别算出 σ(z) 和 "
              "softplus(−z)。",
    },
    "C2": {
        "en": "softmax: ∂sᵢ/∂xⱼ = sᵢ(δᵢⱼ − sⱼ), so the gradient is s·(grad − Σ grad·s), the sum taken along dim and kept "
              "as a dimension of size 1 (_sum_kept). log_softmax: the saved values are log s, so the gradient is "
              "grad − exp(saved)·Σ grad, summed along dim the same way (dispatch picks np.exp or exp).",
        "zh": "softmax：∂sᵢ/∂xⱼ = sᵢ(δᵢⱼ − sⱼ)，所以梯度是 s·(grad − Σ grad·s)，和沿 dim 求取并保留为长度 1 的维度"
              "（_sum_kept）。log_softmax：保存的值是 log s，所以梯度是 grad − exp(保存的值)·Σ grad，和同样沿 dim 求取"
              "（dispatch 挑选 np.exp 或 exp）。",
    },
}
