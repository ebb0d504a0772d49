"""Chapter 7's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "7.1": ("np.add.at(table, flat", "table[padding_idx] = 0", "index_add(zeros(num_weights",
            "(flat != padding_idx)", "each row of the table gets the sum of the gradients of its lookups",
            "adding where an index repeats"),
    "7.2": ("g - _mean(g, dims) - x_hat * _mean(g * x_hat, dims)", "mean(g) - x̂ · mean(g · x̂)", "g − mean(g) − x̂·mean(g·x̂)",
            "g - mean(g) - x̂", "rstd · (g - mean(g)", "_sum(grad * x_hat, leading)", "_sum(grad, leading)",
            "dweight = Σ grad · x̂", "Σ grad · x̂"),
    "7.3": ("_zero_where(grad, mask)", "_zero_where(grad, inverted)", "_zero_where(grad, ~mask)",
            "their gradient is 0", "so the input gets 0 there", "gets the gradients of every filled position"),
    "7.4": ("Φ(x) + x φ(x)", "Φ(x) + x·φ(x)", "Φ(x) + x * φ(x)", "Φ(x) + xφ(x)", "cdf + x * _INV_SQRT_2PI",
            "slope += cdf", "0.5 * (1 + t) + 0.5 * x * (1 - t * t)", "σ(x) (1 + x (1 - σ(x)))",
            "(1 + 3 * _TANH_CUBE * x * x)"),
}
