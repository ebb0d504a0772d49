"""Chapter 4's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "4.1": {
        "en": 'if gradient is not a tensor: make it one, in the output\'s dtype\nif the shapes differ: raise RuntimeError("Mismatch in shape: grad_output[i] has a shape of ... and output[i] has a shape of ...")\nif create_graph: return the tensor\nreturn its array, in the output\'s dtype',
        "zh": '如果 gradient 不是张量：把它变成张量，用输出的 dtype\n如果形状不同：raise RuntimeError("Mismatch in shape: grad_output[i] has a shape of ... and output[i] has a shape of ...")\n如果 create_graph：返回这个张量\n返回它的数组，用输出的 dtype',
    },
    "4.2": {
        "en": "if grad is a tensor:\n  variable._grad becomes the sum of variable._grad and grad (a new tensor)\nelse:\n  add grad into variable._grad's array in place (np.add with out=)\n  count one more version of variable._grad",
        "zh": '如果 grad 是张量：\n  variable._grad 变为 variable._grad 与 grad 之和（一个新张量）\n否则：\n  把 grad 原地加进 variable._grad 的数组（用带 out= 的 np.add）\n  让 variable._grad 的版本加一',
    },
    "4.3": {
        "en": "fill tensor._array with 0, in place\nbump the tensor's version\nreturn tensor",
        "zh": '把 tensor._array 原地填 0\n增加张量的版本\n返回 tensor',
    },
    "4.4": {
        "en": 'Node._release: for each value in self._saved: if it is a SavedTensor: value.release()\nSavedTensor.release: set both self._tensor and self._array to None',
        "zh": 'Node._release：对 self._saved 中的每个值：如果它是 SavedTensor：value.release()\nSavedTensor.release：把 self._tensor 和 self._array 都设为 None',
    },
    "4.5": {
        "en": 'out = 0\nif the first tangent is not None: out += (its term: tangent times d out / d first input)\nif the second tangent is not None: out += (its term)\nreturn out',
        "zh": 'out = 0\n如果第一个切向量不是 None：out += （它那一项：切向量乘以 d out / d 第一个输入）\n如果第二个切向量不是 None：out += （它那一项）\n返回 out',
    },
    "4.6": {
        "en": 'x = a detached copy of x that requires grad; y = f(x)\nfor i in range(number of elements of y):\n  seed = zeros like y, with a 1 at flat position i\n  row = the gradient of y with respect to x for that seed (retain the graph; None means zeros)\nreturn the rows stacked, reshaped to y.shape + x.shape',
        "zh": 'x = x 的一个分离出来且需要梯度的副本；y = f(x)\n对 i 取遍 y 的元素个数：\n  seed = 与 y 同形状的零，在展平后的第 i 个位置为 1\n  row = 这个种子向量下 y 关于 x 的梯度（保留计算图；None 表示零）\n返回堆叠起来、变形为 y.shape + x.shape 的各行',
    },
    "4.7": {
        "en": "for j in range(number of elements of x):\n  tangent = zeros like x, with a 1 at flat position j\n  in a dual level: y = f of the dual tensor made of x and that tangent; column = y's tangent, read by unpack_dual\n  keep the column (zeros like y if it is None)\nreturn the columns stacked on the last axis, reshaped to y.shape + x.shape",
        "zh": '对 j 取遍 x 的元素个数：\n  tangent = 与 x 同形状的零，在展平后的第 j 个位置为 1\n  在一个对偶层级中：y = f 作用于由 x 和这个切向量构成的对偶张量；column = 用 unpack_dual 读出的 y 的切向量\n  保留这一列（若为 None，则取与 y 同形状的零）\n返回沿最后一维堆叠、变形为 y.shape + x.shape 的各列',
    },
    "4.8": {
        "en": "permute: inverse = a list as long as dims; for each position i: inverse[dims[i]] = i\n  return grad with its axes in the order inverse (a tensor method, or numpy's, by kind)\nexpand: return grad summed to the saved sizes\nunsqueeze: return grad without axis dim\nsqueeze: if grad already has as many axes as sizes, return it; else insert an axis of size 1 at dim",
        "zh": 'permute：inverse = 一个与 dims 等长的列表；对每个位置 i：inverse[dims[i]] = i\n  返回按 inverse 的顺序重排各维后的 grad（按类型选用张量的方法或 numpy 的）\nexpand：返回求和到保存的 sizes 的 grad\nunsqueeze：返回去掉第 dim 维的 grad\nsqueeze：如果 grad 的维数已经与 sizes 相同，原样返回；否则在第 dim 维插入一个大小为 1 的维',
    },
    "C4": {
        "en": "make other a Dual (a plain number: tangent 0)\n+ : the value is the sum of the values; the tangent, the sum of the tangents\n* : the value is the product; the tangent, each tangent times the other's value, added\nsin, exp: the value is the function of the value; the tangent, its derivative there times the tangent",
        "zh": '把 other 变成 Dual（普通的数：切向量为 0）\n+ ：值是两个值之和；切向量是两个切向量之和\n* ：值是乘积；切向量是每个切向量乘以对方的值，再相加\nsin、exp：值是该函数在值处的结果；切向量是它在那里的导数乘以切向量',
    },
}
