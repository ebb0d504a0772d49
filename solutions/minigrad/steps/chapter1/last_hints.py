"""Chapter 1's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "1.1": {
        "en": 'if grad mode is off: answer no\nfor each input: if it has requires_grad and it is true: answer yes\nanswer no',
        "zh": '如果梯度模式关闭：回答否\n对每个输入：如果它有 requires_grad 且为真：回答是\n回答否',
    },
    "1.2": {
        "en": "if x has a grad_fn: the edge is (that node, the output number x came from, x._output_nr)\nelse if x requires grad: the edge is (the leaf's shared accumulator, 0)\nelse: (None, 0)",
        "zh": '如果 x 有 grad_fn：边是 (这个节点, x 来自的输出编号 x._output_nr)\n否则如果 x 需要梯度：边是 (这个叶子节点共用的累加器, 0)\n否则：(None, 0)',
    },
    "1.3": {
        "en": 'if the shapes are equal: give grad back unchanged\nlead = number of extra leading axes\naxes = the lead axes, plus every later axis where shape has 1 and grad has more\nsum grad over axes, keeping the dimensions (numpy: keepdims, tensors: keepdim)\nreshape the sum to shape',
        "zh": '如果形状相同：原样返回 grad\nlead = 前面多出来的轴数\naxes = 前 lead 个轴，加上之后 shape 为 1 而 grad 更大的每个轴\n对 grad 在 axes 上求和并保留维度（numpy 用 keepdims，张量用 keepdim）\n把和 reshape 成 shape',
    },
    "1.4": {
        "en": "for a: if needed, sum_to(grad times b, a's shape), else None\nfor b: if needed, sum_to(grad times a, b's shape), else None\nreturn both, a's first",
        "zh": '对 a：如果需要，sum_to(grad 乘以 b, a 的形状)，否则 None\n对 b：如果需要，sum_to(grad 乘以 a, b 的形状)，否则 None\n返回两者，a 的在前',
    },
    "1.5": {
        "en": "alpha = the one saved value; need a, need b = the node's needs_input_grad\ngradient for a = sum_to(grad, a's shape) if a needs one, else None\nscaled = grad times alpha, negated for sub (skip the multiplication when alpha is 1)\ngradient for b = sum_to(scaled, b's shape) if b needs one, else None\nreturn the pair",
        "zh": 'alpha = 唯一保存的值；need a, need b = 节点的 needs_input_grad\na 的梯度 = a 需要时为 sum_to(grad, a 的形状)，否则为 None\nscaled = grad 乘以 alpha，减法时再取负（alpha 为 1 时省掉乘法）\nb 的梯度 = b 需要时为 sum_to(scaled, b 的形状)，否则为 None\n返回这一对梯度',
    },
    "1.6": {
        "en": "a, b = the saved values\ngradient for a = sum_to(grad divided by b, a's shape) if needed, else None\ngradient for b = sum_to(minus grad times a divided by b squared, b's shape) if needed, else None\nreturn the pair",
        "zh": 'a, b = 保存的值\na 的梯度 = 需要时为 sum_to(grad 除以 b, a 的形状)，否则为 None\nb 的梯度 = 需要时为 sum_to(负的 grad 乘以 a 再除以 b 的平方, b 的形状)，否则为 None\n返回这一对梯度',
    },
    "1.7": {
        "en": "number exponent n: if n is 0, the gradient is grad times 0; else grad times (n times power(x, n - 1))\ntensor exponent e: for x, zeros where e is 0 in grad times (e times x ** (e - 1)), summed to x's shape\nfor e, grad times (zeros where x is 0 and e >= 0 in result times log(x)), summed to e's shape\nNone for an input that needs no gradient; return the pair",
        "zh": '指数是数字 n：若 n 为 0，梯度是 grad 乘以 0；否则是 grad 乘以 (n 乘以 power(x, n - 1))\n指数是张量 e：x 的梯度为 grad 乘以 (e 乘以 x ** (e - 1))，在 e 为 0 处置 0，再求和回 x 的形状\ne 的梯度为 grad 乘以 (result 乘以 log(x)，在 x 为 0 且 e >= 0 处置 0)，再求和回 e 的形状\n不需要梯度的输入对应 None；返回这一对梯度',
    },
    "1.8": {
        "en": 'exp: grad times the saved value (the result)\nlog: grad divided by the saved value (the input)\nsqrt: grad divided by twice the saved value (the result)\ntanh: grad times (one minus the square of the saved value, the result)',
        "zh": 'exp：grad 乘以保存的值（结果）\nlog：grad 除以保存的值（输入）\nsqrt：grad 除以保存的值（结果）的两倍\ntanh：grad 乘以（1 减去保存的值（结果）的平方）',
    },
    "C1": {
        "en": 'abs: grad times the sign of x\nclamp: lower = min, or minus infinity if None; upper = max, or infinity if None\ninside = (x at least lower) and (x at most upper), as numbers 0 and 1\nreturn grad times inside',
        "zh": 'abs：grad 乘以 x 的符号\nclamp：lower = min，为 None 时取负无穷；upper = max，为 None 时取正无穷\ninside = (x 不小于 lower) 且 (x 不大于 upper)，作为数字 0 和 1\n返回 grad 乘以 inside',
    },
}
