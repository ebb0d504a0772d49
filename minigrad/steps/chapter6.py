"""Checks for chapter 6: hooks, retained gradients and the version counter's message."""
import numpy as np

from ..autograd.graph import Node
from ..autograd.saved_tensor import SavedTensor
from ..messages import N_
from ..tensor import Tensor
from . import draw, step


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


@step("6.1")
def retain_grad_keeps_a_non_leaf_gradient(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    see(h.retains_grad, N_("h.retains_grad after retain_grad()"))
    (h * h).sum().backward()
    see(h._grad, N_("h.grad for (h * h).sum()"))


@step("6.1")
def retain_grad_on_a_leaf_changes_nothing(see):
    x = _leaf([1.0], requires_grad=True)
    x.retain_grad()
    see(x.retains_grad, N_("retains_grad of a leaf after retain_grad()"))


@step("6.1")
def retain_grad_refuses_constants(see):
    see.error(lambda: _leaf([1.0]).retain_grad(), N_("the error for retain_grad() on a tensor that does not require grad"))


TWICE = N_(
    "the hook ran twice in one backward: it was registered twice. Store it in one place only, and return the "
    "handle of that one (reread exercise 6.2)."
)
NEVER_CALLED = N_(
    "the hook was never called: a non-leaf's hooks belong to its grad_fn's tensor pre-hooks, under the tensor's "
    "output number; a leaf's in its own _hooks (reread exercise 6.2)."
)
NO_EFFECT = N_(
    "x.grad is what it would be without the hook: the hook was stored where the engine never looks, or its "
    "result was ignored. A leaf's hooks go in its own _hooks (kept on the tensor), and what a hook returns "
    "replaces the gradient (reread exercise 6.2)."
)


@step("6.2")
def a_hook_sees_the_gradient_of_a_non_leaf(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 3
    seen = []
    h.register_hook(lambda grad: seen.append(grad._array.copy()))
    h.sum().backward()
    see(len(seen), N_("calls of the hook during one backward"), mistakes=[(0, NEVER_CALLED), (2, TWICE)])
    see(seen[0] if seen else None, N_("the gradient the hook saw"))


@step("6.2")
def a_hook_may_replace_a_leaf_gradient(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda grad: grad * 10)
    (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad when x's hook multiplies it by 10"), mistakes=[(_leaf([1.0, 1.0]), NO_EFFECT), (_leaf([100.0, 100.0]), TWICE)])


@step("6.2")
def a_removed_hook_is_not_called(see):
    x = _leaf([1.0], requires_grad=True)
    handle = x.register_hook(lambda grad: grad * 10)
    handle.remove()
    (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad after handle.remove()"))


def _mul_node():
    node = Node()
    node.__class__ = type("MulBackward0", (Node,), {"__slots__": ()})
    return node


@step("6.3")
def the_message_names_the_producer_and_the_versions(see):
    b = _leaf([1.0, 2.0, 3.0])
    b.grad_fn, b._requires_grad = _mul_node(), True
    saved = SavedTensor(b)
    b._version_counter[0] += 1
    see(saved._modified_message(None), N_("the message for a saved non-leaf changed once"))


@step("6.3")
def a_leaf_has_no_producer_in_the_message(see):
    w = Tensor._wrap(np.zeros((2, 2)), True)
    saved = SavedTensor(w)
    w._version_counter[0] += 2
    message = saved._modified_message(None)
    see(message, N_("the message for a float64 leaf of shape (2, 2) changed twice"))


@step("6.1")
def retain_grad_on_drawn_values(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=True)
    h = x * float(draw.values(see.rng, ()))
    h.retain_grad()
    (h * x).sum().backward()
    see(h._grad, N_("h.grad for h = c * x, (h * x).sum(), values drawn at random"))


@step("6.2")
def a_hook_drawn_at_random(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=True)
    factor = float(draw.values(see.rng, ()))
    h = x * 2.0
    h.register_hook(lambda grad: grad * factor)
    (h * h).sum().backward()
    see(x._grad, N_("x.grad when h's hook scales its gradient by a number drawn at random"))


@step("6.3")
def the_message_for_a_change_drawn_at_random(see):
    shape = draw.shape(see.rng)
    w = Tensor._wrap(np.zeros(shape, dtype=see.rng.choice(["float32", "float64"])), True)
    saved = SavedTensor(w)
    w._version_counter[0] += int(see.rng.integers(1, 5))
    see(saved._modified_message(None), N_("the message for a leaf of a shape, dtype and version drawn at random"))
