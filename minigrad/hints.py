"""``minigrad.hint("2.3")``: help for a stuck learner, one rung at a time.

Each step has up to three hints, from least to most telling: the idea, then the shape
of the algorithm, then pseudocode. Never the code itself: the learner still writes every
line. Each call shows the next hint of that step, so a learner who needs one idea reads
only that one. The hints are catalogue messages, shown in the learner's language.
"""
from .messages import N_, say

HINTS = {
    "1.1": (
        N_("A node is worth recording only if a gradient could ever flow through it: that needs grad mode on "
           "and at least one input that wants a gradient."),
        N_("First look at grad mode (grad_mode._enabled); if it is off, the answer is already known. Otherwise "
           "look at the inputs one by one. Inputs may be Python numbers, which have no requires_grad at all."),
        N_("if grad mode is off: answer no\nfor each input: if it has requires_grad and it is true: answer yes\n"
           "answer no"),
    ),
    "1.2": (
        N_("The gradient for an input travels to whatever produced that input: the node that computed it, or, "
           "for a leaf, the node that stores into its .grad."),
        N_("Three cases, in this order: the input has a grad_fn; the input is a leaf that requires grad; "
           "anything else (a constant, a number). Read the attributes with getattr, since a number has none."),
        N_("if x has a grad_fn: the edge is (that node, the output number x came from, x._output_nr)\n"
           "else if x requires grad: the edge is (the leaf's shared accumulator, 0)\nelse: (None, 0)"),
    ),
    "1.3": (
        N_("Broadcasting copied one value to many places, so in backward the gradients of all those copies "
           "add up into that one value: summing is the adjoint of copying."),
        N_("Two kinds of stretched axes: the extra leading axes that broadcasting added, and the axes where the "
           "target shape has 1 but the gradient does not. Sum over both, then give the result the target "
           "shape. It must work on numpy arrays and on tensors (their sum takes dim= and keepdim=)."),
        N_("if the shapes are equal: give grad back unchanged\nlead = number of extra leading axes\n"
           "axes = the lead axes, plus every later axis where shape has 1 and grad has more\n"
           "sum grad over axes, keeping the dimensions (numpy: keepdims, tensors: keepdim)\n"
           "reshape the sum to shape"),
    ),
    "1.4": (
        N_("For out = a * b, a small change of a changes out by b times as much: the gradient for a is the "
           "incoming gradient times the other factor, and the other way round."),
        N_("Work out each input's gradient only when needs_input_grad asks for it (None otherwise). The product "
           "has the broadcast shape; each gradient must be brought back to its own input's shape (step 1.3)."),
        N_("for a: if needed, sum_to(grad times b, a's shape), else None\n"
           "for b: if needed, sum_to(grad times a, b's shape), else None\nreturn both, a's first"),
    ),
    "1.5": (
        N_("A sum passes a small change of either input straight to the output, so each input's gradient is the "
           "incoming gradient, except that other counts alpha times, and with a minus sign in a subtraction."),
        N_("Read alpha from what the node saved and which inputs need a gradient. For self: the incoming gradient, "
           "brought back to self's shape. For other: the incoming gradient times alpha (add) or times -alpha "
           "(sub), brought back to other's shape. None for an input that needs none; a tuple of two."),
        N_("alpha = the one saved value; need a, need b = the node's needs_input_grad\n"
           "gradient for a = sum_to(grad, a's shape) if a needs one, else None\n"
           "scaled = grad times alpha, negated for sub (skip the multiplication when alpha is 1)\n"
           "gradient for b = sum_to(scaled, b's shape) if b needs one, else None\nreturn the pair"),
    ),
    "1.6": (
        N_("a / b is a times 1 / b. Growing a grows the quotient by 1 / b per unit; growing b shrinks it, by "
           "a / b² per unit (the derivative of 1 / b is -1 / b²)."),
        N_("The node saved both inputs, self first, but self only when other needs a gradient, so compute each "
           "gradient only when its input needs it. Both inputs may have been broadcast: sum each gradient back "
           "to its own shape."),
        N_("a, b = the saved values\ngradient for a = sum_to(grad divided by b, a's shape) if needed, else None\n"
           "gradient for b = sum_to(minus grad times a divided by b squared, b's shape) if needed, else None\n"
           "return the pair"),
    ),
    "1.7": (
        N_("The power rule: the derivative of x ** n is n * x ** (n - 1). With a tensor exponent e, also "
           "d(x ** e)/de = x ** e * log(x), and the result x ** e is saved, so it need not be computed again."),
        N_("x ** 0 is the constant 1: its gradient is 0 everywhere, even at 0. For two tensors PyTorch writes 0 "
           "where the exponent is 0 (gradient for the base) and where the base is 0 and the exponent at least 0 "
           "(gradient for the exponent): replace those places with zeros_where. log is not an operator: use "
           "dispatch to pick numpy's or minigrad's."),
        N_("number exponent n: if n is 0, the gradient is grad times 0; else grad times (n times power(x, n - 1))\n"
           "tensor exponent e: for x, zeros where e is 0 in grad times (e times x ** (e - 1)), summed to x's shape\n"
           "for e, grad times (zeros where x is 0 and e >= 0 in result times log(x)), summed to e's shape\n"
           "None for an input that needs no gradient; return the pair"),
    ),
    "1.8": (
        N_("exp is its own derivative, so its node keeps its result; the derivative of log(x) is 1 / x, so its node "
           "keeps its input. sqrt and tanh keep their results too: both derivatives can be written with them. Each "
           "node keeps exactly the value its rule is written with."),
        N_("The one saved value is already in hand: apply the chain rule, incoming gradient times the local "
           "derivative, written with that value. No broadcasting here: the output has the input's shape. For sqrt "
           "and tanh, first rewrite the derivative in terms of the result: sqrt(x) is x to the power 1/2, and "
           "the derivative of tanh is 1 minus tanh squared."),
        N_("exp: grad times the saved value (the result)\nlog: grad divided by the saved value (the input)\n"
           "sqrt: grad divided by twice the saved value (the result)\n"
           "tanh: grad times (one minus the square of the saved value, the result)"),
    ),
    "C1": (
        N_("Away from its kinks each function is a line: abs has slope -1 or 1, clamp has slope 1 inside its "
           "bounds and 0 outside. At a kink PyTorch picks one value: 0 for abs at 0, and 1 for clamp exactly at "
           "a bound."),
        N_("abs: the slope is the sign of the input, and the sign of 0 is 0. clamp: the gradient passes where "
           "the input is at least min and at most max, comparisons that both arrays and tensors make; a bound "
           "that is None does not limit its side. sign is no operator: dispatch picks numpy's or minigrad's."),
        N_("abs: grad times the sign of x\n"
           "clamp: lower = min, or minus infinity if None; upper = max, or infinity if None\n"
           "inside = (x at least lower) and (x at most upper), as numbers 0 and 1\nreturn grad times inside"),
    ),
    "2.1": (
        N_("A node may only run once every node that sends it a gradient has run: count, for each node, how "
           "many edges point into it."),
        N_("A walk over the graph from the root with your own stack (a list), never recursion. Remember the "
           "nodes already seen so each is walked once, but count every edge, even a second edge from the "
           "same node (as in a + a). The root starts at 0."),
        N_("counts = {root: 0}; stack = [root]\nwhile the stack is not empty:\n  node = pop one\n"
           "  for each (next, _) in node.next_functions, skipping None:\n"
           "    if next is new: counts[next] = 0 and push next\n    add 1 to counts[next]\nreturn counts"),
    ),
    "2.2": (
        N_("The first gradient a leaf receives becomes its .grad, but it must be its own: the engine may hand "
           "the same array to someone else."),
        N_("Only the case .grad is None is yours. Make a new numpy array from grad (a copy), in the leaf's own "
           "dtype, and wrap it as a tensor."),
        N_("when the leaf has no gradient yet (its _grad is None):\n  variable._grad = a tensor wrapping a copy of grad in the leaf's "
           "dtype\n  stop here"),
    ),
    "2.3": (
        N_("A node runs when all its gradients have arrived, and then passes its results on. Among the nodes "
           "ready at the same time, PyTorch runs the one created last first."),
        N_("The queue: a heap keyed by minus _seq (newest first), with a counter as a tie-breaker, first "
           "pushed first. The loop: pop, run the node on its buffer, note it, release it unless keep_graph, "
           "then deliver each result along its edge: make the buffer when an edge first reaches a node (even "
           "with None), add (never overwrite) into slot nr, count the dependency down, push when it reaches 0."),
        N_("while the queue is not empty:\n  node = pop; results = run it (run_node) on the buffer you take out of buffers\n"
           "  note node in order; release it unless keep_graph\n"
           "  for each edge (next, nr) and its result g:\n    skip a None next\n"
           "    make buffers[next] = [None] * next._num_outputs if it has none\n"
           "    if g is not None: g = validate(...); slot nr = g, or slot nr + g if it held one\n"
           "    dependencies[next] -= 1; if it is 0: push next"),
    ),
    "2.4": (
        N_("Each entry of a @ b is a dot product of a row of a and a column of b: the gradient of a row of a "
           "gathers the incoming gradient against the columns of b."),
        N_("Let the shapes guide you: a is (m, k), b is (k, n), grad is (m, n). The gradient for a must be "
           "(m, k) and the one for b (k, n): only one product of grad with a transpose has each shape. "
           "Compute each only if needs_input_grad asks."),
        N_("for a: if needed, grad times the transpose of b, else None\n"
           "for b: if needed, the transpose of a times grad, else None\n(use _transpose, which works on arrays "
           "and tensors)"),
    ),
    "2.5": (
        N_("Each element of the input went into one output of the sum, once, with weight 1: it gets that "
           "output's gradient, whole. The gradient has the sum's shape; the answer has the input's."),
        N_("First line the gradient up with the input: with keepdim=False, give back each summed dimension its "
           "place, with size 1 (sorted, so the indices stay right); with keepdim=True it is already there. Then "
           "broadcast to the input's shape with _expand, which works on arrays and tensors."),
        N_("_restored: if keepdim (or the input had no dimensions): nothing to do\n"
           "  otherwise insert an axis of size 1 at each summed dimension, smallest first\n"
           "  (arrays: numpy's expand_dims; tensors: unsqueeze, one dimension at a time)\n"
           "SumBackward0: expand grad to shape\nSumBackward1: expand the restored grad to shape"),
    ),
    "2.6": (
        N_("A mean is a sum times 1/n, where n is how many elements each output was taken over: its gradient is "
           "the sum's, times 1/n."),
        N_("For the mean of everything, n is the saved numel. For a mean over some dimensions it is not: each "
           "output is the mean of one slice, whose size is the product of the sizes of the reduced dimensions "
           "(a 0-dim input has one element). Reuse 2.5's helpers for the shapes."),
        N_("MeanBackward0: expand grad / numel to shape\n"
           "MeanBackward1: n = 1; for d in dims: n times the size of dimension d\n"
           "  expand (the restored grad) / n to shape"),
    ),
    "2.7": (
        N_("Both nodes saved their result, not their input: write each derivative in terms of that result, then "
           "multiply it by the incoming gradient (the chain rule)."),
        N_("relu: its result is above 0 exactly where the input was, and there the slope is 1; elsewhere, at 0 "
           "included, PyTorch takes the slope 0. sigmoid: the slope of s = sigmoid(x) is a product of s and "
           "1 - s. Use operators that arrays and tensors both have."),
        N_("relu: grad times (1 where result > 0, else 0)\n"
           "  (np.sign of the result is such a mask for arrays, sign for tensors; dispatch picks one)\n"
           "sigmoid: grad times s times (1 - s), s being the saved result"),
    ),
    "2.8": (
        N_("Per element the loss is (1 - y) z + softplus(-z) (times a weight): differentiate it by hand for z, "
           "then for y. The softplus's derivative brings σ(z) in; the loss is a straight line in y."),
        N_("backward: the common factor is the incoming gradient, times the weights if any, over n (the number "
           "of elements) for reduction 'mean' (saved as the number MEAN). Each input's gradient is that factor "
           "times its slope, only if needs_input_grad asks. With a pos_weight p, the softplus term is weighted "
           "1 + (p - 1) y: redo both derivatives with it."),
        N_("scale = grad, times weight if there is one; if reduction is MEAN: scale / numel of z\n"
           "grad for z = scale times slope for z (if needed); grad for y likewise\n"
           "slope for z, without p: σ(z) - y; with p: (p y + 1 - y) σ(z) - p y\n"
           "slope for y, without p: -z; with p: (p - 1) softplus(-z) - z  (use _sigmoid and _softplus_neg)"),
    ),
    "C2": (
        N_("Within a slice, s_i = exp(x_i) / Σ_j exp(x_j): every s_i depends on every x_j, through the shared "
           "denominator. Differentiate s_i for x_j, with j = i and with j ≠ i, and write both with s alone."),
        N_("The gradient for x_j gathers grad_i times ds_i/dx_j over i. One term of it is j's own; the other "
           "is the same for the whole slice: a sum over the slice, kept as a dimension of size 1 so that it "
           "broadcasts back (_sum_kept). For log_softmax, the saved values are log s: take their exp for s."),
        N_("softmax: s times (grad minus the sum over dim of grad times s)\n"
           "log_softmax: grad minus exp(saved) times the sum over dim of grad\n"
           "(dispatch picks np.exp for arrays and exp for tensors)"),
    ),
    "3.1": (
        N_("Entering the block switches recording off; leaving it must give back the mode it found, not "
           "simply switch recording on: blocks nest, and an exception may leave one early."),
        N_("__enter__ remembers the current mode on the object, then switches it off. __exit__ puts back what "
           "was remembered; Python calls it on an exception too."),
        N_("__enter__: self._prev = the current mode; switch the mode off\n"
           "__exit__: switch the mode to self._prev"),
    ),
    "3.2": (
        N_("detach() gives the same numbers without the history: a new tensor that shares the memory and the "
           "version counter, with no grad_fn and no requires_grad."),
        N_("Wrap the very same array (no copy) in a new tensor, then make it share the version counter, so an "
           "in-place change through either one is seen by both."),
        N_("out = a new tensor around self._array\nout._version_counter = self's version counter\nreturn out"),
    ),
    "3.3": (
        N_("requires_grad_() flips the flag of a leaf. A non-leaf's flag follows from its history, and only "
           "floating point tensors can have gradients."),
        N_("Three cases: a non-leaf (it has a grad_fn), to which True changes nothing and False is an error; "
           "a request on a tensor that is not floating point, an error; otherwise set the flag. Return the "
           "tensor itself, so calls can be chained."),
        N_("if self has a grad_fn:\n  if asked for False: raise a RuntimeError whose message is NOT_LEAF_FLAG\n  return self\n"
           "if asked for True and the dtype is not floating point: raise RuntimeError(PyTorch's words)\n"
           "set the flag; return self"),
    ),
    "3.4": (
        N_("enable_grad is no_grad's mirror: inside the block operations record again, even within a no_grad "
           "block; leaving it gives back whatever mode it found, which may well be off."),
        N_("__enter__ remembers the mode it finds on the object, then switches recording on. __exit__ puts back "
           "what was remembered, on an exception too, and returns nothing so the exception goes on."),
        N_("__enter__: remember the current mode on self; switch the mode on\n"
           "__exit__: switch the mode to what self remembered"),
    ),
    "3.5": (
        N_("set_grad_enabled(mode) does its work when it is called, like any function: `with` only adds the "
           "promise to give the old mode back at the end of the block."),
        N_("The constructor refuses a mode that is not a bool (PyTorch's TypeError), remembers the mode in force, "
           "then switches to the new one, in that order. __enter__ has nothing left to do; __exit__ puts back what "
           "the constructor remembered."),
        N_("__init__: if mode is not a bool: raise TypeError(PyTorch's words, with the type's name)\n"
           "  remember the current mode on self; switch the mode to mode\n"
           "__exit__: switch the mode to what self remembered"),
    ),
    "C3": (
        N_("A decorated function runs each call inside a block of the mode; a decorated generator runs inside the "
           "mode only while it works, and gives the caller's mode back each time it hands out a value."),
        N_("For a function: a fresh context per call (_clone), so recursive calls do not share what they "
           "remember. For a generator: a loop that resumes it (send first, or throw what the caller threw) "
           "inside a fresh context, stops on StopIteration with its value, yields the result outside the "
           "context, and closes the generator inside one when the caller closes."),
        N_("function: with a fresh clone: return func(...)\n"
           "generator: method, value = send, None; loop:\n"
           "  try: in a fresh context: result = the method on the generator with value\n"
           "  on StopIteration: return its value\n"
           "  try: value = (yield result), method = send\n"
           "  on GeneratorExit: close the generator in a fresh context; raise\n"
           "  on any other error: method, value = throw, the error"),
    ),
    "4.1": (
        N_("backward(gradient) computes v^T J: the v you give must have the output's shape, since it weighs "
           "each element of the output."),
        N_("Turn what was given (a tensor, nested lists, a number) into a tensor of the output's dtype, compare "
           "the shapes and raise PyTorch's message if they differ, then give the engine what it needs: the "
           "tensor itself with create_graph, else its array in the output's dtype."),
        N_("if gradient is not a tensor: make it one, in the output's dtype\n"
           "if the shapes differ: raise RuntimeError(\"Mismatch in shape: grad_output[i] has a shape of ... "
           "and output[i] has a shape of ...\")\nif create_graph: return the tensor\n"
           "return its array, in the output's dtype"),
    ),
    "4.2": (
        N_("Gradients add up: a second backward adds to .grad instead of replacing it, which is why training "
           "loops call zero_grad(). PyTorch adds in place, so whoever holds .grad sees the sum."),
        N_("Two cases, told apart by what arrives. An array (an ordinary backward): add it into .grad's own "
           "array and count one in-place change, even when .grad has a history, which it keeps. A tensor "
           "(backward with create_graph=True): the sum must be recorded, so .grad becomes a new tensor."),
        N_("if grad is a tensor:\n  variable._grad becomes the sum of variable._grad and grad (a new tensor)\n"
           "else:\n  add grad into variable._grad's array in place (np.add with out=)\n"
           "  count one more version of variable._grad"),
    ),
    "4.3": (
        N_("zero_() is an in-place operation: the same tensor, the same memory, every element 0, and one more "
           "version, so a saved copy of it knows it changed."),
        N_("Write zeros into the existing array (no new array), count a version, and return the tensor itself."),
        N_("fill tensor._array with 0, in place\nbump the tensor's version\nreturn tensor"),
    ),
    "4.4": (
        N_("Once a node has run, what it saved for backward is no longer needed: letting go of it gives the "
           "memory back, unless the graph is retained for another backward."),
        N_("Two places: the node's _release goes over everything in its _saved and releases each SavedTensor "
           "(other entries, such as None, are left alone); a SavedTensor's release forgets both its array and "
           "its tensor."),
        N_("Node._release: for each value in self._saved: if it is a SavedTensor: value.release()\n"
           "SavedTensor.release: set both self._tensor and self._array to None"),
    ),
    "4.5": (
        N_("A forward rule answers: if the inputs move by their tangents, how much does the output move? "
           "That is the derivative applied to the tangents, J·t, one term per input that moves."),
        N_("Start from nothing and add one term for each input whose tangent is not None: that tangent "
           "multiplied by the derivative of the output with respect to that input, read from what the node "
           "saved. For matrices keep each factor on its side; for a power, n = 0 gives zeros."),
        N_("out = 0\nif the first tangent is not None: out += (its term: tangent times d out / d first input)\n"
           "if the second tangent is not None: out += (its term)\nreturn out"),
    ),
    "4.6": (
        N_("A backward pass seeded with v gives vᵀ·J; with v one-hot at output element i, that is row i of J. "
           "One backward per output element gives every row."),
        N_("Call f on a detached copy of x that requires grad. For each output element, make a seed of zeros "
           "shaped like y with a single 1, ask autograd.grad for the gradient with respect to x (keeping the "
           "graph for the next row), and collect the rows. Stack them and reshape to y's shape then x's."),
        N_("x = a detached copy of x that requires grad; y = f(x)\nfor i in range(number of elements of y):\n"
           "  seed = zeros like y, with a 1 at flat position i\n"
           "  row = the gradient of y with respect to x for that seed (retain the graph; None means zeros)\n"
           "return the rows stacked, reshaped to y.shape + x.shape"),
    ),
    "4.7": (
        N_("A forward pass where x moves along the one-hot tangent e_j gives J·e_j, column j of J. One forward "
           "pass per input element gives every column."),
        N_("For each element of x: make a one-hot tangent shaped like x, open a dual level, call f on the dual "
           "tensor made of x and that tangent, and read the output's tangent with unpack_dual (None means the "
           "output does not depend on x: zeros). Stack the columns on a new last axis, then reshape."),
        N_("for j in range(number of elements of x):\n  tangent = zeros like x, with a 1 at flat position j\n"
           "  in a dual level: y = f of the dual tensor made of x and that tangent; column = y's tangent, "
           "read by unpack_dual\n"
           "  keep the column (zeros like y if it is None)\n"
           "return the columns stacked on the last axis, reshaped to y.shape + x.shape"),
    ),
    "4.8": (
        N_("A shape operation moves or copies elements without computing new ones, so each input element receives "
           "the gradients of the output positions it went to: the gradient is moved back, or summed over the "
           "copies, until it has the input's shape."),
        N_("permute: the gradient's axis i came from input axis dims[i]; build the inverse permutation and apply "
           "it. transpose is its own inverse. expand: sum the copies back into the input's shape (chapter 1 has "
           "the function). unsqueeze(dim): remove that axis. squeeze(dim): put an axis of size 1 back at dim, "
           "only if one was removed."),
        N_("permute: inverse = a list as long as dims; for each position i: inverse[dims[i]] = i\n"
           "  return grad with its axes in the order inverse (a tensor method, or numpy's, by kind)\n"
           "expand: return grad summed to the saved sizes\nunsqueeze: return grad without axis dim\n"
           "squeeze: if grad already has as many axes as sizes, return it; else insert an axis of size 1 at dim"),
    ),
    "C4": (
        N_("A dual number carries a value and a tangent, how fast the value changes. Each operation computes "
           "its value as usual and its tangent by the derivative rule, so f(Dual(x, t)) carries f(x) and J·t."),
        N_("Turn a plain number into a dual with tangent 0. Sum: the tangents add. Product: the product rule. "
           "sin and exp: the chain rule, the derivative at the value times the tangent."),
        N_("make other a Dual (a plain number: tangent 0)\n"
           "+ : the value is the sum of the values; the tangent, the sum of the tangents\n"
           "* : the value is the product; the tangent, each tangent times the other's value, added\n"
           "sin, exp: the value is the function of the value; the tangent, its derivative there times the tangent"),
    ),
    "5.1": (
        N_("forward keeps what backward will need on the ctx; backward reads it back. In between, the engine "
           "wraps each saved tensor so it can be checked and freed."),
        N_("save_for_backward only keeps the tuple it was given, in _to_save (apply wraps them later). "
           "saved_tensors unpacks each entry of _saved as a tensor, and gives None back as None."),
        N_("save_for_backward: keep the tensors it was given in self._to_save\n"
           "saved_tensors: a tuple of (s unpacked as a tensor if s is a SavedTensor, else s) for s in self._saved"),
    ),
    "5.2": (
        N_("apply tells forward which arguments want a gradient, runs your forward without recording inside it, "
           "then puts one node, the ctx, in the graph for the whole call, if the call is recorded."),
        N_("First needs_input_grad, one flag per argument (a number or a string is never a tensor that requires "
           "grad). Then forward under no_grad with run_forward; ask should_record about the tensor arguments; "
           "fresh_outputs, told whether the call is recorded; _link when it is; give back one tensor or the "
           "tuple, as forward did."),
        N_("needs_input_grad = for each argument: (it is a Tensor and it requires grad)\n"
           "under no_grad: outputs = run forward through run_forward (the class, the ctx, the arguments, setup_style)\n"
           "recording = should_record of the tensor arguments\n"
           "outs = fresh_outputs(the arguments, outputs, the ctx, recording)\n"
           "if recording: link the ctx to the arguments and outs\n"
           "return a single tensor or the tuple, as forward did"),
    ),
    "5.3": (
        N_("The engine speaks in arrays, your backward in tensors: the node translates, calls your backward, "
           "and checks that it returned one gradient per argument of forward."),
        N_("Turn each incoming gradient into a tensor with _grad_tensor, call backward, wrap a single result "
           "in a tuple, refuse a wrong count with PyTorch's message, keep only the gradients of tensor "
           "arguments (_tensor_positions), and hand arrays back unless grad mode is on."),
        N_("grads = [_grad_tensor(g, nr) for each incoming g]\nresults = call backward with self and these grads\n"
           "if results is not a tuple: make it a tuple of one\n"
           "if its length differs from needs_input_grad's: raise RuntimeError(the incorrect number message)\n"
           "picked = the results at _tensor_positions\n"
           "return picked as they are if grad mode is on, else each tensor's array"),
    ),
    "5.4": (
        N_("A custom Function is the maths written twice: forward computes P3(x), backward multiplies the gradient "
           "that arrives by the derivative P3'(x) at the same x. So forward must leave x on the ctx."),
        N_("Differentiate (5x³ − 3x) / 2 term by term (the power rule: x³ gives 3x²). forward: save the input, "
           "return P3 of it with tensor operations. backward: read the input back, return grad_output times "
           "P3'(input), one gradient for the one argument."),
        N_("forward: save input on ctx; return (5 · input³ − 3 · input) / 2\n"
           "backward: input = the one saved tensor; return grad_output · (the derivative at input)"),
    ),
    "5.5": (
        N_("Forward's marks are only remembered on the ctx; once forward has returned, the machinery heeds them: "
           "a marked output takes no node. And backward always receives one gradient per output: for an output "
           "that got none, zeros like that output, unless the user asked for None, or the output is not a tensor."),
        N_("mark_non_differentiable keeps the tensors in _non_differentiable; set_materialize_grads keeps the "
           "value in _materialize. _unmarked refuses a mark that is not a tensor (PyTorch's words), then keeps each "
           "flag of takes_node only if its output is none of the marked tensors (compare with is). In "
           "_grad_tensor, when grad is None: read the output's shape and dtype from _outputs_meta; None if "
           "materializing is off or the dtype is None; zeros of that shape and dtype otherwise, as a tensor."),
        N_("mark_non_differentiable: keep the tensors in the ctx's _non_differentiable\n"
           "set_materialize_grads: keep value in the ctx's _materialize\n"
           "_unmarked: if a marked value is not a Tensor: raise PyTorch's RuntimeError (its words are NOT_A_VARIABLE)\n"
           "  a flag per output: its flag in takes_node, and it is not (is) any marked tensor\n"
           "_grad_tensor, grad is None: shape, dtype = the meta of output nr\n"
           "  if not materializing or dtype is None: the answer is None\n"
           "  else: a tensor wrapping zeros of (shape, dtype)"),
    ),
    "5.6": (
        N_("A backward marked @once_differentiable runs untracked, so its results have no history of their own. "
           "When someone could differentiate them again, they get an Error node as history, whose backward "
           "raises."),
        N_("wrapper: run backward under no_grad. If grad mode is off, or none of the incoming gradients is a "
           "tensor that requires grad, return the results as they are. Otherwise return a tuple of each result "
           "behind an error (a single result becomes a tuple of one). _behind_error: None stays None; else a "
           "detached copy made a leaf that requires grad, and a new tensor on its data recorded with an Error "
           "node and that leaf."),
        N_("wrapper: under no_grad: results = backward(ctx, the grads)\n"
           "if grad mode is off or no grad is a tensor requiring grad: return results\n"
           "return a tuple: _behind_error of each result (results made a tuple if it is not one)\n"
           "_behind_error: if result is None: None\n"
           "  leaf = result detached, then made to require grad\n"
           "  return record(a new tensor wrapping leaf's array, a new Error node, leaf)"),
    ),
    "5.7": (
        N_("The maximum depends on one element only, the one that won: its gradient goes there, and every other "
           "element gets 0. The index has no gradient; it only says where."),
        N_("forward: find the index with argmax, mark it non-differentiable, save it for backward, remember the "
           "input's shape on the ctx, and return the maximum and the index. backward: read the index back, make "
           "zeros of the input's shape (grad_value's dtype), put grad_value at the index through a flattened view, "
           "return that."),
        N_("forward: index = argmax of input; mark index; save index; keep input's shape on ctx; return (max of "
           "input, index)\nbackward: index = the saved tensor; grad = zeros of the shape\n"
           "  grad's flattened view at index = grad_value; return grad"),
    ),
    "C5": (
        N_("Reverse mode asks: given the gradient of r, what are the gradients of x and y? Forward mode asks the "
           "other way: given how x and y move (their tangents), how does r move? Both use ∂r/∂x = x / r and "
           "∂r/∂y = y / r, and each mode reads its own saved tensors."),
        N_("forward: compute r with tensor operations; save what backward needs with save_for_backward, and what "
           "jvp needs with save_for_forward. backward: two gradients, one per argument. jvp: one tangent, r's, "
           "the sum of both inputs' contributions."),
        N_("forward: r = √(x² + y²); save x, y, r for backward; save x, y, r for forward; return r\n"
           "backward: read x, y, r; return (grad_output · x / r, grad_output · y / r)\n"
           "jvp: read x, y, r; return (x · x_tangent + y · y_tangent) / r"),
    ),
    "6.1": (
        N_("A non-leaf's gradient passes through and is forgotten; retain_grad() asks its node to keep a "
           "copy in .grad while backward runs."),
        N_("Refuse a tensor that does not require grad (PyTorch's message). A leaf, or a tensor already "
           "retaining, needs nothing. Otherwise register, in its grad_fn's hooks, a weak reference to the "
           "tensor for its output number, and set the flag."),
        N_("if not requires_grad: raise a RuntimeError, in PyTorch's words (\"can't retain_grad on "
           "Tensor that has requires_grad=False\")\nif a leaf or already retaining: return\n"
           "hooks_of(grad_fn).retain[output number] = a weak reference to self\nset self's _retains_grad flag"),
    ),
    "6.2": (
        N_("A hook is called with a tensor's gradient when it is computed, and what it returns (if anything) "
           "replaces that gradient. register_hook returns a handle that can remove it."),
        N_("A leaf keeps its hooks in its own dict; a non-leaf's go to its grad_fn's tensor pre-hooks, under "
           "its output number. add_hook stores a hook in a dict and returns the handle. Refuse a tensor that "
           "does not require grad."),
        N_("if not requires_grad: raise RuntimeError(PyTorch's message)\n"
           "if a leaf: make self._hooks a dict if it is None, and add the hook there\n"
           "else: add the hook to the dict of grad_fn's tensor_pre hooks for this output number (setdefault "
           "makes it); return the handle add_hook gives"),
    ),
    "6.3": (
        N_("PyTorch's message names the tensor (type and shape), the node that produced it, and the two "
           "versions: the one saved and the one now."),
        N_("Read the dtype and shape from the saved array, the producer from the saved tensor's grad_fn (or "
           "the node passed in, when only the array was kept), and the versions from the counter and from "
           "what was saved. A leaf has no producer: that clause is left out."),
        N_("producer = node if no tensor was kept, else the tensor's grad_fn\n"
           "which = \", which is output 0 of NAME,\" if there is a producer, else \"\"\n"
           "return the sentence with tensor_type_name(dtype), the shape as a list, which, the current version, "
           "the saved version and HINT"),
    ),
    "6.4": (
        N_("A handle knows one table and one id: removing takes out that entry and nothing else. A hook that is "
           "gone already leaves nothing to do, and the others keep their order."),
        N_("remove(): if the id is still a key of the handle's table, delete that key from the table itself (a "
           "dict keeps the order of the rest). __exit__ lets `with tensor.register_hook(f):` remove the hook when "
           "the block ends."),
        N_("remove: if self.id is in self._table: delete self._table[self.id]\n__exit__: remove"),
    ),
    "6.5": (
        N_("Inside saved_tensors_hooks(pack, unpack), a node that saves a tensor keeps pack(tensor) instead, and "
           "backward gets its tensor back from unpack(what pack returned). With blocks nested, the innermost wins."),
        N_("At save time: if any pair of hooks is in effect, take the last (innermost) one, call pack on the "
           "tensor and keep the result with its unpack hook (_pack). _pack replaces the tensor by a Packed and "
           "the array by the packed marker. At use: call the unpack hook on the kept value, refuse anything but a tensor. "
           "register_hooks does the same for one saved tensor, after PyTorch's two refusals."),
        N_("_pack_if_hooked: if hooks are in effect: pack, unpack = the last pair; self._pack(pack(tensor), unpack)\n"
           "_pack: self._tensor = a Packed of (value, unpack hook, the tensor it replaces); the array becomes the marker\n"
           "register_hooks: freed (array None)? ALREADY_FREED; packed already? ALREADY_HOOKED; else pack a tensor "
           "around the array\n"
           "unpacked: value = the unpack hook on self.value; not a Tensor? TypeError(PyTorch's words); return it"),
    ),
    "6.6": (
        N_("One counter per piece of memory: a tensor, its views and its detach() copies share one list. Each "
           "write into that memory adds one, and a saved tensor compares the count now with the count it saw."),
        N_("A view takes its input's counter itself (not a copy); each write of an in-place operation, and each "
           "item assignment that records nothing, counts one change; a saved result written into a tensor follows "
           "that tensor's counter from its version now; unpacking a saved tensor raises 6.3's error when the "
           "counter has moved since it was saved."),
        N_("view_of: out's version counter = input's version counter (the same list)\n"
           "_write, and setitem's direct write: after storing the values, bump the tensor's version\n"
           "follow: the saved counter = the tensor's counter; the saved version = its value now\n"
           "unpack: if the counter's value differs from the version saved: raise RuntimeError(6.3's message)"),
    ),
    "C6": (
        N_("One hook per tensor collects the gradients of the pass in progress; the first to arrive also asks "
           "the engine to call something at the end of the pass (queue_callback), which hands them all to fn."),
        N_("Keep a dict position -> gradient for the pass. Each tensor's hook stores its gradient; the first one "
           "of a pass queues the end-of-pass callback, and in mode \"any\" calls fn with its own gradient. At the "
           "end: in mode \"all\", call fn with one entry per tensor (None where nothing arrived); empty the dict "
           "for the next pass. The handle removes every tensor's hook."),
        N_("arrived = {}\nend_of_pass: grads = arrived's entry for each position, or None; clear arrived; "
           "if mode is all: fn(grads)\n"
           "hook for position i: if arrived is empty: queue end_of_pass; if mode is any: fn(grad)\n"
           "  arrived[i] = grad\nregister one such hook on each tensor that requires grad; wrap the handles"),
    ),
}

SHOWN = N_("Hint {n} of {total} for step {step}:\n{hint}")
LAST = N_("(That was the last hint for step {step}: reread it, or the step's text, and try a small example by hand.)")
NO_STEP = N_("There is no step {step}. The steps are: {steps}.")

_given = {}  # step -> how many of its hints this kernel has shown


def hint(step):
    """Print the next hint for ``step`` ("2.3"): the idea first, the pseudocode last."""
    step = str(step)
    if step not in HINTS:
        print(say(NO_STEP, step=step, steps=", ".join(HINTS)))
        return
    hints = HINTS[step]
    n = min(_given.get(step, 0) + 1, len(hints))
    _given[step] = n
    print(say(SHOWN, step=step, n=n, total=len(hints), hint=say(hints[n - 1])))
    if n == len(hints):
        print(say(LAST, step=step))
