"""Checks for chapter 5: custom autograd Functions."""
import functools

import numpy as np

from ... import autograd
from ...autograd import forward_ad, grad_mode
from ...autograd.function import Function, _link
from ...autograd.function_calls import fresh_outputs
from ...autograd.function import once_differentiable
from ...autograd.saved_tensor import SavedTensor
from ...examples import Hypot, LegendrePolynomial3, MaxWithIndex
from ...messages import N_
from ...tensor import Tensor
from .. import draw, step
from ..backward_calls import call_backward


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


class _Square(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        return Tensor._wrap(x._array * x._array * scale)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x * 2, None


def _bare_ctx():
    """A node of ``_Square`` made by hand, as ``apply`` makes it."""
    ctx = object.__new__(_Square._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    return ctx


SAVED_AS_GIVEN = N_(
    "save_for_backward must keep everything it is given, in order: a None keeps its place, and a number saved by "
    "mistake must reach apply, which refuses it with PyTorch's TypeError (reread exercise 5.1)."
)


@step("5.1")
def saved_tensors_give_back_what_was_saved(see):
    ctx = _bare_ctx()
    x = _leaf([1.0, 2.0])
    ctx.save_for_backward(x, None)
    see(len(ctx._to_save), N_("len(ctx._to_save) after save_for_backward(x, None)"), mistakes=[(1, SAVED_AS_GIVEN)])
    ctx._saved = (SavedTensor(x), None)
    saved = ctx.saved_tensors
    see.that(isinstance(saved, tuple) and len(saved) == 2, N_("saved_tensors must be a tuple of 2"))
    see.that(saved[0] is x and saved[1] is None, N_("saved_tensors must give back x and None"))


NEEDS_INPUT_GRAD = N_(
    "ctx.needs_input_grad must be ready before forward runs, with one entry per argument of forward, in order: True "
    "for a tensor that requires grad, False for anything else (a tensor that does not, a number, a string) "
    "(reread exercise 5.2)."
)


@step("5.2")
def needs_input_grad_has_an_entry_per_argument(see):
    seen = []

    class Flags(Function):
        @staticmethod
        def forward(ctx, x, scale, y, name):
            seen.append(ctx.needs_input_grad)
            return Tensor._wrap(x._array * scale + y._array)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, None, grad, None

    see.attempt(lambda: Flags.apply(_leaf([1.0], True), 2.0, _leaf([3.0]), "scale"),
                ((AttributeError, TypeError), NEEDS_INPUT_GRAD))
    see.require(len(seen) == 1 and isinstance(seen[0], tuple), NEEDS_INPUT_GRAD)
    see(list(seen[0]), N_("ctx.needs_input_grad in forward, for apply(x that requires grad, 2.0, y that does not, "
                          "\"scale\")"),
        mistakes=[([True, True, False, True], NEEDS_INPUT_GRAD), ([True, False], NEEDS_INPUT_GRAD)])


def _apply_square():
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    return x, _Square.apply(x, 2.0)


@step("5.2")
def apply_returns_forward_result_with_one_node(see):
    x, y = _apply_square()
    see(y, N_("_Square.apply(x, 2.0)"))
    see.that(type(y.grad_fn).__name__ == "_SquareBackward", N_("the output's grad_fn must be the _SquareBackward node"))
    see(len(y.grad_fn.next_functions), N_("edges of the node (one per tensor argument)"))


FORWARD_RECORDING = N_(
    "forward ran with grad mode on, so the operations inside it recorded nodes of their own (reread exercise 5.2)."
)


@step("5.2")
def forward_runs_without_recording(see):
    class Inner(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.recorded_inside = grad_mode._enabled
            return Tensor._wrap(x._array * 2)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Inner.apply(_leaf([1.0], requires_grad=True))
    see(y.grad_fn.recorded_inside, N_("grad mode inside forward"), mistakes=[(True, FORWARD_RECORDING)])


@step("5.2")
def constants_give_no_node(see):
    y = _Square.apply(_leaf([1.0, 2.0]), 1.0)
    see(y.grad_fn, N_("grad_fn when no input requires grad"))


def _linked(function, *args):
    """The node of ``function.apply(*args)`` made by hand, as apply makes it (so without step 5.2)."""
    ctx = object.__new__(function._backward_cls)
    ctx._saved, ctx._to_save, ctx._hooks = (), (), None
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    with grad_mode.no_grad():
        outputs = function.forward(ctx, *args)
    _link(ctx, args, fresh_outputs(args, outputs, ctx, True))
    return ctx


def _linked_square():
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    return x, _linked(_Square, x, 2.0)


def _raises(run):
    """Whether ``run()`` fails (a stub's NotImplementedError is let through: the step is not written)."""
    try:
        run()
    except NotImplementedError:
        raise
    except Exception:
        return True
    return False


@step("5.3")
def backward_calls_yours_and_keeps_tensor_inputs(see):
    x, ctx = _linked_square()
    grads = see.attempt(lambda: call_backward(ctx, np.ones(3, dtype=np.float32)), (RuntimeError, TENSORS_COUNTED))
    see.require(isinstance(grads, (tuple, list)), GRADIENTS)
    see(len(grads), N_("gradients returned (one per tensor argument)"))
    see(grads[0], N_("the gradient for x (2x)"))
    see.that(isinstance(grads[0], np.ndarray), N_("outside create_graph, return arrays"))


NOT_WRAPPED = N_(
    "a backward that returns a single gradient, not in a tuple, was not accepted: wrap a result that is not a "
    "tuple in a tuple of one before counting the gradients (reread exercise 5.3)."
)
COUNT_UNCHECKED = N_(
    "a backward that returned fewer or more gradients than forward has arguments was let through: compare their "
    "number with the number of forward's arguments and raise PyTorch's RuntimeError when they differ (reread "
    "exercise 5.3)."
)
TENSORS_COUNTED = N_(
    "a backward returning one gradient per argument of forward (None for a number) was refused: count forward's "
    "arguments (len(needs_input_grad)), not only its tensor arguments (reread exercise 5.3)."
)
GRADIENTS = N_("the node's backward must return a tuple (or list) of gradients, one per tensor argument (reread exercise 5.3).")


class _Double(Function):
    @staticmethod
    def forward(ctx, x):
        return Tensor._wrap(x._array * 2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2  # one argument: PyTorch accepts a single gradient, not in a tuple


@step("5.3")
def a_single_gradient_needs_no_tuple(see):
    ctx = _linked(_Double, _leaf([1.0, 2.0, 3.0], requires_grad=True))
    grads = see.attempt(lambda: call_backward(ctx, np.ones(3, dtype=np.float32)),
                        ((RuntimeError, TypeError, IndexError), NOT_WRAPPED))
    see.require(isinstance(grads, (tuple, list)), GRADIENTS)
    see(list(grads), N_("the gradients of a Function of one argument whose backward returns grad * 2"))


class _Short(_Square):
    @staticmethod
    def backward(ctx, grad):
        return grad * 2  # forward has two arguments, x and scale: one gradient is too few


class _Long(_Square):
    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None, None  # and three too many


def _backward_once(function):
    return call_backward(_linked(function, _leaf([1.0], True), 2.0), np.ones(1, dtype=np.float32))


@step("5.3")
def backward_refuses_a_wrong_number_of_gradients(see):
    for function, label in ((_Short, N_("the error for a backward returning 1 gradient for 2 arguments")),
                            (_Long, N_("the error for a backward returning 3 gradients for 2 arguments"))):
        run = functools.partial(_backward_once, function)
        see.require(_raises(run), COUNT_UNCHECKED)
        see.error(run, label)


@step("5.1")
def saving_tensors_drawn_at_random(see):
    ctx = _bare_ctx()
    tensors = [_leaf(draw.values(see.rng, (2,))) if see.rng.random() < 0.7 else None
               for _ in range(int(see.rng.integers(1, 5)))]
    ctx.save_for_backward(*tensors)
    ctx._saved = tuple(None if t is None else SavedTensor(t) for t in tensors)
    see([a is b for a, b in zip(ctx.saved_tensors, tensors)], N_("saved_tensors gives back each tensor saved (or None), drawn at random"))


@step("5.2")
def apply_on_drawn_values(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=bool(see.rng.random() < 0.7))
    y = _Square.apply(x, float(draw.values(see.rng, ())))
    see(y, N_("_Square.apply(x, scale) for values drawn at random"))
    see(y.grad_fn is None, N_("whether the result of apply has no node, for an x drawn at random"))


@step("5.3")
def backward_of_drawn_values(see):
    x, ctx = _linked_square()
    x._array[...] = draw.values(see.rng, (3,))
    grads = call_backward(ctx, draw.values(see.rng, (3,)))
    see.require(isinstance(grads, (tuple, list)) and len(grads) > 0, GRADIENTS)
    see(grads[0], N_("the gradient for x (2x times the gradient), values drawn at random"))


class _SavesNumber(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x, scale)
        return Tensor._wrap(x._array * scale)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


@step("5.1")
def saving_a_number_is_refused(see):
    run = functools.partial(_linked, _SavesNumber, _leaf([1.0, 2.0], True), 2.0)
    see.require(_raises(run), SAVED_AS_GIVEN)
    see.error(run, N_("the error for save_for_backward(x, 2.0)"), kind=TypeError)


FORWARD_TENSORS = N_(
    "LegendrePolynomial3.apply did not return a tensor with a node: forward must compute P3 with tensor operations on "
    "its input and return that tensor (reread exercise 5.4)."
)
NOTHING_SAVED = N_(
    "LegendrePolynomial3's backward found nothing in ctx.saved_tensors: forward must save its input with "
    "ctx.save_for_backward (reread exercise 5.4)."
)
P3_FORWARD = N_("P3(x) is (5x³ − 3x) / 2: the half was left out of forward (reread exercise 5.4).")
P3_COEFFICIENT = N_(
    "the gradient of P3 has a wrong coefficient: differentiate (5x³ − 3x) / 2 term by term again, with the power "
    "rule, the half included (reread exercise 5.4)."
)
P3_CHAIN = N_(
    "the gradient of P3 ignores grad_output: the local derivative is there, but not the gradient that arrives "
    "(the chain rule) (reread exercise 5.4)."
)


def _p3_grad(x, grad, first, last):
    """``grad`` times ``(first·x² − last) / 2``, as a float32 tensor: P3's gradient, right or wrong."""
    return Tensor._wrap((grad * (first * x * x - last) / 2).astype(np.float32))


@step("5.4")
def legendre_forward(see):
    x = draw.values(see.rng, draw.shape(see.rng))
    y = see.attempt(lambda: LegendrePolynomial3.apply(_leaf(x, True)), ((AttributeError, TypeError), FORWARD_TENSORS))
    see.require(isinstance(y, Tensor), FORWARD_TENSORS)
    see(y, N_("LegendrePolynomial3.apply(x) for x drawn at random"),
        mistakes=[(Tensor._wrap((5 * x ** 3 - 3 * x).astype(np.float32)), P3_FORWARD)])
    see(type(y.grad_fn).__name__, N_("the type of its grad_fn"))


@step("5.4")
def legendre_backward(see):
    x, grad = draw.values(see.rng, (6,)), draw.values(see.rng, (6,))
    leaf = _leaf(x, True)
    y = see.attempt(lambda: LegendrePolynomial3.apply(leaf), ((AttributeError, TypeError), FORWARD_TENSORS))
    see.require(isinstance(y, Tensor) and y.grad_fn is not None, FORWARD_TENSORS)
    see.attempt(lambda: y.backward(Tensor._wrap(grad)), ((ValueError, IndexError), NOTHING_SAVED))
    see(leaf.grad, N_("x.grad after LegendrePolynomial3.apply(x).backward(grad), drawn at random"),
        mistakes=[(_p3_grad(x, grad, 15, 3) * 2, P3_COEFFICIENT), (_p3_grad(x, grad, 5, 3), P3_COEFFICIENT),
                  (_p3_grad(x, grad, 5, 1), P3_COEFFICIENT), (_p3_grad(x, 1, 15, 3), P3_CHAIN)])


@step("5.4")
def legendre_agrees_with_autograd_and_central_differences(see):
    x = np.linspace(-1.5, 1.5, 7)  # float64: central differences need the precision
    mine, by_operations = Tensor._wrap(x, True), Tensor._wrap(x, True)
    LegendrePolynomial3.apply(mine).sum().backward()
    (0.5 * (5 * by_operations ** 3 - 3 * by_operations)).sum().backward()
    h = 1e-6
    with grad_mode.no_grad():
        central = (LegendrePolynomial3.apply(Tensor._wrap(x + h))._array
                   - LegendrePolynomial3.apply(Tensor._wrap(x - h))._array) / (2 * h)
    got = mine.grad._array if isinstance(mine.grad, Tensor) else np.full_like(x, np.nan)
    see.that(np.allclose(got, by_operations.grad._array), N_("P3's gradient must agree with autograd of the same "
                                                             "formula written with tensor operations"))
    see.that(np.allclose(got, central, atol=1e-5), N_("P3's gradient must agree with central differences of your "
                                                      "forward"))


MARKED_REQUIRES_GRAD = N_(
    "an output that forward marked with ctx.mark_non_differentiable requires grad: mark_non_differentiable must keep "
    "the tensors it is given in ctx._non_differentiable, and _unmarked must take the node away from each of them "
    "(reread exercise 5.5)."
)
MARKED_A_NUMBER = N_(
    "forward marked something that is not a tensor (the number 3) with ctx.mark_non_differentiable, and apply let "
    "it through: once forward has returned, PyTorch refuses it with a RuntimeError (reread exercise 5.5)."
)
NOT_MATERIALIZED = N_(
    "backward received None for an output that got no gradient: unless ctx.set_materialize_grads(False) was called, "
    "it receives zeros of that output's shape and dtype (reread exercise 5.5)."
)
MATERIALIZE_IGNORED = N_(
    "backward received zeros after ctx.set_materialize_grads(False): the ctx must keep that choice, and an output "
    "that got no gradient then gets None (reread exercise 5.5)."
)
ZEROS_DTYPE = N_(
    "the zeros for an output that got no gradient must have that output's own dtype (int64 for an index), as in "
    "PyTorch, not float (reread exercise 5.5)."
)
NOT_A_TENSOR_OUTPUT = N_(
    "an output of forward that is not a tensor (a number) gets None as its gradient, never zeros (reread "
    "exercise 5.5)."
)


class _Sign(Function):
    """Twice x, and the sign of x, marked non-differentiable (its derivative is 0 anyway)."""

    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        sign = Tensor._wrap(np.sign(x._array))
        ctx.mark_non_differentiable(sign)
        return Tensor._wrap(x._array * 2), sign

    @staticmethod
    def backward(ctx, grad, sign_grad):
        ctx.received = sign_grad
        return grad * 2, None


class _WithIndex(Function):
    """Twice x, the index of its largest element (an int64 tensor), and a Python number."""

    @staticmethod
    def forward(ctx, x):
        return Tensor._wrap(x._array * 2), Tensor._wrap(np.argmax(x._array)), 3

    @staticmethod
    def backward(ctx, grad, index_grad, number_grad):
        ctx.received = [index_grad, number_grad]
        return grad * 2


class _MarksANumber(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(3)
        return Tensor._wrap(x._array * 2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


COMPARED_BY_VALUE = N_(
    "finding the marked outputs compared tensors by their values (with == or `in`), which asks a tensor of "
    "several values for one truth value (reread exercise 5.5)."
)
AMBIGUOUS = "is ambiguous"  # in PyTorch's error for the truth value of a tensor of several values


@step("5.5")
def a_marked_output_has_no_history(see):
    try:
        doubled, sign = _Sign.apply(_leaf([-1.0, 2.0], True), True)
    except RuntimeError as error:
        if AMBIGUOUS not in str(error):
            raise
        see.require(False, COMPARED_BY_VALUE)
    see.that(True, COMPARED_BY_VALUE)
    see(sign.requires_grad, N_("requires_grad of the output marked non-differentiable"),
        mistakes=[(True, MARKED_REQUIRES_GRAD)])
    see(sign.grad_fn, N_("grad_fn of the output marked non-differentiable"))
    see(doubled.requires_grad, N_("requires_grad of the other output"))


@step("5.5")
def marking_a_number_is_refused(see):
    run = functools.partial(_MarksANumber.apply, _leaf([1.0, 2.0], True))
    see.require(_raises(run), MARKED_A_NUMBER)
    see.error(run, N_("the error for ctx.mark_non_differentiable(3)"))


def _zeros(shape, dtype):
    return Tensor._wrap(np.zeros(shape, dtype=dtype))


@step("5.5")
def backward_receives_zeros_or_none(see):
    shape = draw.shape(see.rng)
    for materialize, label in ((True, N_("what backward receives for the marked output")),
                               (False, N_("what backward receives for the marked output, after "
                                          "set_materialize_grads(False)"))):
        doubled, _ = _Sign.apply(_leaf(draw.values(see.rng, shape), True), materialize)
        call_backward(doubled.grad_fn, np.ones(shape, dtype=np.float32), None)
        wrong = [(None, NOT_MATERIALIZED), (_zeros(shape, np.float64), ZEROS_DTYPE)] if materialize else [
            (_zeros(shape, np.float32), MATERIALIZE_IGNORED)]
        see(doubled.grad_fn.received, label, mistakes=wrong)


@step("5.5")
def an_index_and_a_number_get_their_own_gradients(see):
    doubled, index, _ = _WithIndex.apply(_leaf(draw.values(see.rng, (4,)), True))
    see(index.requires_grad, N_("requires_grad of an int64 output (an index)"))
    call_backward(doubled.grad_fn, np.ones(4, dtype=np.float32), None, None)
    index_grad, number_grad = doubled.grad_fn.received
    see(index_grad, N_("what backward receives for the index"),
        mistakes=[(_zeros((), np.float32), ZEROS_DTYPE), (_zeros((), np.float64), ZEROS_DTYPE)])
    see(number_grad, N_("what backward receives for the number 3"),
        mistakes=[(_zeros((), np.float64), NOT_A_TENSOR_OUTPUT), (_zeros((), np.float32), NOT_A_TENSOR_OUTPUT)])


RECORDED = N_(
    "a @once_differentiable backward must run with grad mode off (under no_grad): what it computes is not to be "
    "recorded (reread exercise 5.6)."
)
TWICE_SILENT = N_(
    "differentiating twice through a @once_differentiable backward did not fail: when its gradients require grad, "
    "with grad mode on, each of its results must get an Error node as its history (reread exercise 5.6)."
)


class _Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Tensor._wrap(x._array ** 3)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        ctx.recorded = grad_mode._enabled
        return grad * 3 * x * x


def _cube_gradient(x):
    """The gradient of (x³)·x for x, with create_graph: the cube's part comes from its backward."""
    y = _Cube.apply(x)
    return y.grad_fn, autograd.grad((y * x).sum(), x, create_graph=True)[0]


@step("5.6")
def once_differentiable_gives_first_order(see):
    x = _leaf(draw.values(see.rng, (4,)), True)
    _Cube.apply(x).sum().backward()
    see(x.grad, N_("x.grad for the cube of x, whose backward is marked @once_differentiable"))


A_TUPLE_OF_ONE = N_(
    "a @once_differentiable backward with a single result, run for a second order, gave it back in a tuple of one: "
    "PyTorch gives a single result back alone, and a tuple only for several (reread exercise 5.6)."
)


class _Pair(Function):
    @staticmethod
    def forward(ctx, x, y):
        return Tensor._wrap(x._array * y._array)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        return grad * 2, grad * 3


@step("5.6")
def a_single_result_comes_back_alone(see):
    x, grad = _leaf([1.0, 2.0], True), _leaf([1.0, 1.0], True)  # a gradient that requires grad: a second order
    node = _Cube.apply(x).grad_fn
    kinds = [type(_Cube.backward(node, grad)).__name__]
    pair = _Pair.apply(x, _leaf([3.0, 4.0], True)).grad_fn
    results = _Pair.backward(pair, grad)
    kinds.append([type(r).__name__ for r in results] if isinstance(results, tuple) else type(results).__name__)
    see(kinds, N_("what a @once_differentiable backward gives back, for a gradient that requires grad, with grad "
                  "mode on: for one result, then for two"), mistakes=[(["tuple", ["Tensor", "Tensor"]], A_TUPLE_OF_ONE)])


@step("5.6")
def a_second_order_hits_the_error_node(see):
    x = _leaf([1.0, 2.0], True)
    node, gradient = _cube_gradient(x)
    see(gradient, N_("the gradient of (x³)·x with create_graph=True"))
    see(node.recorded, N_("grad mode inside the @once_differentiable backward"), mistakes=[(True, RECORDED)])
    def twice():
        _cube_gradient(x)[1].sum().backward()

    see.require(_raises(twice), TWICE_SILENT)
    see.error(twice, N_("the error for a second differentiation"))
    see(sorted(n.name() for n, _ in gradient.grad_fn.next_functions if n is not None),
        N_("the nodes behind that gradient"))


MAX_FORWARD = N_(
    "MaxWithIndex.apply must return two tensors, the largest element and its index in the flattened input, "
    "computed with tensor operations (reread exercise 5.7)."
)
GRADIENT_EVERYWHERE = N_(
    "the gradient of the largest element went to every element: only the element that won receives grad_value, "
    "the others get 0 (reread exercise 5.7)."
)
INDEX_NOT_MARKED = N_(
    "MaxWithIndex's forward returned its index without marking it non-differentiable: only its int64 dtype kept "
    "it out of the graph, and nothing said that it takes no part in differentiation (reread exercise 5.7)."
)
INDEX_NOT_SAVED = N_(
    "MaxWithIndex's backward found nothing in ctx.saved_tensors: forward must save the index it computed with "
    "ctx.save_for_backward (reread exercise 5.7)."
)


def _max_with_index(values):
    """MaxWithIndex.apply on a leaf that requires grad, its two outputs checked before use."""
    x = _leaf(values, True)
    outputs = MaxWithIndex.apply(x)
    return x, outputs if isinstance(outputs, tuple) and len(outputs) == 2 and all(isinstance(o, Tensor) for o in outputs) else None


@step("5.7")
def max_with_index_forward(see):
    shape = draw.shape(see.rng)
    values = draw.values(see.rng, shape) + np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) / 64
    _, outputs = see.attempt(lambda: _max_with_index(values), ((AttributeError, TypeError), MAX_FORWARD))
    see.require(outputs is not None, MAX_FORWARD)
    value, index = outputs
    see([value, index], N_("MaxWithIndex.apply(x) for x drawn at random"))
    see([value.requires_grad, index.requires_grad], N_("requires_grad of the largest element, and of its index"))


@step("5.7")
def max_with_index_marks_its_index(see):
    _, outputs = see.attempt(lambda: _max_with_index([[1.0, 5.0, 2.0], [0.0, 3.0, 4.0]]),
                             ((AttributeError, TypeError), MAX_FORWARD))
    see.require(outputs is not None, MAX_FORWARD)
    value, index = outputs
    marked = getattr(value.grad_fn, "_non_differentiable", ())  # the node is the ctx forward was given
    see(any(t is index for t in marked), N_("whether forward marked the index it returned with "
                                            "ctx.mark_non_differentiable"), mistakes=[(False, INDEX_NOT_MARKED)])


@step("5.7")
def max_with_index_backward(see):
    values = np.array([[1.0, 5.0, 2.0], [0.0, 3.0, 4.0]], dtype=np.float32)
    x, outputs = see.attempt(lambda: _max_with_index(values), ((AttributeError, TypeError), MAX_FORWARD))
    see.require(outputs is not None, MAX_FORWARD)
    see.attempt(lambda: outputs[0].backward(_leaf(2.0)), ((ValueError, IndexError), INDEX_NOT_SAVED))
    see(x.grad, N_("x.grad after MaxWithIndex.apply(x)[0].backward(2.0)"),
        mistakes=[(_leaf(np.full((2, 3), 2.0)), GRADIENT_EVERYWHERE)])
    (gradient,) = autograd.grad((MaxWithIndex.apply(x)[0] * x).sum(), x, create_graph=True)
    see(sorted(n.name() for n, _ in gradient.grad_fn.next_functions if n is not None),
        N_("the nodes behind the gradient of (the largest element)·x, with create_graph=True"))


NOT_SAVED_FOR_FORWARD = N_(
    "Hypot's jvp found nothing in ctx.saved_tensors: in forward mode, jvp reads what forward kept with "
    "ctx.save_for_forward, which is apart from what it kept with save_for_backward (reread the challenge of "
    "chapter 5)."
)
JVP_NOT_DIVIDED = N_(
    "Hypot's tangent is r times too large: check the partial derivatives of r = √(x² + y²) again (reread the "
    "challenge of chapter 5)."
)
JVP_PER_INPUT = N_(
    "Hypot's jvp returned one tangent per input, as backward returns one gradient per input: jvp returns one "
    "tangent per output of forward, here r's alone, to which every input's tangent contributes (reread the "
    "challenge of chapter 5)."
)


def _hypot_inputs(see, shape):
    """x and y drawn at random, never both 0 at one place (r would be 0 there, and its slope undefined)."""
    x, y = draw.values(see.rng, shape), draw.values(see.rng, shape)
    y[(x == 0) & (y == 0)] = 1.5
    return x, y


def _hypot_array(x, y):
    """Hypot's forward (yours) on arrays, untracked: for the finite differences."""
    with grad_mode.no_grad():
        return Hypot.apply(Tensor._wrap(x), Tensor._wrap(y))._array


@step("C5")
def hypot_in_reverse_mode(see):
    x, y = _hypot_inputs(see, (5,))
    grad = draw.values(see.rng, (5,))
    xs, ys = _leaf(x, True), _leaf(y, True)
    r = Hypot.apply(xs, ys)
    see.require(isinstance(r, Tensor) and r.grad_fn is not None, N_("Hypot.apply(x, y) must return a tensor with a node"))
    see(r, N_("Hypot.apply(x, y) for x and y drawn at random"))
    r.backward(Tensor._wrap(grad))
    see([xs.grad, ys.grad], N_("x.grad and y.grad after Hypot.apply(x, y).backward(grad)"))
    h, x64, y64 = 1e-6, x.astype(np.float64), y.astype(np.float64)
    central = (_hypot_array(x64 + h, y64) - _hypot_array(x64 - h, y64)) / (2 * h) * grad
    see.that(isinstance(xs.grad, Tensor) and np.allclose(xs.grad._array, central, atol=1e-4),
             N_("x.grad must agree with central differences of your forward"))


@step("C5")
def hypot_in_forward_mode(see):
    x, y = _hypot_inputs(see, (4,))
    tangents = draw.values(see.rng, (4,)), draw.values(see.rng, (4,))
    with forward_ad.dual_level():
        both = Hypot.apply(forward_ad.make_dual(_leaf(x), _leaf(tangents[0])),
                           forward_ad.make_dual(_leaf(y), _leaf(tangents[1])))
        tangent = see.attempt(lambda: forward_ad.unpack_dual(both).tangent, (ValueError, NOT_SAVED_FOR_FORWARD),
                              (RuntimeError, JVP_PER_INPUT))
        x_only = forward_ad.unpack_dual(Hypot.apply(forward_ad.make_dual(_leaf(x), _leaf(tangents[0])), _leaf(y))).tangent
    see(tangent, N_("the tangent of Hypot.apply(x, y) for tangents of x and y drawn at random"),
        mistakes=[(_leaf(x * tangents[0] + y * tangents[1]), JVP_NOT_DIVIDED)])
    see(x_only, N_("the tangent of Hypot.apply(x, y) when only x has a tangent"))
    h, x64, y64 = 1e-6, x.astype(np.float64), y.astype(np.float64)
    dx, dy = (t.astype(np.float64) * h for t in tangents)
    central = (_hypot_array(x64 + dx, y64 + dy) - _hypot_array(x64 - dx, y64 - dy)) / (2 * h)
    see.that(isinstance(tangent, Tensor) and np.allclose(tangent._array, central, atol=1e-4),
             N_("the tangent must agree with central differences of your forward along the tangents"))
