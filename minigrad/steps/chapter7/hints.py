"""Chapter 7's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "7.1": (
        N_("Each row of out is a copy of one row of the table: that row of the table gets the gradient of that row "
           "of out, whole. A row can be read many times, and each read sends its own gradient back."),
        N_("Flatten the gradient to one row per index (grad.reshape(-1, dim)), then send each row to the table row "
           "its index names, in a table of zeros, so that repeated indices add up: numpy's fancy assignment does not "
           "(np.add.at does). Then the padding row. For a tensor gradient, the same with operations: index_add adds "
           "rows at indices, and a multiplication by 0 or 1 leaves rows out."),
    ),
    "7.2": (
        N_("x̂ depends on each x_j three ways: directly, through the mean, and through rstd. The chain rule adds "
           "the three. weight and bias work element by element, the same at every leading position."),
        N_("Write g for the gradient reaching x̂ (grad, times weight if there is one). The mean's part and rstd's "
           "part are each a mean over the slice (_mean, over dims), one of g and one of g times x̂; check on "
           "x = [1, 2, 3] that the answer sums to 0 and is orthogonal to x̂. weight's and bias's gradients: _sum over "
           "the leading dimensions. Under create_graph, first recompute mean and rstd from x with operations."),
    ),
    "7.3": (
        N_("Where the mask is False, out is x: the gradient passes unchanged. Where it is True, out is the value, "
           "whatever x is. value, a tensor, is one number that reached every position the mask chose."),
        N_("_zero_where(grad, some_mask) gives grad with 0 where some_mask is True. x's gradient uses the mask as it "
           "is; value's keeps the other positions' gradients out (the mask flipped), then gathers the rest into one "
           "number (.sum()). Each only if needs_input_grad asks."),
    ),
    "7.4": (
        N_("out = x · Φ(x) is a product of two functions of x: the product rule. Φ is the normal distribution's "
           "cumulative function, and its derivative is the normal density, φ(x) = exp(−x²/2) / √(2π)."),
        N_("Exact GELU: with x an array, the saved cdf is Φ(x): add to it the other term of the product rule "
           "(_INV_SQRT_2PI, np.exp), then multiply by grad. Under create_graph, compute Φ(x) with erf "
           "(dispatch with special.erf_array and special.erf). tanh: out = x · (1 + tanh(u)) / 2, u = _TANH_SCALE · "
           "(x + _TANH_CUBE · x³): the product rule again, tanh′ = 1 − tanh², and the chain rule through u."),
    ),
}
