"""Chapter 7's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from . import checks

RULES = "rules/chapter7.py"
LAYER_NORM_X = "rstd * (g - _mean(g, dims) - x_hat * _mean(g * x_hat, dims))"
TANH_SLOPE = "slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_SCALE * (1 + 3 * _TANH_CUBE * x * x)"

MUTANTS = {  # name -> (step, [(file, the reference's text, the learner's version)], the sentence naming it)
    "embedding rows assigned, not added": (
        "7.1", [(RULES, "np.add.at(table, flat, grad.reshape(-1, dim))", "table[flat] = grad.reshape(-1, dim)")],
        checks.ROWS_ASSIGNED),
    "embedding's padding row trained": ("7.1", [(RULES, "        table[padding_idx] = 0\n", "        pass\n")],
                                        checks.PADDING_TRAINED),
    "layer norm's statistics taken as constants": ("7.2", [(RULES, LAYER_NORM_X, "rstd * g")],
                                                   checks.STATISTICS_AS_CONSTANTS),
    "layer norm without the variance's part": ("7.2", [(RULES, LAYER_NORM_X, "rstd * (g - _mean(g, dims))")],
                                               checks.STATISTICS_AS_CONSTANTS),
    "layer norm's weight summed over the normalised dimensions": (
        "7.2", [(RULES, "_sum(grad * x_hat, leading)", "_sum(grad * x_hat, dims)")], checks.PARAMETERS_WRONG_DIMS),
    "layer norm's bias not summed": ("7.2", [(RULES, "_sum(grad, leading)", "grad")], checks.PARAMETERS_WRONG_DIMS),
    "masked_fill passes the gradient where filled": ("7.3", [(RULES, "    return _zero_where(grad, mask)\n",
                                                              "    return grad\n")], checks.PASSED_WHERE_FILLED),
    "masked_fill keeps the filled positions": (
        "7.3", [(RULES, "    return _zero_where(grad, mask)\n", "    return grad - _zero_where(grad, mask)\n")],
        checks.FILLED_THE_WRONG_PLACES),
    "masked_fill's value gradient not summed": (
        "7.3", [(RULES, "_zero_where(grad, inverted).sum()", "_zero_where(grad, inverted)")], checks.VALUE_NOT_SUMMED),
    "masked_fill's value gradient from every position": (
        "7.3", [(RULES, "_zero_where(grad, inverted).sum()", "grad.sum()")], checks.VALUE_NOT_SUMMED),
    "gelu without the x·φ(x) term": ("7.4", [(RULES, "        slope += cdf\n        return grad * slope\n",
                                              "        return grad * cdf\n")], checks.ONLY_THE_CDF),
    "gelu's tanh form without the inner derivative": (
        "7.4", [(RULES, TANH_SLOPE, "slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t)")], checks.TANH_INNER_FORGOTTEN),
}
