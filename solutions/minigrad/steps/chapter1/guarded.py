"""Chapter 1's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "1.1": ("for x in inputs: if getattr(x",),
    "1.2": ("(grad_accumulator(x), 0)", "(x.grad_fn, x._output_nr)"),
    "1.3": ("range(lead)", "len(grad.shape) - len(shape)", "summing is the adjoint of copying"),
    "1.4": ("d(out)/d(self) = other", "d(out)/d(other) = self", "grad * b", "grad * a",
            "changes `out` by `b` δ", "the incoming gradient times `b`", "会让 `out` 变化 `b` δ",
            "是传入的梯度逐元素乘以 `b`"),
    "1.5": ("-grad * alpha", "grad * -alpha", "d(out)/d(other) = alpha", "d(out)/d(other) = -alpha",
            "d(out)/d(self) = 1", "∂out/∂a = 1", "∂(a + α b)/∂b = α", "∂(a − α b)/∂b = −α",
            "each row adds up, times 2", "每一行求和再乘以 2"),
    "1.6": ("grad / other", "-grad * self_ / (other * other)", "-self / other**2", "-self / other ** 2",
            "d(out)/d(self) = 1 / other", "-grad * a / b²", "-grad * a / b**2", "1 / b²",
            "∂(a/b)/∂a = 1/b", "the quotient by `1 / b` per unit", "商就变化 `1 / b`", "−1/4² = −1/16"),
    "1.7": ("exponent * self ** (exponent - 1)", "exponent * self_ ** (exponent - 1)",
            "exponent * power(self_, exponent - 1)", "result * log_self", "result * log(self)", "x ** (n - 1)",
            "n * x ** (n - 1)", "a ** b * log(a)", "∂(xⁿ)/∂x = n xⁿ⁻¹", "n xⁿ⁻¹", "∂(xᵉ)/∂e = xᵉ ln x", "xᵉ ln x",
            "the result times ln x", "结果乘以 ln x", "3x² = `[12", "(2⁰ · ln 2)"),
    "1.8": ("tangent * result", "tangent / self_", "grad / self_", "grad / (2 * result)", "1 - result * result",
            "1 / (2 sqrt(self))", "1 / (2 * sqrt(x))", "1 - tanh(self)²", "1 - tanh(x)²", "d(out)/d(self) = exp(self)",
            "d(out)/d(self) = 1 / self", "its own derivative", "0.5 * x ** -0.5"),
    "C1": ("grad * sign", "dispatch(self_, np.sign, sign)", "self_ >= low", "(self_ >= ", "flips it where self < 0"),
}
