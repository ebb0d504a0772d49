"""Chapter 4's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "4.1": (
        N_("backward(gradient) computes v^T J: the v you give must have the output's shape, since it weighs "
           "each element of the output."),
        N_("Turn what was given (a tensor, nested lists, a number) into a tensor of the output's dtype, compare "
           "the shapes and raise PyTorch's message if they differ, then give the engine what it needs: the "
           "tensor itself with create_graph, else its array in the output's dtype."),
    ),
    "4.2": (
        N_("Gradients add up: a second backward adds to .grad instead of replacing it, which is why training "
           "loops call zero_grad(). PyTorch adds in place, so whoever holds .grad sees the sum."),
        N_("Two cases, told apart by what arrives. An array (an ordinary backward): add it into .grad's own "
           "array and count one in-place change, even when .grad has a history, which it keeps. A tensor "
           "(backward with create_graph=True): the sum must be recorded, so .grad becomes a new tensor."),
    ),
    "4.3": (
        N_("zero_() is an in-place operation: the same tensor, the same memory, every element 0, and one more "
           "version, so a saved copy of it knows it changed."),
        N_("Write zeros into the existing array (no new array), count a version, and return the tensor itself."),
    ),
    "4.4": (
        N_("Once a node has run, what it saved for backward is no longer needed: letting go of it gives the "
           "memory back, unless the graph is retained for another backward."),
        N_("Two functions of saved_tensor.py: release_saved(node) goes over everything in node._saved and releases each SavedTensor "
           "(other entries, such as None, are left alone); a SavedTensor's release forgets both its array and "
           "its tensor."),
    ),
    "4.5": (
        N_("A forward rule answers: if the inputs move by their tangents, how much does the output move? "
           "That is the derivative applied to the tangents, J·t, one term per input that moves."),
        N_("Start from nothing and add one term for each input whose tangent is not None: that tangent "
           "multiplied by the derivative of the output with respect to that input, read from what the node "
           "saved. For matrices keep each factor on its side; for a power, n = 0 gives zeros."),
    ),
    "4.6": (
        N_("A backward pass seeded with v gives vᵀ·J; with v one-hot at output element i, that is row i of J. "
           "One backward per output element gives every row."),
        N_("Call f on a detached copy of x that requires grad. For each output element, make a seed of zeros "
           "shaped like y with a single 1, ask autograd.grad for the gradient with respect to x (keeping the "
           "graph for the next row), and collect the rows. Stack them and reshape to y's shape then x's."),
    ),
    "4.7": (
        N_("A forward pass where x moves along the one-hot tangent e_j gives J·e_j, column j of J. One forward "
           "pass per input element gives every column."),
        N_("For each element of x: make a one-hot tangent shaped like x, open a dual level, call f on the dual "
           "tensor made of x and that tangent, and read the output's tangent with unpack_dual (None means the "
           "output does not depend on x: zeros). Stack the columns on a new last axis, then reshape."),
    ),
    "4.8": (
        N_("A shape operation moves or copies elements without computing new ones, so each input element receives "
           "the gradients of the output positions it went to: the gradient is moved back, or summed over the "
           "copies, until it has the input's shape."),
        N_("permute: the gradient's axis i came from input axis dims[i], and each must go back where it came "
           "from. transpose: two axes swapped. expand: chapter 1 has the function that undoes broadcasting. "
           "unsqueeze and squeeze undo each other, but squeeze(dim) may have removed nothing. Each rule works on "
           "arrays and on tensors."),
    ),
    "C4": (
        N_("A dual number carries a value and a tangent, how fast the value changes. Each operation computes "
           "its value as usual and its tangent by the derivative rule, so f(Dual(x, t)) carries f(x) and J·t."),
        N_("Turn a plain number into a dual with tangent 0. Each operation computes its value as usual, and its "
           "tangent from the values and tangents it is given, by the rule of that operation: the sum rule, the "
           "product rule, and for sin and exp the chain rule."),
    ),
}
