"""Checks for chapter 4: seeding backward with a vector, accumulation, zeroing, freeing."""
import gc
import weakref

import numpy as np

from ..autograd import check_gradient
from ..autograd.graph import accumulate_grad
from ..messages import N_
from ..tensor import Tensor
from . import draw, step


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


@step("4.1")
def a_gradient_of_the_output_shape_is_accepted(see):
    output = _leaf([[1.0, 2.0], [3.0, 4.0]])
    seed = check_gradient(output, _leaf(np.ones((2, 2))), 0, False)
    see(seed, N_("the seed for gradient=ones(2, 2)"))
    seed = check_gradient(output, [[1.0, 2.0], [3.0, 4.0]], 0, False)
    see(seed, N_("the seed for a gradient given as nested lists"))


@step("4.1")
def a_gradient_of_another_shape_is_refused(see):
    see.error(lambda: check_gradient(_leaf([1.0, 2.0, 3.0]), _leaf([1.0, 1.0]), 0, False), N_("the error for a gradient of shape (2,) given to an output of shape (3,)"))


@step("4.1")
def with_create_graph_the_seed_stays_a_tensor(see):
    v = _leaf([0.5, 0.5])
    see.that(check_gradient(_leaf([1.0, 2.0]), v, 0, True) is v, N_("with create_graph=True, return the gradient tensor itself"))


@step("4.2")
def a_second_gradient_is_added(see):
    w = _leaf([1.0, 2.0], requires_grad=True)
    w._grad = _leaf([0.5, 0.5])
    kept = w._grad
    accumulate_grad(w, np.array([1.0, 2.0], dtype=np.float32))
    see(w._grad, N_("w.grad after a second gradient arrives"))
    see.that(w._grad is kept, N_("add in place: w.grad must stay the same tensor"))


@step("4.3")
def zero_fills_in_place_and_counts_a_version(see):
    g = _leaf([1.0, -2.0, 3.0])
    array = g._array
    see.that(g.zero_() is g, N_("zero_() must return the tensor itself"))
    see(g, N_("the tensor after zero_()"))
    see.that(g._array is array, N_("zero_() must change the array in place"))
    see(g._version, N_("the version after one in-place change"))


def _saved_of(node):
    return [value for value in node._saved if value is not None]


def _still_all_there(saved):
    """Step 4.4's stub does nothing: if no saved tensor let go of its value, the step is not written yet."""
    if all(value._array is not None for value in saved):
        raise NotImplementedError("step 4.4: after _release() every saved tensor still holds its value")


@step("4.4")
def release_lets_go_of_every_saved_tensor(see):
    x = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    node = (x * x).grad_fn  # MulBackward0 saves both factors
    saved = _saved_of(node)
    node._release()
    _still_all_there(saved)
    for value in saved:
        see.that(value._array is None and value._tensor is None, N_("after _release(), each SavedTensor must hold neither its array nor its tensor"))
    see.error(lambda: node._saved_self, N_("the error for reading _saved_self after _release()"))


@step("4.4")
def backward_gives_the_memory_back_unless_the_graph_is_retained(see):
    x = _leaf(np.ones(1000), requires_grad=True)
    h = x * 2
    kept = weakref.ref(h._array)
    y = h * h  # saves h: the only thing left that holds h's array once h is gone
    del h
    y.sum().backward(retain_graph=True)
    see.that(kept() is not None, N_("with retain_graph=True the saved tensors must stay"))
    y.sum().backward()
    _still_all_there(_saved_of(y.grad_fn))
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
        accumulate_grad(w, draw.values(see.rng, shape))
    see(w._grad, N_("w.grad after gradients drawn at random arrive"))


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
    y.sum().backward()
    _still_all_there(saved)
    see([value._array is None for value in saved], N_("for each tensor the chain's nodes saved: freed by backward"))
