"""Checks for chapter 3: turning tracking off."""
import numpy as np

from ...autograd import grad_mode
from ...autograd.grad_mode import enable_grad, no_grad, set_grad_enabled
from ...autograd.graph import Node
from ...messages import N_
from ...tensor import Tensor
from .. import draw, step


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
    "the exception raised inside the block did not come out of it: check what __exit__ returns, and what "
    "Python does with that value (reread exercise 3.1)."
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


def _modes_in_nested_blocks(see, block, deepest, deeper):
    """Grad mode inside and after each of several ``block()``s nested at random (one more level with chance
    ``deeper``, up to ``deepest`` - 1 levels), some left early by an exception, and at the end."""
    modes = []

    def enter(depth):
        with block():
            modes.append(grad_mode._enabled)
            if depth and see.rng.random() < deeper:
                enter(depth - 1)
            modes.append(grad_mode._enabled)
            if see.rng.random() < 0.3:
                raise KeyError("leaving early")

    try:
        enter(int(see.rng.integers(1, deepest)))
    except KeyError:
        pass
    modes.append(grad_mode._enabled)
    return modes


@step("3.1")
def nested_blocks_drawn_at_random(see):
    see(_modes_in_nested_blocks(see, no_grad, 5, 0.7),
        N_("grad mode at each step in and out of no_grad blocks nested at random"))


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


NOT_ON = N_(
    "grad mode stayed off inside `with enable_grad()` in a no_grad block: entering must switch recording on, "
    "whatever the mode was (reread exercise 3.4)."
)
LEFT_ON = N_(
    "after an enable_grad block inside a no_grad block, grad mode stayed on: __exit__ must give back the mode "
    "__enter__ found (off, here), not switch recording on (reread exercise 3.4)."
)
SWITCHED_OFF = N_(
    "after an enable_grad block outside any no_grad block, grad mode was off: __exit__ must give back the mode "
    "__enter__ found (on, here), not switch recording off (reread exercise 3.4)."
)
LEFT_ON_AFTER_ERROR = N_(
    "an exception left an enable_grad block inside a no_grad block, and grad mode stayed on: Python calls "
    "__exit__ on an exception too, and it must give back the mode there as well (reread exercise 3.4)."
)
SWALLOWED_3_4 = N_(
    "the exception raised inside the enable_grad block did not come out of it: check what __exit__ "
    "returns, and what Python does with that value (reread exercise 3.4)."
)


def _mode_after_error(context):
    """Whether an exception raised inside ``with context():`` came out, and the mode after it."""
    came_out = False
    try:
        with context():
            raise KeyError("inside")
    except KeyError:
        came_out = True
    return came_out, grad_mode._enabled


@step("3.4")
def enable_grad_records_again_inside_no_grad(see):
    with no_grad():
        with enable_grad():
            see(grad_mode._enabled, N_("grad mode inside `with enable_grad()` inside `with no_grad()`"),
                mistakes=[(False, NOT_ON)])
        see(grad_mode._enabled, N_("grad mode after the enable_grad block, still inside no_grad"),
            mistakes=[(True, LEFT_ON)])
    see(grad_mode._enabled, N_("grad mode after both blocks"))


@step("3.4")
def enable_grad_gives_back_an_enabled_mode(see):
    with enable_grad():
        pass
    see(grad_mode._enabled, N_("grad mode after an enable_grad block outside any no_grad block"),
        mistakes=[(False, SWITCHED_OFF)])


@step("3.4")
def enable_grad_restores_the_mode_after_an_exception(see):
    with no_grad():
        came_out, mode = _mode_after_error(enable_grad)
    see(came_out, N_("whether the exception raised inside the enable_grad block came out of it"),
        mistakes=[(False, SWALLOWED_3_4)])
    see(mode, N_("grad mode after an exception left an enable_grad block inside no_grad"),
        mistakes=[(True, LEFT_ON_AFTER_ERROR)])


@step("3.4")
def a_tensor_computed_under_enable_grad_records(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    with no_grad():
        with enable_grad():
            y = x * 2
        z = x * 2
    see(y.requires_grad, N_("requires_grad of x * 2 computed under enable_grad inside no_grad"))
    see(z.requires_grad, N_("requires_grad of x * 2 computed after the enable_grad block, inside no_grad"))


@step("3.4")
def no_grad_and_enable_grad_nested_at_random(see):
    either = lambda: no_grad() if see.rng.random() < 0.5 else enable_grad()  # noqa: E731 - drawn at each block
    see(_modes_in_nested_blocks(see, either, 6, 0.8),
        N_("grad mode at each step in and out of no_grad and enable_grad blocks nested at random"))


NOT_AT_ONCE = N_(
    "set_grad_enabled(False) called as a plain function did not switch grad mode off: like PyTorch's, it "
    "takes effect when it is called (in __init__), not only when a `with` block is entered (reread exercise 3.5)."
)
REMEMBERED_TOO_LATE = N_(
    "after `with set_grad_enabled(False):` grad mode stayed off: the mode to give back must be remembered "
    "before set_grad_enabled switches it, not after (reread exercise 3.5)."
)
SWITCHED_ON_3_5 = N_(
    "after `with set_grad_enabled(False):` inside a no_grad block, grad mode was on: __exit__ must give back "
    "the mode of before the call, not switch recording on or flip the mode it set (reread exercise 3.5)."
)
LEFT_AFTER_ERROR_3_5 = N_(
    "an exception left a set_grad_enabled block and grad mode was not given back: Python calls __exit__ on "
    "an exception too, and it must restore the mode there as well (reread exercise 3.5)."
)
SWALLOWED_3_5 = N_(
    "the exception raised inside the set_grad_enabled block did not come out of it: check what __exit__ "
    "returns, and what Python does with that value (reread exercise 3.5)."
)


@step("3.5")
def set_grad_enabled_takes_effect_when_called(see):
    set_grad_enabled(False)
    see(grad_mode._enabled, N_("grad mode after the plain call set_grad_enabled(False)"),
        mistakes=[(True, NOT_AT_ONCE)])
    x = _leaf([1.0], requires_grad=True)
    see((x * 2).requires_grad, N_("requires_grad of x * 2 after set_grad_enabled(False)"))
    set_grad_enabled(True)
    see(grad_mode._enabled, N_("grad mode after the plain call set_grad_enabled(True)"))
    grad_mode._set_enabled(True)


@step("3.5")
def set_grad_enabled_restores_the_previous_mode(see):
    with set_grad_enabled(False):
        see(grad_mode._enabled, N_("grad mode inside `with set_grad_enabled(False)`"))
    see(grad_mode._enabled, N_("grad mode after `with set_grad_enabled(False)`"),
        mistakes=[(False, REMEMBERED_TOO_LATE)])
    grad_mode._set_enabled(True)
    with no_grad():
        with set_grad_enabled(True):
            see(grad_mode._enabled, N_("grad mode inside `with set_grad_enabled(True)` inside no_grad"))
        see(grad_mode._enabled, N_("grad mode after `with set_grad_enabled(True)`, still inside no_grad"),
            mistakes=[(True, SWITCHED_ON_3_5)])
        with set_grad_enabled(False):
            pass
        see(grad_mode._enabled, N_("grad mode after `with set_grad_enabled(False)` inside no_grad"),
            mistakes=[(True, SWITCHED_ON_3_5)])
    grad_mode._set_enabled(True)


@step("3.5")
def set_grad_enabled_restores_the_mode_after_an_exception(see):
    came_out, mode = _mode_after_error(lambda: set_grad_enabled(False))
    grad_mode._set_enabled(True)
    see(came_out, N_("whether the exception raised inside the set_grad_enabled block came out of it"),
        mistakes=[(False, SWALLOWED_3_5)])
    see(mode, N_("grad mode after an exception left `with set_grad_enabled(False)`"),
        mistakes=[(False, LEFT_AFTER_ERROR_3_5)])


@step("3.5")
def set_grad_enabled_refuses_what_is_not_a_bool(see):
    see.error(lambda: set_grad_enabled(1), N_("the error for set_grad_enabled(1)"), kind=TypeError)
    see(grad_mode._enabled, N_("grad mode after set_grad_enabled(1) was refused"))
    grad_mode._set_enabled(True)


@step("3.5")
def set_grad_enabled_drawn_at_random(see):
    modes = []
    for _ in range(int(see.rng.integers(2, 6))):
        wanted = bool(see.rng.random() < 0.5)
        if see.rng.random() < 0.5:
            set_grad_enabled(wanted)
            modes.append(grad_mode._enabled)
        else:
            with set_grad_enabled(wanted):
                modes.append(grad_mode._enabled)
            modes.append(grad_mode._enabled)
    grad_mode._set_enabled(True)
    see(modes, N_("grad mode after each call of set_grad_enabled, plain or with `with`, drawn at random"))


SHARED_CONTEXT = N_(
    "after a recursive call of a function decorated with @no_grad(), grad mode stayed off: each call must run "
    "in a context of its own (self._clone()), or the inner calls overwrite the mode the outer one remembered "
    "(challenge C3)."
)
NOT_IN_MODE = N_(
    "the decorated function did not run in the mode: the decorator called it without entering the "
    "context (challenge C3)."
)
LEAKED = N_(
    "between two values of a decorated generator, the caller was left in the generator's mode: enter the mode "
    "around each resumption only, and leave it before handing the value out (challenge C3)."
)
GENERATOR_OUTSIDE = N_(
    "the decorated generator's body did not run in the mode: each resumption (send, throw, close) must happen "
    "inside a fresh block of the mode (challenge C3)."
)


def _grad_enabled_now():
    return grad_mode._enabled


# The usual mistake that makes C3's code loop forever, named when ``minigrad.check`` stops it.
LOOPS = {
    "C3": (N_("a loop that catches the generator's StopIteration and goes on instead of returning its value"),),
}


@step("C3")
def a_decorated_function_runs_in_the_mode(see):
    decorated = no_grad()(_grad_enabled_now)
    see(decorated(), N_("grad mode inside a function decorated with @no_grad()"), mistakes=[(True, NOT_IN_MODE)])
    see(grad_mode._enabled, N_("grad mode after calling it"))
    see(decorated.__name__, N_("the name of the decorated function"))
    with no_grad():
        see(enable_grad()(_grad_enabled_now)(), N_("grad mode inside a function decorated with @enable_grad(), "
                                                   "called inside no_grad"), mistakes=[(False, NOT_IN_MODE)])
        see(grad_mode._enabled, N_("grad mode after that call, still inside no_grad"))


@step("C3")
def a_recursive_decorated_function_gives_the_mode_back(see):
    def countdown(n):
        return countdown(n - 1) if n else grad_mode._enabled

    countdown = no_grad()(countdown)
    see(countdown(3), N_("grad mode at the bottom of a recursive function decorated with @no_grad()"))
    see(grad_mode._enabled, N_("grad mode after the recursive calls"), mistakes=[(False, SHARED_CONTEXT)])
    grad_mode._set_enabled(True)


NOT_GIVEN_BACK_ON_ERROR = N_(
    "grad mode stayed off after the decorated function raised: the mode was given back when a call returned, not "
    "when it raised (challenge C3)."
)


@step("C3")
def errors_leave_a_decorated_function(see):
    def fails():
        raise KeyError("inside")

    came_out = False
    try:
        no_grad()(fails)()
    except KeyError:
        came_out = True
    see(came_out, N_("whether the exception raised in a decorated function came out of it"))
    see(grad_mode._enabled, N_("grad mode after the exception"), mistakes=[(False, NOT_GIVEN_BACK_ON_ERROR)])
    grad_mode._set_enabled(True)


def _generator_trace():
    """Drive a generator decorated with @no_grad(): the modes it and its caller see at each turn."""
    cleanup = []

    def steps():
        got = yield grad_mode._enabled
        try:
            yield [got, grad_mode._enabled]
        except KeyError:
            yield ["thrown", grad_mode._enabled]
        finally:
            cleanup.append(grad_mode._enabled)
        return "done"

    steps = no_grad()(steps)
    walk = steps()
    trace = [next(walk), grad_mode._enabled, walk.send(5), grad_mode._enabled]
    trace += [walk.throw(KeyError("thrown in")), grad_mode._enabled]
    try:
        next(walk)
    except StopIteration as stop:
        trace.append(stop.value)
    closed = steps()
    next(closed)
    closed.send(1)
    closed.close()
    return trace, cleanup, grad_mode._enabled


@step("C3")
def a_decorated_generator_runs_each_step_in_the_mode(see):
    trace, cleanup, after = _generator_trace()
    grad_mode._set_enabled(True)
    see(trace[0], N_("grad mode inside a generator decorated with @no_grad(), at its first value"),
        mistakes=[(True, GENERATOR_OUTSIDE)])
    see(trace[1], N_("the caller's grad mode after the generator's first value"), mistakes=[(False, LEAKED)])
    see(trace, N_("the values and modes of a decorated generator driven by next, send, throw and next again"))
    see(cleanup, N_("grad mode in the generator's finally clause, when it ends and when it is closed"))
    see(after, N_("grad mode after the generators are done"))


@step("C3")
def decorated_functions_calling_each_other_at_random(see):
    def innermost():
        return [grad_mode._enabled]

    call = innermost
    for _ in range(int(see.rng.integers(2, 6))):
        kind = see.rng.choice(["no_grad", "enable_grad", "on", "off"])
        context = {"no_grad": no_grad, "enable_grad": enable_grad}.get(kind)
        decorate = context() if context else set_grad_enabled(kind == "on")

        def outer(inner=call):
            return [grad_mode._enabled] + inner()

        call = decorate(outer)
    with (no_grad() if see.rng.random() < 0.5 else enable_grad()):
        modes = call() + [grad_mode._enabled]
    see(modes + [grad_mode._enabled], N_("grad mode in each of decorated functions calling each other, drawn at "
                                         "random, then after them"))
    grad_mode._set_enabled(True)
