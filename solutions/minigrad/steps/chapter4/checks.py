"""Checks for chapter 4: seeding backward with a vector, accumulation, zeroing, freeing (forward mode: ``forward.py``)."""
import gc
import inspect
import weakref

import numpy as np

from ...autograd import check_gradient
from ...autograd.graph import Node, accumulate_grad
from ...autograd.saved_tensor import SavedTensor
from ...messages import N_
from ...tensor import Tensor
from .. import draw, step
from ..ids import stub_marker


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


SEED_DTYPE = N_(
    "the seed made from a list kept numpy's own dtype (float64) instead of the output's (float32): a seed must be "
    "what the output's own gradient would be (reread exercise 4.1)."
)


@step("4.1")
def a_gradient_of_the_output_shape_is_accepted(see):
    output = _leaf([[1.0, 2.0], [3.0, 4.0]])
    seed = check_gradient(output, _leaf(np.ones((2, 2))), 0, False)
    see(seed, N_("the seed for gradient=ones(2, 2)"))
    seed = check_gradient(output, [[1.0, 2.0], [3.0, 4.0]], 0, False)
    see(seed, N_("the seed for a gradient given as nested lists"),
        mistakes=[(np.asarray([[1.0, 2.0], [3.0, 4.0]]), SEED_DTYPE)])


@step("4.1")
def a_gradient_of_another_shape_is_refused(see):
    see.error(lambda: check_gradient(_leaf([1.0, 2.0, 3.0]), _leaf([1.0, 1.0]), 0, False), N_("the error for a gradient of shape (2,) given to an output of shape (3,)"))


@step("4.1")
def with_create_graph_the_seed_stays_a_tensor(see):
    v = _leaf([0.5, 0.5])
    see.that(check_gradient(_leaf([1.0, 2.0]), v, 0, True) is v, N_("with create_graph=True, return the gradient tensor itself"))


REPLACED = N_(
    "the new gradient replaced .grad instead of being added to it: gradients accumulate across backward calls, "
    "until someone zeroes .grad (reread exercise 4.2)."
)


VERSION_NOT_COUNTED = N_(
    "adding into .grad in place is an in-place change like any other: it must count one more version of .grad, "
    "so that a node which saved .grad can tell it changed (reread exercise 4.2)."
)
HISTORY_DROPPED = N_(
    "a plain gradient (an array: no create_graph) replaced a .grad that has a history by a new tensor: PyTorch "
    "adds it into that .grad in place, which keeps its grad_fn; only a recorded backward builds a new .grad "
    "(reread exercise 4.2)."
)
SUM_NOT_RECORDED = N_(
    "with create_graph=True the gradient arrives as a tensor, and the sum must be recorded in the graph: build "
    "the new .grad out of place, from .grad and the gradient, instead of writing into the old array "
    "(reread exercise 4.2)."
)


@step("4.2")
def a_second_gradient_is_added(see):
    w = _leaf([1.0, 2.0], requires_grad=True)
    w._grad = _leaf([0.5, 0.5])
    kept = w._grad
    accumulate_grad(w, np.array([1.0, 2.0], dtype=np.float32))
    see(w._grad, N_("w.grad after a second gradient arrives"), mistakes=[(_leaf([1.0, 2.0]), REPLACED)])
    see.that(w._grad is kept, N_("add in place: w.grad must stay the same tensor"))
    see(kept._version, N_("the version of w.grad after one addition in place"), mistakes=[(0, VERSION_NOT_COUNTED)])


@step("4.2")
def a_grad_with_a_history_grows_in_place(see):
    w = _leaf([1.0, 2.0], requires_grad=True)
    w._grad = _leaf([0.5, 0.5], requires_grad=True) * 2  # as after backward(create_graph=True)
    kept, producer = w._grad, w._grad.grad_fn
    accumulate_grad(w, np.array([1.0, 2.0], dtype=np.float32))
    see.that(w._grad is kept, HISTORY_DROPPED)
    see.that(w._grad.grad_fn is producer, HISTORY_DROPPED)
    see(w._grad._array, N_("the values of w.grad after a plain gradient is added"))


@step("4.2")
def a_recorded_gradient_makes_a_new_grad(see):
    w = _leaf([1.0, 2.0], requires_grad=True)
    w._grad = kept = _leaf([0.5, 0.5])
    accumulate_grad(w, _leaf([1.0, 2.0], requires_grad=True) * 1)  # a tensor, as with create_graph=True
    see(w._grad.requires_grad, N_("whether w.grad requires grad after a recorded gradient is added"),
        mistakes=[(False, SUM_NOT_RECORDED)])
    see(kept._array, N_("the former w.grad, which must be left as it was"), mistakes=[(np.array([1.5, 2.5], np.float32), SUM_NOT_RECORDED)])
    see(w._grad._array, N_("the values of the new w.grad"))


@step("4.3")
def zero_fills_in_place_and_counts_a_version(see):
    g = _leaf([1.0, -2.0, 3.0])
    array = g._array
    see.that(g.zero_() is g, N_("zero_() must return the tensor itself"))
    see(g, N_("the tensor after zero_()"))
    see.that(g._array is array, N_("zero_() must change the array in place"))
    see(g._version, N_("the version after one in-place change"))


NOTHING_RELEASED = N_(
    "release_saved let go of none of the node's saved tensors: each SavedTensor among them still holds its "
    "memory (reread exercise 4.4)."
)
ARRAY_KEPT = N_(
    "after release(), a SavedTensor still holds its array, so its memory is never given back "
    "(reread exercise 4.4)."
)
TENSOR_KEPT = N_(
    "after release(), a SavedTensor still holds its tensor (half freed): the tensor keeps the same memory alive "
    "(reread exercise 4.4)."
)


def _saved_of(node):
    return [value for value in node._saved if value is not None]


def _written():
    """Step 4.4's stubs do nothing (a quiet ``pass``): only when both are untouched is the step not written.
    A step half written is checked, so the checks can say which half is missing."""
    untouched = [f for f in (Node._release, SavedTensor.release) if stub_marker("4.4") in _source(f)]
    if len(untouched) == 2:
        raise NotImplementedError("step 4.4: release_saved and SavedTensor.release are still the stubs")


def _source(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _released(see, saved):
    """Whether each of ``saved`` let go of its value, with the usual mistakes named."""
    see.that(any(value._array is None or value._tensor is None for value in saved), NOTHING_RELEASED)
    see.that(all(value._array is None for value in saved), ARRAY_KEPT)
    see.that(all(value._tensor is None for value in saved), TENSOR_KEPT)


@step("4.4")
def release_lets_go_of_every_saved_tensor(see):
    _written()
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    node = (x * x).grad_fn  # MulBackward0 saves both factors
    saved = _saved_of(node)
    node._release()
    _released(see, saved)
    see.error(lambda: node._saved_self, N_("the error for reading _saved_self after _release()"))


@step("4.4")
def backward_gives_the_memory_back_unless_the_graph_is_retained(see):
    _written()
    x = _leaf(np.ones(1000), requires_grad=True)
    h = x * 2
    kept = weakref.ref(h._array)
    y = h * h  # saves h: the only thing left that holds h's array once h is gone
    del h
    y.sum().backward(retain_graph=True)
    see.that(kept() is not None, N_("with retain_graph=True the saved tensors must stay"))
    y.sum().backward()
    _released(see, _saved_of(y.grad_fn))
    gc.collect()
    see.that(kept() is None, N_("after backward without retain_graph, the saved intermediate's memory must be freed"))
    see(x.grad, N_("x.grad after two backward calls"))


@step("4.1")
def seeds_of_shapes_drawn_at_random(see):
    shape = draw.shape(see.rng)
    output = _leaf(draw.values(see.rng, shape))
    see(check_gradient(output, _leaf(draw.values(see.rng, shape)), 0, False), N_("the seed for a gradient of the output's shape, drawn at random"))
    other = draw.shape(see.rng)
    see.error(lambda: check_gradient(output, _leaf(draw.values(see.rng, other)), 0, False),
              N_("the error (or none) for a gradient of a shape drawn at random"))


@step("4.2")
def gradients_drawn_at_random_add_up(see):
    shape = draw.shape(see.rng)
    w = _leaf(draw.values(see.rng, shape), requires_grad=True)
    w._grad = _leaf(draw.values(see.rng, shape))
    for _ in range(int(see.rng.integers(1, 4))):
        last = draw.values(see.rng, shape)
        accumulate_grad(w, last)
    see(w._grad, N_("w.grad after gradients drawn at random arrive"), mistakes=[(_leaf(last), REPLACED)])


@step("4.3")
def zero_of_drawn_values(see):
    g = _leaf(draw.values(see.rng, draw.shape(see.rng)))
    g.zero_()
    see(g, N_("a tensor drawn at random after zero_()"))
    see(g._version, N_("the version after one in-place change"))


@step("4.4")
def backward_frees_a_chain_drawn_at_random(see):
    x = _leaf(draw.values(see.rng, (3,)), requires_grad=True)
    y, nodes = x, []
    for _ in range(int(see.rng.integers(1, 6))):
        y = y * x
        nodes.append(y.grad_fn)
    saved = [value for node in nodes for value in _saved_of(node)]
    _written()
    y.sum().backward()
    see([value._array is None for value in saved], N_("for each tensor the chain's nodes saved: freed by backward"))
