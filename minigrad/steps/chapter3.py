"""Checks for chapter 3: turning tracking off."""
import numpy as np

from ..autograd import grad_mode
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node
from ..messages import N_
from ..tensor import Tensor
from . import draw, step


def _leaf(values, requires_grad=False, dtype=np.float32):
    return Tensor._wrap(np.asarray(values, dtype=dtype), requires_grad)


@step("3.1")
def no_grad_turns_recording_off_and_back_on(see):
    with no_grad():
        see(grad_mode._enabled, N_("grad mode inside `with no_grad()`"))
    see(grad_mode._enabled, N_("grad mode after the block"))


SWITCHED_ON = N_(
    "leaving the inner block switched grad mode on while the outer block was still open: __exit__ must put back "
    "the mode __enter__ found (remembered on the object), not switch it on (reread exercise 3.1)."
)
LEFT_OFF = N_(
    "an exception left the block and grad mode stayed off: Python calls __exit__ on an exception too, and it "
    "must restore the mode there as well (reread exercise 3.1)."
)
SWALLOWED = N_(
    "the exception raised inside the block did not come out of it: __exit__ must not return True, which tells "
    "Python to swallow the exception (reread exercise 3.1)."
)


@step("3.1")
def no_grad_restores_the_previous_mode_when_nested(see):
    with no_grad():
        with no_grad():
            pass
        see(grad_mode._enabled, N_("grad mode after an inner no_grad block ends inside an outer one"),
            mistakes=[(True, SWITCHED_ON)])
    see(grad_mode._enabled, N_("grad mode after both blocks"))


@step("3.1")
def no_grad_restores_the_mode_after_an_exception(see):
    came_out = False
    try:
        with no_grad():
            raise KeyError("inside")
    except KeyError:
        came_out = True
    see(came_out, N_("whether the exception raised inside the block came out of it"), mistakes=[(False, SWALLOWED)])
    see(grad_mode._enabled, N_("grad mode after an exception left the block"), mistakes=[(False, LEFT_OFF)])


@step("3.2")
def detach_shares_data_and_version_counter(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    d = x.detach()
    see.that(d is not x, N_("detach() must return a new tensor"))
    see.that(d._array is x._array, N_("detach() must share the array, not copy it"))
    see.that(d._version_counter is x._version_counter, N_("detach() must share the version counter"))
    see(d.requires_grad, N_("detach().requires_grad"))
    see(d.grad_fn, N_("detach().grad_fn"))


@step("3.3")
def requires_grad_switches_a_leaf(see):
    x = _leaf([1.0, 2.0])
    see.that(x.requires_grad_() is x, N_("requires_grad_() must return the tensor itself"))
    see(x.requires_grad, N_("requires_grad after requires_grad_()"))
    x.requires_grad_(False)
    see(x.requires_grad, N_("requires_grad after requires_grad_(False)"))


@step("3.3")
def requires_grad_refuses_integers(see):
    see.error(lambda: _leaf([1, 2], dtype=np.int64).requires_grad_(), N_("the error for requires_grad_() on an int64 tensor"))


@step("3.3")
def requires_grad_false_refuses_non_leaves(see):
    y = _leaf([1.0])
    y.grad_fn, y._requires_grad = Node(), True
    see.that(y.requires_grad_(True) is y, N_("requires_grad_(True) on a non-leaf returns it unchanged"))
    see.error(lambda: y.requires_grad_(False), N_("the error for requires_grad_(False) on a non-leaf"))


@step("3.1")
def nested_blocks_drawn_at_random(see):
    modes = []

    def enter(depth):
        with no_grad():
            modes.append(grad_mode._enabled)
            if depth and see.rng.random() < 0.7:
                enter(depth - 1)
            modes.append(grad_mode._enabled)
            if see.rng.random() < 0.3:
                raise KeyError("leaving early")

    try:
        enter(int(see.rng.integers(1, 5)))
    except KeyError:
        pass
    modes.append(grad_mode._enabled)
    see(modes, N_("grad mode at each step in and out of no_grad blocks nested at random"))


@step("3.2")
def detach_of_drawn_values(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=True)
    d = x.detach()
    see(d, N_("detach() of a tensor drawn at random"))
    see(d.requires_grad, N_("detach().requires_grad"))


@step("3.3")
def requires_grad_of_a_dtype_drawn_at_random(see):
    dtype = see.rng.choice(["float32", "float64", "int64", "int32", "bool"])
    x = _leaf(np.zeros(2), dtype=dtype)
    see.error(x.requires_grad_, N_("the error for requires_grad_() on a tensor of a dtype drawn at random"))
    see(x.requires_grad, N_("requires_grad after requires_grad_() on a tensor of a dtype drawn at random"))
