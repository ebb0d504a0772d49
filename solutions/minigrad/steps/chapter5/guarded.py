"""Chapter 5's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "5.1": ("s.unpack(self, True)",),
    "5.2": ("tuple(isinstance(a, Tensor) and a.requires_grad for a in args)",),
    "5.3": ("[results[i] for i in self._tensor_positions]",),
    "5.4": ("15 * input ** 2 - 3", "(15x² − 3) / 2", "(15x² - 3) / 2", "15x^2", "(15 * x ** 2 - 3) / 2"),
    "5.5": ("not any(out is t for t in self._non_differentiable)",),
    "5.6": ("record(Tensor._wrap(leaf._array), Error(), leaf)", "a new Error node, leaf",
            "result.detach().requires_grad_()"),
    "5.7": ("ctx.mark_non_differentiable(index)",),
    "C5": ("grad_output * x / r", "grad_output * y / r", "(x * x_tangent + y * y_tangent) / r",
           "∂r/∂x = x / r", "(x dx + y dy) / r", r"(3 \cdot 1 + 4 \cdot 2) / 5"),
}
