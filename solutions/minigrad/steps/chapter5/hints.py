"""Chapter 5's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "5.1": (
        N_("forward keeps what backward will need on the ctx; backward reads it back. In between, the engine "
           "wraps each saved tensor so it can be checked and freed."),
        N_("save_for_backward only keeps the tuple it was given, in _to_save (apply wraps them later). "
           "saved_tensors unpacks each entry of _saved as a tensor, and gives None back as None."),
    ),
    "5.2": (
        N_("apply tells forward which arguments want a gradient, runs your forward without recording inside it, "
           "then puts one node, the ctx, in the graph for the whole call, if the call is recorded."),
        N_("First needs_input_grad, one flag per argument (a number or a string is never a tensor that requires "
           "grad). Then forward under no_grad with run_forward; ask should_record about the tensor arguments; "
           "fresh_outputs, told whether the call is recorded; _link when it is; give back one tensor or the "
           "tuple, as forward did."),
    ),
    "5.3": (
        N_("The engine speaks in arrays, your backward in tensors: the node translates, calls your backward, "
           "and checks that it returned one gradient per argument of forward."),
        N_("Turn each incoming gradient into a tensor with _grad_tensor, call backward, wrap a single result "
           "in a tuple, refuse a wrong count with PyTorch's message, keep only the gradients of tensor "
           "arguments (_tensor_positions), and hand arrays back unless grad mode is on."),
    ),
    "5.4": (
        N_("A custom Function is the maths written twice: forward computes P3(x), backward multiplies the gradient "
           "that arrives by the derivative P3'(x) at the same x. So forward must leave x on the ctx."),
        N_("Differentiate (5x³ − 3x) / 2 term by term (the power rule: x³ gives 3x²). forward: save the input, "
           "return P3 of it with tensor operations. backward: read the input back, return grad_output times "
           "P3'(input), one gradient for the one argument.")
    ),
    "5.5": (
        N_("Forward's marks are only remembered on the ctx; once forward has returned, the machinery heeds them: "
           "a marked output takes no node. And backward always receives one gradient per output: for an output "
           "that got none, zeros like that output, unless the user asked for None, or the output is not a tensor."),
        N_("The two ctx methods only keep what they are given for later (_non_differentiable, _materialize). "
           "_unmarked: first refuse a mark that is not a tensor (PyTorch's words); then an output takes a node only "
           "if it did before and is none of the marked tensors, found by identity, never by value. _grad_tensor, "
           "when no gradient arrived: what is known of that output (_outputs_meta) and the ctx's choice decide "
           "between None and zeros."),
    ),
    "5.6": (
        N_("A backward marked @once_differentiable runs untracked, so its results have no history of their own. "
           "When someone could differentiate them again, they get an Error node as history, whose backward "
           "raises."),
        N_("wrapper: run backward under no_grad. When nobody could differentiate the results again (grad mode "
           "off, or no incoming gradient is a tensor that requires grad), they go back as they are. Otherwise each "
           "result goes back behind an error: several in a tuple, a single one alone. _behind_error: None stays None; "
           "any other result comes back with the same numbers, but with a history that leads to an Error node, "
           "whose input is a leaf that requires grad."),
    ),
    "5.7": (
        N_("The maximum depends on one element only, the one that won: its gradient goes there, and every other "
           "element gets 0. The index has no gradient; it only says where."),
        N_("forward: besides the maximum, its index (argmax), which takes no gradient and which backward needs, "
           "and the input's shape, which backward needs too. backward: a gradient of the input's shape and of "
           "grad_value's dtype, with grad_value at the index and 0 elsewhere; the index counts in the flattened "
           "input."),
    ),
    "C5": (
        N_("Reverse mode asks: given the gradient of r, what are the gradients of x and y? Forward mode asks the "
           "other way: given how x and y move (their tangents), how does r move? Both need the same two partial "
           "derivatives of r = √(x² + y²): work them out first, and write them with r. Each mode reads its own "
           "saved tensors."),
        N_("forward: compute r with tensor operations; save what backward needs with save_for_backward, and what "
           "jvp needs with save_for_forward. backward: two gradients, one per argument. jvp: one tangent, r's, "
           "the sum of both inputs' contributions.")    ),
}
