"""Chapter 5's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from . import checks as chapter5

FUNCTION = "autograd/function.py"
ONCE = "autograd/function.py"
EXAMPLES = "examples.py"
NEEDS = "tuple(isinstance(a, Tensor) and a.requires_grad for a in args)"
COUNT = "        if len(results) != len(self.needs_input_grad):\n"
RAISE = (COUNT + '            raise RuntimeError(\n                f"function {self.name()} returned an incorrect number '
         'of gradients "\n                f"(expected {len(self.needs_input_grad)}, got {len(results)})"\n            )\n')
P3_GRAD = "return grad_output * (15 * input ** 2 - 3) / 2"
NO_TYPE = "if not self._materialize or dtype is None:"
ZEROS = "return Tensor._wrap(np.zeros(shape, dtype=dtype))"
UNRECORDED = "        with grad_mode.no_grad():\n            results = backward(ctx, *grads)\n"
HYPOT_JVP = "return (x * x_tangent + y * y_tangent) / r"
WRAPPED = ("        results = tuple(_behind_error(r) for r in (results if isinstance(results, tuple) else (results,)))\n"
           "        return results[0] if len(results) == 1 else results\n")

MUTANTS = {
    "marked outputs found with `in`": (
        "5.5", [(FUNCTION, "not any(out is t for t in self._non_differentiable)", "out not in self._non_differentiable")],
        chapter5.COMPARED_BY_VALUE),
    "forward run with grad mode on": (
        "5.2", [(FUNCTION, "        with grad_mode.no_grad():\n            outputs = run_forward(cls, ctx, args, setup_style)\n",
                 "        outputs = run_forward(cls, ctx, args, setup_style)\n")], chapter5.FORWARD_RECORDING),
    "a single gradient not wrapped in a tuple": (
        "5.3", [(FUNCTION, "        if type(results) is not tuple:\n            results = (results,)\n", "")],
        chapter5.NOT_WRAPPED),
    "save_for_backward keeps only tensors": (
        "5.1", [(FUNCTION, "self._to_save = tensors", "self._to_save = tuple(t for t in tensors if isinstance(t, Tensor))")],
        chapter5.SAVED_AS_GIVEN),
    "needs_input_grad asks a number for requires_grad": (
        "5.2", [(FUNCTION, NEEDS, "tuple(a.requires_grad for a in args)")], chapter5.NEEDS_INPUT_GRAD),
    "needs_input_grad True for a non-tensor": (
        "5.2", [(FUNCTION, NEEDS, 'tuple(getattr(a, "requires_grad", True) for a in args)')], chapter5.NEEDS_INPUT_GRAD),
    "needs_input_grad for the tensor arguments only": (
        "5.2", [(FUNCTION, NEEDS, "tuple(a.requires_grad for a in args if isinstance(a, Tensor))")],
        chapter5.NEEDS_INPUT_GRAD),
    "needs_input_grad set after forward": (
        "5.2", [(FUNCTION, "        ctx.needs_input_grad = " + NEEDS + "\n", ""),
                (FUNCTION, "        outs = fresh_outputs(", "        ctx.needs_input_grad = " + NEEDS + "\n        outs = fresh_outputs(")],
        chapter5.NEEDS_INPUT_GRAD),
    "the number of gradients not checked": ("5.3", [(FUNCTION, RAISE, "")], chapter5.COUNT_UNCHECKED),
    "gradients counted against the tensor arguments": (
        "5.3", [(FUNCTION, COUNT, "        if len(results) != len(self._tensor_positions):\n")], chapter5.TENSORS_COUNTED),
    "P3 without its half": ("5.4", [(EXAMPLES, "return (5 * input ** 3 - 3 * input) / 2", "return 5 * input ** 3 - 3 * input")],
                            chapter5.P3_FORWARD),
    "P3' without its half": ("5.4", [(EXAMPLES, P3_GRAD, "return grad_output * (15 * input ** 2 - 3)")],
                             chapter5.P3_COEFFICIENT),
    "P3' with 5x² for the derivative of 5x³": ("5.4", [(EXAMPLES, P3_GRAD, "return grad_output * (5 * input ** 2 - 3) / 2")],
                                               chapter5.P3_COEFFICIENT),
    "P3' without grad_output": ("5.4", [(EXAMPLES, P3_GRAD, "return (15 * input ** 2 - 3) / 2")], chapter5.P3_CHAIN),
    "P3 saves nothing": ("5.4", [(EXAMPLES, "        ctx.save_for_backward(input)\n", "")], chapter5.NOTHING_SAVED),
    "mark_non_differentiable keeps the tensors elsewhere": (
        "5.5", [(FUNCTION, "self._non_differentiable = tensors", "self.non_differentiable = tensors")],
        chapter5.MARKED_REQUIRES_GRAD),
    "a marked number let through": (
        "5.5", [(FUNCTION, "        if not all(isinstance(t, Tensor) for t in self._non_differentiable):\n"
                      "            raise RuntimeError(NOT_A_VARIABLE)\n", "")],
        chapter5.MARKED_A_NUMBER),
    "marks not heeded": ("5.5", [(FUNCTION, "return tuple(takes and not any(out is t for t in self._non_differentiable)\n"
                                  "                     for out, takes in zip(outputs, takes_node))", "return takes_node")], chapter5.MARKED_REQUIRES_GRAD),
    "zeros always float32": ("5.5", [(FUNCTION, ZEROS, "return Tensor._wrap(np.zeros(shape, dtype=np.float32))")],
                             chapter5.ZEROS_DTYPE),
    "zeros never given": ("5.5", [(FUNCTION, ZEROS, "return None")], chapter5.NOT_MATERIALIZED),
    "set_materialize_grads ignored": ("5.5", [(FUNCTION, NO_TYPE, "if dtype is None:")], chapter5.MATERIALIZE_IGNORED),
    "zeros for a number": ("5.5", [(FUNCTION, NO_TYPE, "if not self._materialize:")], chapter5.NOT_A_TENSOR_OUTPUT),
    "once_differentiable records its backward": (
        "5.6", [(ONCE, UNRECORDED, "        results = backward(ctx, *grads)\n")], chapter5.RECORDED),
    "once_differentiable gives a single result back in a tuple": (
        "5.6", [(ONCE, "        return results[0] if len(results) == 1 else results\n", "        return results\n")],
        chapter5.A_TUPLE_OF_ONE),
    "once_differentiable without its Error node": ("5.6", [(ONCE, WRAPPED, "        return results\n")], chapter5.TWICE_SILENT),
    "MaxWithIndex sends the gradient everywhere": (
        "5.7", [(EXAMPLES, "        grad = zeros(ctx.shape, dtype=grad_value.dtype)\n        grad.view(-1)[index] = grad_value\n",
                 "        grad = zeros(ctx.shape, dtype=grad_value.dtype) + grad_value\n")], chapter5.GRADIENT_EVERYWHERE),
    "MaxWithIndex does not mark its index": ("5.7", [(EXAMPLES, "        ctx.mark_non_differentiable(index)\n", "")],
                                             chapter5.INDEX_NOT_MARKED),
    "MaxWithIndex saves nothing": ("5.7", [(EXAMPLES, "        ctx.save_for_backward(index)\n", "")], chapter5.INDEX_NOT_SAVED),
    "MaxWithIndex returns the value alone": ("5.7", [(EXAMPLES, "return input.max(), index", "return input.max()")],
                                             chapter5.MAX_FORWARD),
    "Hypot keeps nothing for forward mode": ("C5", [(EXAMPLES, "        ctx.save_for_forward(x, y, r)\n", "")],
                                             chapter5.NOT_SAVED_FOR_FORWARD),
    "Hypot's jvp gives a tangent per input": ("C5", [(EXAMPLES, HYPOT_JVP, "return x * x_tangent / r, y * y_tangent / r")],
                                              chapter5.JVP_PER_INPUT),
    "Hypot's jvp not divided by r": ("C5", [(EXAMPLES, HYPOT_JVP, "return x * x_tangent + y * y_tangent")],
                                     chapter5.JVP_NOT_DIVIDED),
}
