"""Chapter 1's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
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
        N_("Broadcasting copied one value to many places. A small change of that value changes every copy at "
           "once, so in backward that one value must receive what each of its copies received."),
        N_("Two kinds of stretched axes: the extra leading axes that broadcasting added, and the axes where the "
           "target shape has 1 but the gradient does not. Sum over both, then give the result the target "
           "shape. It must work on numpy arrays and on tensors (their sum takes dim= and keepdim=)."),
    ),
    "1.4": (
        N_("For out = a * b, ask how much out moves when a moves a little and b stays put, then the same for b. "
           "The chain rule applies each of those rates to the incoming gradient."),
        N_("Work out each input's gradient only when needs_input_grad asks for it (None otherwise). The product "
           "has the broadcast shape; each gradient must be brought back to its own input's shape (step 1.3)."),
    ),
    "1.5": (
        N_("Ask how much the output moves when one input moves a little and the other stays put. Read it off the "
           "operation itself: self + alpha * other, or self - alpha * other. The chain rule applies that rate to "
           "the incoming gradient."),
        N_("Read alpha from what the node saved, and which inputs need a gradient. Then one gradient per input, "
           "each made from the incoming gradient and brought back to its own input's shape; None for an input "
           "that needs none; return a tuple of two."),
    ),
    "1.6": (
        N_("a / b is a times 1 / b. Seen from a, the quotient is a straight line. Seen from b, write 1 / b as b "
           "to the power -1 and differentiate it, minding the sign: the quotient shrinks when b grows."),
        N_("The node saved both inputs, self first, but self only when other needs a gradient, so compute each "
           "gradient only when its input needs it. Both inputs may have been broadcast: sum each gradient back "
           "to its own shape."),
    ),
    "1.7": (
        N_("Two derivatives. For the base, the power rule of calculus. For a tensor exponent e, write x ** e as "
           "exp(e * log(x)) and differentiate with respect to e. The result x ** e is saved: use it rather than "
           "computing it again."),
        N_("x ** 0 is the constant 1: its gradient is 0 everywhere, even at 0. For two tensors PyTorch writes 0 "
           "where the exponent is 0 (gradient for the base) and where the base is 0 and the exponent at least 0 "
           "(gradient for the exponent): replace those places with zeros_where. log is not an operator: use "
           "dispatch to pick numpy's or minigrad's."),
    ),
    "1.8": (
        N_("Each node keeps exactly the value its rule is written with: exp, sqrt and tanh keep their results, log "
           "keeps its input. Write each derivative with that saved value as it is, never with a value recomputed "
           "from it."),
        N_("The one saved value is already in hand: apply the chain rule, incoming gradient times the local "
           "derivative, written with that value. No broadcasting here: the output has the input's shape. For sqrt "
           "and tanh, first rewrite the derivative in terms of the result: sqrt(x) is x to the power 1/2 (1.7's "
           "rule), and tanh is sinh / cosh (the quotient rule)."),
    ),
    "C1": (
        N_("Away from its kinks each function is a straight line: read its slope off its graph, on each side. At a "
           "kink the derivative is not defined and PyTorch picks one value: 0 for abs at 0, and 1 for clamp exactly "
           "at a bound."),
        N_("abs: one elementwise function of the input already gives the slope on both sides and at 0 (it is no "
           "operator: dispatch picks numpy's or minigrad's). clamp: a mask of where the gradient passes, made from "
           "two comparisons that both arrays and tensors make; a bound that is None does not limit its side."),
    ),
}
