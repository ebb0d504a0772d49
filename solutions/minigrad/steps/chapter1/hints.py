"""Chapter 1's hints, shown one at a time by ``minigrad.hint(step)``: the idea, the shape of the answer,
then pseudocode in words. Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "1.1": (
        N_("A node is worth recording only if a gradient could ever flow through it: that needs grad mode on "
           "and at least one input that wants a gradient."),
        N_("First look at grad mode (grad_mode._enabled); if it is off, the answer is already known. Otherwise "
           "look at the inputs one by one. Inputs may be Python numbers, which have no requires_grad at all."),
    ),
    "1.2": (
        N_("The gradient for an input travels to whatever produced that input: the node that computed it, or, "
           "for a leaf, the node that stores into its .grad."),
        N_("Three cases, in this order: the input has a grad_fn; the input is a leaf that requires grad; "
           "anything else (a constant, a number). Read the attributes with getattr, since a number has none."),
    ),
    "1.3": (
        N_("Broadcasting copied one value to many places, so in backward the gradients of all those copies "
           "add up into that one value: summing is the adjoint of copying."),
        N_("Two kinds of stretched axes: the extra leading axes that broadcasting added, and the axes where the "
           "target shape has 1 but the gradient does not. Sum over both, then give the result the target "
           "shape. It must work on numpy arrays and on tensors (their sum takes dim= and keepdim=)."),
    ),
    "1.4": (
        N_("For out = a * b, a small change of a changes out by b times as much: the gradient for a is the "
           "incoming gradient times the other factor, and the other way round."),
        N_("Work out each input's gradient only when needs_input_grad asks for it (None otherwise). The product "
           "has the broadcast shape; each gradient must be brought back to its own input's shape (step 1.3)."),
    ),
    "1.5": (
        N_("A sum passes a small change of either input straight to the output, so each input's gradient is the "
           "incoming gradient, except that other counts alpha times, and with a minus sign in a subtraction."),
        N_("Read alpha from what the node saved and which inputs need a gradient. For self: the incoming gradient, "
           "brought back to self's shape. For other: the incoming gradient times alpha (add) or times -alpha "
           "(sub), brought back to other's shape. None for an input that needs none; a tuple of two."),
    ),
    "1.6": (
        N_("a / b is a times 1 / b. Growing a grows the quotient by 1 / b per unit; growing b shrinks it, by "
           "a / b² per unit (the derivative of 1 / b is -1 / b²)."),
        N_("The node saved both inputs, self first, but self only when other needs a gradient, so compute each "
           "gradient only when its input needs it. Both inputs may have been broadcast: sum each gradient back "
           "to its own shape."),
    ),
    "1.7": (
        N_("The power rule: the derivative of x ** n is n * x ** (n - 1). With a tensor exponent e, also "
           "d(x ** e)/de = x ** e * log(x), and the result x ** e is saved, so it need not be computed again."),
        N_("x ** 0 is the constant 1: its gradient is 0 everywhere, even at 0. For two tensors PyTorch writes 0 "
           "where the exponent is 0 (gradient for the base) and where the base is 0 and the exponent at least 0 "
           "(gradient for the exponent): replace those places with zeros_where. log is not an operator: use "
           "dispatch to pick numpy's or minigrad's."),
    ),
    "1.8": (
        N_("exp is its own derivative, so its node keeps its result; the derivative of log(x) is 1 / x, so its node "
           "keeps its input. sqrt and tanh keep their results too: both derivatives can be written with them. Each "
           "node keeps exactly the value its rule is written with."),
        N_("The one saved value is already in hand: apply the chain rule, incoming gradient times the local "
           "derivative, written with that value. No broadcasting here: the output has the input's shape. For sqrt "
           "and tanh, first rewrite the derivative in terms of the result: sqrt(x) is x to the power 1/2, and "
           "the derivative of tanh is 1 minus tanh squared."),
    ),
    "C1": (
        N_("Away from its kinks each function is a line: abs has slope -1 or 1, clamp has slope 1 inside its "
           "bounds and 0 outside. At a kink PyTorch picks one value: 0 for abs at 0, and 1 for clamp exactly at "
           "a bound."),
        N_("abs: the slope is the sign of the input, and the sign of 0 is 0. clamp: the gradient passes where "
           "the input is at least min and at most max, comparisons that both arrays and tensors make; a bound "
           "that is None does not limit its side. sign is no operator: dispatch picks numpy's or minigrad's."),
    ),
}
