"""Checks for chapter 1: how operations build the graph.

Each check builds what it needs by hand, so a step is checked on its own: 1.2 does
not need 1.1, and 1.4 calls its node's ``backward`` directly, with no engine.
"""
import numpy as np

from ...autograd import grad_mode
from ...autograd.graph import AccumulateGrad, Node, gradient_edge, should_record
from ...autograd.saved_tensor import SavedTensor
from ...messages import N_
from ...ops.arithmetic import MulBackward0
from ...shape import sum_to
from ...tensor import Tensor
from .. import draw, step
from ..backward_calls import call_backward


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


def _result_of(node, values):
    """A non-leaf tensor made by hand, as if ``node`` had computed it."""
    t = _leaf(values)
    t.grad_fn, t._requires_grad = node, True
    return t


@step("1.1")
def record_when_an_input_requires_grad(see):
    x, c = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0])
    see(should_record(x, c), N_("should_record(x, c) with x.requires_grad=True"))
    see(should_record(c, x), N_("should_record(c, x): the order of inputs does not matter"))
    see(should_record(c, c), N_("should_record(c, c) when no input requires grad"))


@step("1.1")
def numbers_never_require_grad(see):
    x = _leaf([1.0], requires_grad=True)
    see(should_record(x, 2.5), N_("should_record(x, 2.5)"))
    see(should_record(2.5, _leaf([1.0])), N_("should_record(2.5, c): a number needs no gradient"))


@step("1.1")
def grad_mode_off_records_nothing(see):
    x = _leaf([1.0], requires_grad=True)
    grad_mode._set_enabled(False)
    try:
        result = should_record(x)
    finally:
        grad_mode._set_enabled(True)
    see(result, N_("should_record(x) while grad mode is off"))


@step("1.2")
def edge_of_a_result_is_its_grad_fn(see):
    node = Node()
    y = _result_of(node, [1.0])
    edge = gradient_edge(y)
    see.that(edge[0] is node, N_("gradient_edge(y)[0] must be y.grad_fn"))
    see(edge[1], N_("gradient_edge(y)[1] (the output number)"))


@step("1.2")
def edge_of_a_leaf_is_its_accumulator(see):
    w = _leaf([1.0, 2.0], requires_grad=True)
    first, second = gradient_edge(w), gradient_edge(w)
    see.that(isinstance(first[0], AccumulateGrad), N_("a leaf that requires grad must lead to an AccumulateGrad node"))
    see.that(first[0].variable is w, N_("AccumulateGrad.variable must be the leaf itself"))
    see.that(first[0] is second[0], N_("every use of a leaf must share one AccumulateGrad node (use grad_accumulator)"))


@step("1.2")
def constants_have_no_edge(see):
    see(gradient_edge(_leaf([1.0])), N_("gradient_edge(c) for a constant"))
    see(gradient_edge(3.0), N_("gradient_edge(3.0) for a Python number"))


SUM_TO_AXES = N_(
    "sum_to could not give the shape asked for (numpy's reshape refused): some axes that broadcasting stretched "
    "were not summed over, and it stretches two kinds of axes (reread exercise 1.3)."
)
ONLY_ARRAYS = N_(
    "your code failed on tensors: with create_graph=True, gradients and saved values are tensors, and numpy "
    "functions (np.sum, np.multiply, np.matmul, ...) refuse them. Use operators and methods both have "
    "(*, @, .sum(axis=..., keepdims=...), sum_to) (reread the exercise)."
)
ONLY_TENSORS = N_(
    "your code failed on numpy arrays: while backward runs, gradients and saved values are numpy arrays, which "
    "have no tensor methods (.t(), .mm(), sum(dim=...)). Use operators and methods both have "
    "(*, @, .sum(axis=..., keepdims=...), sum_to) (reread the exercise)."
)
MISUSED = (TypeError, AttributeError)  # how numpy-only or tensor-only code fails on the other kind


def _sum_to(see, grad, shape):
    """The learner's ``sum_to``, a reshape numpy refuses named as the mistake it is."""
    return see.attempt(lambda: sum_to(grad, shape), (ValueError, SUM_TO_AXES))


@step("1.3")
def sum_to_undoes_broadcasting(see):
    grad = np.arange(6, dtype=np.float32).reshape(2, 3)
    see(_sum_to(see, grad, (3,)), N_("sum_to(grad (2, 3), (3,))"))
    see(_sum_to(see, grad, (2, 1)), N_("sum_to(grad (2, 3), (2, 1))"))
    see(_sum_to(see, grad, ()), N_("sum_to(grad (2, 3), ()) for a scalar"))
    see(_sum_to(see, grad, (2, 3)), N_("sum_to with the same shape must change nothing"))


@step("1.3")
def sum_to_keeps_stretched_ones(see):
    grad = np.ones((4, 2, 3), dtype=np.float32)
    see(_sum_to(see, grad, (2, 1)), N_("sum_to(ones (4, 2, 3), (2, 1))"))
    see(_sum_to(see, grad, (1, 1, 3)), N_("sum_to(ones (4, 2, 3), (1, 1, 3))"))


KEEPDIM_NOT_A_BOOL = N_(
    "sum_to failed on tensors: it gives sum a keepdims that is a number (such as 1), which numpy takes for true or "
    "false, but PyTorch's sum takes only True or False (reread exercise 1.3)."
)
SUMMED_EVERYTHING = N_(
    "sum_to summed a tensor that already had the shape asked for over all its dimensions: given an empty tuple of "
    "dimensions, numpy's sum sums over none, but PyTorch's sums over every one (reread exercise 1.3)."
)


class _KeepdimNotABool(TypeError):
    """PyTorch's refusal of a ``keepdim`` that is not a bool (numpy takes 1 for True)."""


class _SummedToOne(RuntimeError):
    """A reshape to the shape asked for refused a tensor summed down to one element."""


def _sum_to_tensor(grad, shape):
    """The learner's ``sum_to`` on a tensor, PyTorch's refusals of numpy's spellings told apart."""
    try:
        return sum_to(grad, shape)
    except TypeError as error:
        if "argument 'keepdim' must be bool" in str(error):
            raise _KeepdimNotABool(str(error)) from error
        raise
    except RuntimeError as error:
        if "is invalid for input of size 1" in str(error):
            raise _SummedToOne(str(error)) from error
        raise


@step("1.3")
def sum_to_works_on_tensors(see):
    grad = Tensor._wrap(np.arange(6, dtype=np.float32).reshape(2, 3))
    see(see.attempt(lambda: _sum_to_tensor(grad, (2, 1)), (_KeepdimNotABool, KEEPDIM_NOT_A_BOOL), (MISUSED, ONLY_ARRAYS)),
        N_("sum_to of a tensor (2, 3) to (2, 1), as with create_graph=True: a tensor"))


@step("1.3")
def sum_to_a_tensors_own_shape(see):
    grad = Tensor._wrap(np.arange(6, dtype=np.float32).reshape(2, 3))
    kept = see.attempt(lambda: _sum_to_tensor(grad, (2, 3)), (_SummedToOne, SUMMED_EVERYTHING),
                       (_KeepdimNotABool, KEEPDIM_NOT_A_BOOL), (MISUSED, ONLY_ARRAYS))
    see(kept, N_("sum_to of a tensor (2, 3) to (2, 3): nothing to sum"),
        mistakes=[(Tensor._wrap(np.full(shape, 15.0, dtype=np.float32)), SUMMED_EVERYTHING) for shape in ((1, 1), ())])


def _mul_node(a, b, need=(True, True)):
    """A MulBackward0 for ``a * b`` made by hand, the way ``mul`` makes it."""
    sink = Node()
    node = MulBackward0.__new__(MulBackward0)  # its constructor passed by: the saved values chosen here
    node._saved = (SavedTensor(b) if need[0] else None, SavedTensor(a) if need[1] else None)  # other first
    node.next_functions = tuple((sink if n else None, 0) for n in need)
    node.self_shape, node.other_shape = a._array.shape, b._array.shape
    return node


TWO_GRADIENTS = N_(
    "backward must return one gradient per input, as a tuple in the order of the inputs (None for an input that "
    "needs none); a node of one input may return its gradient alone (reread exercise 1.4)."
)
NOT_SUMMED = N_(
    "this gradient still has the broadcast shape: broadcasting was not undone on this input. Bring each "
    "gradient back to its own input's shape with sum_to (reread exercise 1.3)."
)
A_LIST = N_(
    "backward returned a list: the engine takes a tuple, one gradient per input, and reads anything else as "
    "a single gradient (reread the exercise)."
)
WRONG_KIND = N_(
    "backward must give back the kind of values it was given: numpy arrays while backward runs, tensors with "
    "create_graph=True. A numpy function (np.where, np.log) turns tensors into arrays, a minigrad function "
    "turns arrays into tensors: use operators, or choose the function by the kind of value (reread the exercise)."
)


def _all_of_kind(grads, kind):
    """Every gradient in ``grads`` is None or of ``kind`` (numpy arrays, or tensors)."""
    return all(g is None or isinstance(g, kind) for g in grads)


def gradients_of(see, node, grad, *named, inputs=2):
    """``node.backward(grad)`` called as the engine calls it, checked before use: a tuple of one
    gradient per input (``inputs``; a node of one input may return its gradient alone), each a
    numpy array or None. Code that fails on numpy arrays is named (and the failures in ``named``,
    as ``see.attempt`` takes them), not shown as a traceback."""
    grads = see.attempt(lambda: call_backward(node, grad), *named, (MISUSED, ONLY_TENSORS))
    return _as_tuple(see, grads, inputs, ARRAYS)


def _as_tuple(see, grads, inputs, kind):
    """The gradients ``backward`` returned, as a tuple, once their number, container and kind are right."""
    if inputs == 1 and not isinstance(grads, (tuple, list)):
        grads = (grads,)
    see.require(isinstance(grads, (tuple, list)) and len(grads) == inputs, TWO_GRADIENTS)
    see.require(type(grads) is tuple, A_LIST)
    see.require(_all_of_kind(grads, kind), WRONG_KIND)
    return grads


def tensor_gradients_of(see, node, grad, inputs=2):
    """``node.backward`` given a tensor gradient with grad mode on, as with create_graph=True: saved
    values come back as tensors too. Code that fails on tensors is named, not shown as a traceback."""
    grads = see.attempt(lambda: node.backward(Tensor._wrap(np.asarray(grad, dtype=np.float32))),
                        (MISUSED, ONLY_ARRAYS))
    return _as_tuple(see, grads, inputs, Tensor)


ARRAYS = (np.ndarray, np.generic)


@step("1.4")
def mul_backward_swaps_the_factors(see):
    a, b = _leaf([1.0, 2.0, 3.0]), _leaf([4.0, 5.0, 6.0])
    grad_a, grad_b = gradients_of(see, _mul_node(a, b), np.ones(3, dtype=np.float32))
    see(grad_a, N_("d(a*b)/da with grad = ones"))
    see(grad_b, N_("d(a*b)/db with grad = ones"))
    grad_a, _ = gradients_of(see, _mul_node(a, b), np.array([1.0, 0.5, 2.0], dtype=np.float32))
    see(grad_a, N_("d(a*b)/da for a gradient [1, 0.5, 2]"))


@step("1.4")
def mul_backward_undoes_broadcasting(see):
    a, b = _leaf(np.ones((2, 3))), _leaf([1.0, 2.0, 3.0])
    grad = np.ones((2, 3), dtype=np.float32)
    grad_a, grad_b = gradients_of(see, _mul_node(a, b), grad)
    see(grad_a, N_("d(a*b)/da, a (2, 3), b (3,)"))
    see(grad_b, N_("d(a*b)/db must be summed back to b's shape (3,)"), mistakes=[(grad * a._array, NOT_SUMMED)])
    grad_b, grad_a = gradients_of(see, _mul_node(b, a), grad)  # the broadcast input first
    see(grad_b, N_("d(b*a)/db must be summed back to b's shape (3,)"), mistakes=[(grad * a._array, NOT_SUMMED)])
    see(grad_a, N_("d(b*a)/da, b (3,), a (2, 3)"))


@step("1.4")
def mul_backward_works_on_tensors(see):
    a, b = _leaf([1.0, 2.0, 3.0]), _leaf([[1.0], [2.0]])
    grads = tensor_gradients_of(see, _mul_node(a, b), np.ones((2, 3)))
    see(list(grads), N_("the gradients of a (3,) * b (2, 1) for a tensor gradient, as with create_graph=True: tensors"))


@step("1.4")
def mul_backward_skips_unneeded_gradients(see):
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    grad_a, grad_b = gradients_of(see, _mul_node(a, b, need=(True, False)), np.ones(2, dtype=np.float32))
    see(grad_a, N_("d(a*b)/da when only a needs a gradient"))
    see(grad_b, N_("the gradient for b, which needs none"))


@step("1.1")
def any_input_that_requires_grad_is_enough(see):
    inputs = [_leaf([1.0], requires_grad=bool(rng_flag)) if kind else 2.0
              for kind, rng_flag in see.rng.integers(0, 2, size=(int(see.rng.integers(1, 6)), 2))]
    see(should_record(*inputs), N_("should_record for inputs drawn at random (tensors and numbers)"))


@step("1.2")
def an_edge_names_the_output_it_came_from(see):
    nr = int(see.rng.integers(0, 4))
    y = _result_of(Node(), [1.0])
    y._output_nr = nr
    see(gradient_edge(y)[1], N_("gradient_edge(y)[1] for a result that is output number y._output_nr of its node"))


@step("1.3")
def sum_to_undoes_any_broadcast(see):
    for _ in range(3):
        target = draw.shape(see.rng)
        source = draw.broadcast_source(see.rng, target)
        see(_sum_to(see, draw.values(see.rng, target), source), N_("sum_to of a gradient of a random shape to a shape that broadcasts to it"))


@step("1.4")
def mul_backward_on_drawn_values(see):
    shape = draw.shape(see.rng)
    a = _leaf(draw.values(see.rng, shape))
    b = _leaf(draw.values(see.rng, draw.broadcast_source(see.rng, shape)))
    grad_a, grad_b = gradients_of(see, _mul_node(a, b), draw.values(see.rng, shape))
    see(grad_a, N_("d(a*b)/da for values drawn at random"))
    see(grad_b, N_("d(a*b)/db for values drawn at random (b broadcast to a's shape)"))
