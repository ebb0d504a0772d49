"""Chapter 1's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "1.1": {
        "en": "Record only when grad mode is on and at least one input is a tensor whose requires_grad is true. Grad "
              "mode off, or inputs that are all constants or numbers: nothing to record.",
        "zh": "只有梯度模式开启、并且至少有一个输入是 requires_grad 为真的张量时，才需要记录。梯度模式关闭，或者输入全是"
              "常量或数字：不用记录。",
    },
    "1.2": {
        "en": "An input with a grad_fn: its edge is that node, together with the number of the output the input is "
              "(its _output_nr). A leaf that requires grad: its one shared accumulator (grad_accumulator), output 0, "
              "so that every use of the leaf meets in one node. Anything else: (None, 0).",
        "zh": "有 grad_fn 的输入：它的边是这个节点，加上它是该节点的第几个输出（它的 _output_nr）。需要梯度的叶子节点："
              "它唯一共用的累加器（grad_accumulator），输出编号 0，这样叶子节点的每次使用都汇到同一个节点。其他情况："
              "(None, 0)。",
    },
    "1.3": {
        "en": "Summing is the adjoint of copying. Sum the gradient over every axis broadcasting stretched: the extra "
              "leading axes, and each later axis where the target shape has 1 and the gradient more, keeping the "
              "dimensions (keepdims for numpy, keepdim for tensors); then reshape the sum to the target shape. Equal "
              "shapes need nothing.",
        "zh": "求和是复制的伴随。对广播拉伸过的每个轴求和：前面多出来的轴，以及之后目标形状为 1 而梯度更大的每个轴，"
              "求和时保留维度（numpy 用 keepdims，张量用 keepdim）；再把和 reshape 成目标形状。形状相同时什么也不用做。",
    },
    "1.4": {
        "en": "∂(a·b)/∂a = b and ∂(a·b)/∂b = a: a's gradient is grad·b and b's is grad·a, each summed back to its own "
              "input's shape (sum_to), and None for an input that needs none; a's first.",
        "zh": "∂(a·b)/∂a = b，∂(a·b)/∂b = a：a 的梯度是 grad·b，b 的梯度是 grad·a，各自用 sum_to 求和回自己输入的形状；"
              "不需要梯度的输入得到 None；a 的在前。",
    },
    "1.5": {
        "en": "∂(a + αb)/∂a = 1 and ∂(a + αb)/∂b = α; for a − αb, the second is −α. So a's gradient is grad itself, "
              "b's is α·grad (−α·grad for sub), each summed back to its own input's shape, None where none is needed. "
              "When α is 1, skip the multiplication.",
        "zh": "∂(a + αb)/∂a = 1，∂(a + αb)/∂b = α；对 a − αb，后者是 −α。所以 a 的梯度就是 grad 本身，b 的梯度是 α·grad"
              "（减法时为 −α·grad），各自求和回自己输入的形状；不需要梯度的输入得到 None。α 为 1 时省掉这次乘法。",
    },
    "1.6": {
        "en": "∂(a/b)/∂a = 1/b and ∂(a/b)/∂b = −a/b² (the derivative of 1/b is −1/b²): a's gradient is grad/b and "
              "b's is −grad·a/b², each summed back to its own input's shape, and None for an input that needs none.",
        "zh": "∂(a/b)/∂a = 1/b，∂(a/b)/∂b = −a/b²（1/b 的导数是 −1/b²）：a 的梯度是 grad/b，b 的梯度是 −grad·a/b²，"
              "各自求和回自己输入的形状；不需要梯度的输入得到 None。",
    },
    "1.7": {
        "en": "A number exponent n: ∂(xⁿ)/∂x = n·xⁿ⁻¹, so the gradient is grad·n·xⁿ⁻¹ (with power, for PyTorch's "
              "rounding), and zeros for n = 0. A tensor exponent e: the base's gradient is grad·e·x^(e−1), with 0 "
              "where e = 0; the exponent's is grad·xᵉ·ln x, that is grad·result·ln x, with 0 where x = 0 and e ≥ 0; "
              "each summed back to its own input's shape, None where none is needed.",
        "zh": "指数是数字 n：∂(xⁿ)/∂x = n·xⁿ⁻¹，所以梯度是 grad·n·xⁿ⁻¹（用 power，舍入与 PyTorch 一致），n = 0 时为零。"
              "指数是张量 e：底数的梯度是 grad·e·x^(e−1)，在 e = 0 处为 0；指数的梯度是 grad·xᵉ·ln x，也就是 "
              "grad·result·ln x，在 x = 0 且 e ≥ 0 处为 0；各自求和回自己输入的形状，不需要梯度的输入得到 None。",
    },
    "1.8": {
        "en": "exp: eˣ is its own derivative, so grad·result. log: ∂ln x/∂x = 1/x, so grad/x, x the saved input. "
              "sqrt: ½x^(−½) = 1/(2√x), so grad/(2·result). tanh: 1 − tanh² x, so grad·(1 − result²).",
        "zh": "exp：eˣ 的导数就是它自己，所以是 grad·result。log：∂ln x/∂x = 1/x，所以是 grad/x，x 是保存的输入。"
              "sqrt：½x^(−½) = 1/(2√x)，所以是 grad/(2·result)。tanh：导数是 1 − tanh² x，所以是 grad·(1 − result²)。",
    },
    "C1": {
        "en": "abs: grad times the sign of x (−1, 0 or 1; the sign of 0 is 0). clamp: grad where min ≤ x ≤ max, "
              "bounds included, 0 elsewhere; a missing bound (None) counts as −∞ for min and +∞ for max.",
        "zh": "abs：grad 乘以 x 的符号（−1、0 或 1；0 的符号是 0）。clamp：在 min ≤ x ≤ max 处（含界限）为 grad，其余为 0；"
              "缺少的界限（None）对 min 视为 −∞，对 max 视为 +∞。",
    },
}
