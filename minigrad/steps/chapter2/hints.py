"""Chapter 2's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "2.1": (
        N_("A node may only run once every node that sends it a gradient has run: count, for each node, how "
           "many edges point into it."),
        N_("A walk over the graph from the root with your own stack (a list), never recursion. Remember the "
           "nodes already seen so each is walked once, but count every edge, even a second edge from the "
           "same node (as in a + a). The root starts at 0."),
    ),
    "2.2": (
        N_("The first gradient a leaf receives becomes its .grad, but it must be its own: the engine may hand "
           "the same array to someone else."),
        N_("Only the case .grad is None is yours. What you store must be a tensor that owns its numbers, sharing "
           "no array with the engine, in the leaf's own dtype."),
    ),
    "2.3": (
        N_("A node runs when all its gradients have arrived, and then passes its results on. Among the nodes "
           "ready at the same time, PyTorch runs the one created last first."),
        N_("The queue: a heap whose order lets the largest _seq out first, with a tie-breaker so that equal keys "
           "leave in the order they came. The loop: take the next ready node, run it on its buffer, note it, free "
           "it unless the graph is kept, then deliver each of its results along its edge, into the slot that edge "
           "names. A node gets its buffer when the first edge reaches it (even one carrying None), and is ready once "
           "every edge into it has delivered; gradients meeting in one slot must not be lost."),
    ),
    "2.4": (
        N_("Each entry of a @ b is a dot product of a row of a and a column of b: the gradient of a row of a "
           "gathers the incoming gradient against the columns of b."),
        N_("Let the shapes guide you: a is (m, k), b is (k, n), grad is (m, n). The gradient for a must be "
           "(m, k) and the one for b (k, n): only one product of grad with a transpose has each shape. "
           "Compute each only if needs_input_grad asks."),
    ),
    "2.5": (
        N_("Each element of the input went into one output of the sum, once, with weight 1: it gets that "
           "output's gradient, whole. The gradient has the sum's shape; the answer has the input's."),
        N_("First line the gradient up with the input: with keepdim=False, give back each summed dimension its "
           "place, with size 1 (sorted, so the indices stay right); with keepdim=True it is already there. Then "
           "broadcast to the input's shape with _expand, which works on arrays and tensors."),
    ),
    "2.6": (
        N_("A mean is a sum scaled by a constant, set by how many elements each output was taken over: its "
           "gradient follows from the sum's (2.5)."),
        N_("For the mean of everything, n is the saved numel. For a mean over some dimensions it is not: each "
           "output is the mean of one slice, whose size is the product of the sizes of the reduced dimensions "
           "(a 0-dim input has one element). Reuse 2.5's helpers for the shapes."),
    ),
    "2.7": (
        N_("Both nodes saved their result, not their input: write each derivative in terms of that result, then "
           "multiply it by the incoming gradient (the chain rule)."),
        N_("relu: its result is above 0 exactly where the input was; read relu's slope on each side off its "
           "graph, and at 0 itself PyTorch takes the slope 0. sigmoid: differentiate 1 / (1 + exp(-x)), then "
           "write the derivative with s = sigmoid(x) alone. Use operators that arrays and tensors both have."),
    ),
    "2.8": (
        N_("Per element the loss is (1 - y) z + softplus(-z) (times a weight): differentiate it by hand for z, "
           "then for y. The softplus's derivative brings σ(z) in; the loss is a straight line in y."),
        N_("backward: the common factor is the incoming gradient, times the weights if any, over n (the number "
           "of elements) for reduction 'mean' (saved as the number MEAN). Each input's gradient is that factor "
           "times its slope, only if needs_input_grad asks. With a pos_weight p, the softplus term is weighted "
           "1 + (p - 1) y: redo both derivatives with it."),
    ),
    "C2": (
        N_("Within a slice, s_i = exp(x_i) / Σ_j exp(x_j): every s_i depends on every x_j, through the shared "
           "denominator. Differentiate s_i for x_j, with j = i and with j ≠ i, and write both with s alone."),
        N_("The gradient for x_j gathers grad_i times ds_i/dx_j over i. One term of it is j's own; the other "
           "is the same for the whole slice: a sum over the slice, kept as a dimension of size 1 so that it "
           "broadcasts back (_sum_kept). For log_softmax, the saved values are log s: take their exp for s."),
    ),
}
