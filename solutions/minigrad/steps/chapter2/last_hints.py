"""Chapter 2's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "2.1": {
        "en": 'counts = {root: 0}; stack = [root]\nwhile the stack is not empty:\n  node = pop one\n  for each (next, _) in node.next_functions, skipping None:\n    if next is new: counts[next] = 0 and push next\n    add 1 to counts[next]\nreturn counts',
        "zh": 'counts = {root: 0}；stack = [root]\n当栈不为空：\n  node = 弹出一个\n  对 node.next_functions 中的每个 (next, _)，跳过 None：\n    如果 next 是新的：counts[next] = 0 并把 next 压栈\n    counts[next] 加 1\n返回 counts',
    },
    "2.2": {
        "en": "when the leaf has no gradient yet (its _grad is None):\n  variable._grad = a tensor wrapping a copy of grad in the leaf's dtype\n  stop here",
        "zh": '当叶子节点还没有梯度（它的 _grad 为 None）时：\n  variable._grad = 一个张量，包装 grad 的副本，dtype 与叶子节点相同\n  到此为止',
    },
    "2.3": {
        "en": 'while the queue is not empty:\n  node = pop; results = run it (run_node) on the buffer you take out of buffers\n  note node in order; release it unless keep_graph\n  for each edge (next, nr) and its result g:\n    skip a None next\n    make buffers[next] = [None] * next._num_outputs if it has none\n    if g is not None: g = validate(...); slot nr = g, or slot nr + g if it held one\n    dependencies[next] -= 1; if it is 0: push next',
        "zh": '当队列不为空：\n  node = 弹出；results = 用从 buffers 中取出的缓冲运行它（run_node）\n  把 node 记入 order；除非 keep_graph，否则释放它\n  对每条边 (next, nr) 及其结果 g：\n    next 为 None 则跳过\n    如果 next 还没有缓冲，建立 buffers[next] = [None] * next._num_outputs\n    如果 g 不是 None：g = validate(...)；第 nr 个位置 = g，若已有值则为原值 + g\n    dependencies[next] -= 1；若为 0：压入 next',
    },
    "2.4": {
        "en": 'for a: if needed, grad times the transpose of b, else None\nfor b: if needed, the transpose of a times grad, else None\n(use _transpose, which works on arrays and tensors)',
        "zh": '对 a：如果需要，grad 乘以 b 的转置，否则 None\n对 b：如果需要，a 的转置乘以 grad，否则 None\n（用 _transpose，它对数组和张量都适用）',
    },
    "2.5": {
        "en": "_restored: if keepdim (or the input had no dimensions): nothing to do\n  otherwise insert an axis of size 1 at each summed dimension, smallest first\n  (arrays: numpy's expand_dims; tensors: unsqueeze, one dimension at a time)\nSumBackward0: expand grad to shape\nSumBackward1: expand the restored grad to shape",
        "zh": '_restored：如果 keepdim（或输入没有维度）：什么也不用做\n  否则在每个被求和的维度处插入一个长度为 1 的轴，从小到大\n  （数组：numpy 的 expand_dims；张量：unsqueeze，一次一个维度）\nSumBackward0：把 grad 扩展到 shape\nSumBackward1：把放回维度后的 grad 扩展到 shape',
    },
    "2.6": {
        "en": 'MeanBackward0: expand grad / numel to shape\nMeanBackward1: n = 1; for d in dims: n times the size of dimension d\n  expand (the restored grad) / n to shape',
        "zh": 'MeanBackward0：把 grad / numel 扩展到 shape\nMeanBackward1：n = 1；对 dims 中的每个 d：n 乘以第 d 维的长度\n  把（放回维度后的 grad）/ n 扩展到 shape',
    },
    "2.7": {
        "en": 'relu: grad times (1 where result > 0, else 0)\n  (np.sign of the result is such a mask for arrays, sign for tensors; dispatch picks one)\nsigmoid: grad times s times (1 - s), s being the saved result',
        "zh": 'relu：grad 乘以（result > 0 处为 1，其余为 0）\n  （对数组，结果的 np.sign 就是这样的掩码；对张量用 sign；dispatch 会挑选其一）\nsigmoid：grad 乘以 s 再乘以 (1 - s)，s 是保存的结果',
    },
    "2.8": {
        "en": 'scale = grad, times weight if there is one; if reduction is MEAN: scale / numel of z\ngrad for z = scale times slope for z (if needed); grad for y likewise\nslope for z, without p: σ(z) - y; with p: (p y + 1 - y) σ(z) - p y\nslope for y, without p: -z; with p: (p - 1) softplus(-z) - z  (use _sigmoid and _softplus_neg)',
        "zh": 'scale = grad，有权重时乘上 weight；如果 reduction 是 MEAN：scale / z 的 numel\nz 的梯度 = scale 乘以 z 的斜率（如果需要）；y 的梯度同理\nz 的斜率，无 p：σ(z) - y；有 p：(p y + 1 - y) σ(z) - p y\ny 的斜率，无 p：-z；有 p：(p - 1) softplus(-z) - z  （用 _sigmoid 和 _softplus_neg）',
    },
    "C2": {
        "en": 'softmax: s times (grad minus the sum over dim of grad times s)\nlog_softmax: grad minus exp(saved) times the sum over dim of grad\n(dispatch picks np.exp for arrays and exp for tensors)',
        "zh": 'softmax：s 乘以（grad 减去 grad 乘 s 沿 dim 的和）\nlog_softmax：grad 减去 exp(保存的值) 乘以 grad 沿 dim 的和\n（dispatch 对数组选 np.exp，对张量选 exp）',
    },
}
