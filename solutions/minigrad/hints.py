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
        N_("apply runs your forward without recording inside it, then puts one node, the ctx, in the graph "
           "for the whole call, if any input needs a gradient."),
        N_("Run forward under no_grad with run_forward, make the outputs fresh tensors with fresh_outputs, "
           "link the ctx to the inputs and outputs with _link when should_record says so, and give back one "
           "tensor or the tuple, as forward did."),
        N_("under no_grad: run forward through run_forward (the class, the ctx, the arguments, setup_style)\n"
           "make the outputs fresh tensors (fresh_outputs, told about ctx._dirty)\n"
           "if should_record says so for the tensor arguments: link the ctx to the arguments and the outputs\n"
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
