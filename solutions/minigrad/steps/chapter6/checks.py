"""Checks for chapter 6: hooks and their handles, retained gradients, saved-tensor hooks, the version counter."""
import gc
import inspect
import weakref

import numpy as np

from ...autograd.graph import Node
from ...autograd.engine import register_multi_grad_hook
from ...autograd.saved_hooks import SavedForms
from ...autograd.saved_hooks import saved_tensors_hooks
from ...autograd.saved_tensor import HINT, SavedTensor, count_write, share_counter
from ...messages import N_
from ...tensor import Tensor
from .. import draw, step
from ..ids import stub_marker


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


KEPT_ALIVE = N_(
    "a tensor nobody used any more was kept alive by retain_grad(): its node's retain table held it with an "
    "ordinary (strong) reference, so the tensor lives as long as the graph does (reread exercise 6.1)."
)
RETAINED_TWICE = N_(
    "h.grad counted each gradient twice after a second h.retain_grad(): the second call registered the tensor "
    "once more, although it already retained its gradient (reread exercise 6.1)."
)


@step("6.1")
def retain_grad_does_not_keep_the_tensor_alive(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    y = h * 3.0  # y's node leads to h's node: the graph lives on, h is used nowhere else
    alive = weakref.ref(h)
    del h
    gc.collect()
    see(alive() is None, N_("whether h = x * 2 was freed after h.retain_grad(), y = h * 3 and del h"),
        mistakes=[(False, KEPT_ALIVE)])
    y.sum().backward()
    see(x._grad, N_("x.grad for y.sum() afterwards"))


@step("6.1")
def retain_grad_twice_counts_once(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.retain_grad()
    (h * h).sum().backward()
    see(h._grad, N_("h.grad for (h * h).sum() after two calls of h.retain_grad()"),
        mistakes=[(_leaf([8.0, 16.0]), RETAINED_TWICE)])


TWICE = N_(
    "the hook ran twice in one backward: registering it once stored it in two places (reread exercise "
    "6.2)."
)
NEVER_CALLED = N_(
    "the hook was never called: it was stored where the engine does not look for this tensor's hooks "
    "(reread exercise 6.2)."
)
NO_EFFECT = N_(
    "x.grad is what it would be without the hook: the hook was stored where the engine never looks, or "
    "what it returned was ignored (reread exercise 6.2)."
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


def _mul_node():
    node = Node()
    node.__class__ = type("MulBackward0", (Node,), {"__slots__": ()})
    return node


@step("6.5")
def the_message_names_the_producer_and_the_versions(see):
    b = _leaf([1.0, 2.0, 3.0])
    b.grad_fn, b._requires_grad = _mul_node(), True
    saved = SavedTensor(b)
    b._version_counter[0] += 1
    see(saved._modified_message(None), N_("the message for a saved non-leaf changed once"))


@step("6.5")
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


@step("6.5")
def the_message_for_a_change_drawn_at_random(see):
    shape = draw.shape(see.rng)
    w = Tensor._wrap(np.zeros(shape, dtype=see.rng.choice(["float32", "float64"])), True)
    saved = SavedTensor(w)
    w._version_counter[0] += int(see.rng.integers(1, 5))
    see(saved._modified_message(None), N_("the message for a leaf of a shape, dtype and version drawn at random"))


def _unless_untouched(step_id, *functions):
    """A step written only in quiet regions (a ``pass`` until then) is not written while every one
    of them still holds its stub."""
    if all(stub_marker(step_id) in _source(f) for f in functions):
        raise NotImplementedError(f"step {step_id}: its regions are still the stubs")


def _source(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _error_of(run, kind=RuntimeError):
    """The text of the ``kind`` error ``run()`` raises, or None (a stub's error is let through)."""
    try:
        run()
    except NotImplementedError:
        raise
    except kind as error:
        return str(error)
    return None


WRONG_HOOK = N_(
    "remove() took away another hook than its own: a handle removes the hook stored under its id, not the "
    "first or the last one of the table (reread exercise 6.3)."
)
ALL_HOOKS = N_(
    "remove() took away every hook of the tensor: it must remove only the one its handle was returned for "
    "(reread exercise 6.3)."
)
NOT_REMOVED = N_(
    "the hook was still called after remove(): what remove() took the hook out of is not what the engine "
    "reads (reread exercise 6.3)."
)
REMOVED_TWICE_RAISES = N_(
    "removing a hook a second time raised an error: a hook that is gone already has nothing left to remove, "
    "and remove() must then do nothing (reread exercise 6.3)."
)
KEPT_AFTER_WITH = N_(
    "the hook was still there after the `with` block: leaving the block must remove it (reread exercise 6.3)."
)


def _calls_after_removing(x, names, removed):
    """Register one hook per name on ``x``, remove those at positions ``removed``, run a backward:
    the names of the hooks called, in order."""
    calls = []
    handles = [x.register_hook(lambda grad, name=name: calls.append(name)) for name in names]
    for i in removed:
        handles[i].remove()
    (x * 1.0).sum().backward()
    return calls


@step("6.3")
def a_handle_removes_its_own_hook_only(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    calls = _calls_after_removing(x, ["first", "second", "third"], [1])
    see(calls, N_("the hooks called after the second of three was removed"),
        mistakes=[(["first", "second"], WRONG_HOOK), (["second", "third"], WRONG_HOOK), ([], ALL_HOOKS),
                  (["first", "second", "third"], NOT_REMOVED)])


@step("6.3")
def a_removed_hook_of_a_non_leaf_is_not_called(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 3
    calls = []
    h.register_hook(lambda grad: calls.append("kept"))
    handle = h.register_hook(lambda grad: calls.append("removed"))
    handle.remove()
    h.sum().backward()
    see(calls, N_("the hooks of a non-leaf called after the second of two was removed"),
        mistakes=[(["kept", "removed"], NOT_REMOVED), ([], ALL_HOOKS)])


@step("6.3")
def removing_twice_is_harmless(see):
    x = _leaf([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda grad: grad * 10)
    x.register_hook(lambda grad: grad + 1)
    handle.remove()
    raised = None
    try:
        handle.remove()
    except NotImplementedError:
        raise
    except Exception as error:  # the learner's remove() failed: which error, not a traceback
        raised = type(error).__name__
    see(raised, N_("the error raised by a second handle.remove()"),
        mistakes=[(error, REMOVED_TWICE_RAISES) for error in ("KeyError", "TypeError", "AttributeError", "ValueError")])
    (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad with hooks * 10 (removed twice) and + 1"),
        mistakes=[(_leaf([1.0, 1.0]), WRONG_HOOK), (_leaf([11.0, 11.0]), NOT_REMOVED)])


@step("6.3")
def a_handle_used_with_with_removes_its_hook_on_exit(see):
    x = _leaf([1.0], requires_grad=True)
    with x.register_hook(lambda grad: grad * 10):
        (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad after a backward inside `with x.register_hook(times 10)`"))
    (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad after a second backward, after the block"), mistakes=[(_leaf([20.0]), KEPT_AFTER_WITH)])


@step("6.3")
def hooks_removed_at_random(see):
    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=True)
    n = int(see.rng.integers(2, 6))
    steps = [(bool(see.rng.random() < 0.5), float(draw.values(see.rng, ()))) for _ in range(n)]
    handles = [x.register_hook(lambda grad, scale=scale, k=k: grad * k if scale else grad + k) for scale, k in steps]
    for i in see.rng.permutation(n)[: int(see.rng.integers(1, n))]:
        handles[i].remove()
        if see.rng.random() < 0.5:
            handles[i].remove()
    (x * 1.0).sum().backward()
    see(x._grad, N_("x.grad through hooks drawn at random, some removed (once or twice)"))


NOT_PACKED = N_(
    "the pack hook was never called: inside `with saved_tensors_hooks(pack, unpack):` each tensor a node "
    "saves goes through the innermost pack hook when it is saved (reread exercise 6.4)."
)
NEVER_UNPACKED = N_(
    "the unpack hook was never called: after packing, the saved tensor still answered backward with an "
    "array of its own (reread exercise 6.4)."
)
UNPACK_IGNORED = N_(
    "the gradients are those of the tensors as saved, not of what the unpack hook returned: backward must use "
    "the unpack hook's tensor (reread exercise 6.4)."
)
UNPACKED_THE_TENSOR = N_(
    "the unpack hook received the saved tensor instead of what the pack hook returned (reread exercise "
    "6.4)."
)
OUTERMOST = N_(
    "with two saved_tensors_hooks blocks nested, the outer block's pack hook was used: the innermost block "
    "wins, which is the last pair in the list of hooks in effect (reread exercise 6.4)."
)
STILL_CHECKED = N_(
    "a packed tensor changed in place was refused by the version check: once packed, the hooks own the value, "
    "and the saved tensor keeps no array of its own to check (reread exercise 6.4)."
)


def _events_of_a_product(pack_result, unpack_result):
    """Run ``a * b`` under saved-tensor hooks that log each call, then backward: the log and the gradients."""
    events = []
    a, b = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0], requires_grad=True)

    def pack(tensor):
        events.append(["pack", type(tensor).__name__, np.asarray(getattr(tensor, "_array", tensor)).tolist()])
        return pack_result(tensor)

    def unpack(packed):
        events.append(["unpack", type(packed).__name__])
        return unpack_result(packed)

    with saved_tensors_hooks(pack, unpack):
        c = a * b
    events.append(["forward done"])
    c.sum().backward()
    return events, a._grad, b._grad


@step("6.4")
def the_unpack_hooks_tensor_is_used(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    events, grad_a, grad_b = _events_of_a_product(lambda t: t, lambda p: p * 10)
    see(sum(e[0] == "pack" for e in events), N_("calls of the pack hook for a * b"), mistakes=[(0, NOT_PACKED)])
    see(sum(e[0] == "unpack" for e in events), N_("calls of the unpack hook during backward"),
        mistakes=[(0, NEVER_UNPACKED)])
    see([grad_a, grad_b], N_("a.grad and b.grad when pack keeps the tensor and unpack multiplies it by 10"),
        mistakes=[([_leaf([3.0, 4.0]), _leaf([1.0, 2.0])], UNPACK_IGNORED)])


@step("6.4")
def pack_at_save_and_unpack_at_use(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    events, grad_a, grad_b = _events_of_a_product(lambda t: ("box", t), lambda p: (p[1] if isinstance(p, tuple) else p) * 10)
    see(sum(e[0] == "pack" for e in events), N_("calls of the pack hook for a * b"), mistakes=[(0, NOT_PACKED)])
    see(sum(e[0] == "unpack" for e in events), N_("calls of the unpack hook during backward"),
        mistakes=[(0, NEVER_UNPACKED)])
    see([e[1] for e in events if e[0] == "unpack"], N_("the type of what the unpack hook received"),
        mistakes=[(["Tensor", "Tensor"], UNPACKED_THE_TENSOR)])
    see(events, N_("the calls of the hooks, in order (pack for each saved tensor, other first; unpack in backward)"))
    see([grad_a, grad_b], N_("a.grad and b.grad when the unpack hook multiplies the saved tensors by 10"),
        mistakes=[([_leaf([3.0, 4.0]), _leaf([1.0, 2.0])], UNPACK_IGNORED)])


@step("6.4")
def the_innermost_hooks_win(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    a, b = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0], requires_grad=True)
    used = []
    with saved_tensors_hooks(lambda t: used.append("outer") or t, lambda p: p):
        with saved_tensors_hooks(lambda t: used.append("inner") or t, lambda p: p):
            a * b
        a * b
    a * b
    see(used, N_("the pack hooks used for a * b inside two nested blocks, then inside the outer one only, then outside"),
        mistakes=[(["outer", "outer", "outer", "outer"], OUTERMOST)])


@step("6.4")
def an_unpack_hook_must_give_back_a_tensor(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    a, b = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda p: 3):
        c = a * b
    see.error(lambda: c.sum().backward(), N_("the error when the unpack hook returns the number 3"), kind=TypeError)


@step("6.4")
def hooks_for_one_saved_tensor(see):
    a, b = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0, 4.0], requires_grad=True)
    c = a * b
    saved = c.grad_fn._raw_saved_self
    calls = []
    saved.register_hooks(lambda t: calls.append("pack") or t, lambda p: calls.append("unpack") or p * 2)
    see(calls, N_("the calls of the hooks right after register_hooks"), mistakes=[([], NOT_PACKED)])
    see.error(lambda: saved.register_hooks(lambda t: t, lambda p: p), N_("the error for a second register_hooks"))
    c.sum().backward()
    see(calls, N_("the calls of the hooks after backward"), mistakes=[(["pack"], NEVER_UNPACKED)])
    see(b._grad, N_("b.grad when the unpack hook of a * b's saved self doubles it"),
        mistakes=[(_leaf([1.0, 2.0]), UNPACK_IGNORED)])
    see.error(lambda: saved.register_hooks(lambda t: t, lambda p: p), N_("the error for register_hooks after backward"))


@step("6.4")
def a_packed_tensor_is_not_version_checked(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    x = _leaf([1.0, 2.0], requires_grad=True)
    h = x * 2
    with saved_tensors_hooks(lambda t: t, lambda p: p):
        s = h * h
    h.mul_(2)
    checked = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
               f"[torch.FloatTensor [2]], which is output 0 of Mul, is at version 1; expected version 0 instead. {HINT}")
    see(_error_of(lambda: s.sum().backward()), N_("the error of backward through h * h, packed, after h.mul_(2)"),
        mistakes=[(checked, STILL_CHECKED)])
    see(x._grad, N_("x.grad when h * h packed h itself and h was changed in place since"))


@step("6.4")
def saved_tensor_hooks_drawn_at_random(see):
    _unless_untouched("6.4", SavedForms._pack_if_hooked)
    shape = draw.shape(see.rng)
    a = _leaf(draw.values(see.rng, shape), requires_grad=True)
    b = _leaf(draw.values(see.rng, shape), requires_grad=True)
    k = float(draw.values(see.rng, ()))
    with saved_tensors_hooks(lambda t: ("box", t), lambda p: p[1] * k):
        c = (a * b).exp() if see.rng.random() < 0.5 else a * b * a
    c.sum().backward()
    see([a._grad, b._grad], N_("a.grad and b.grad when the unpack hook scales each saved tensor by a number drawn at random"))


NOT_FOLLOWED = N_(
    "a result saved by an in-place operation's own node (y.exp_() keeps e^y, now in y's memory) was not "
    "refused after y changed again (reread exercise 6.6)."
)
NOT_BUMPED = N_(
    "the version did not move after an in-place change: writing into a tensor's memory must count one change "
    "on its version counter (reread exercise 6.6)."
)
BUMPED_TWICE = N_(
    "one in-place change counted two versions: count each write once (reread exercise 6.6)."
)
NOT_CHECKED = N_(
    "backward used a saved tensor changed in place since it was saved, and nothing was raised (reread "
    "exercise 6.6)."
)
COUNTER_REPLACED = N_(
    "the in-place change gave the tensor a new version counter: its views, its detach() copies and the "
    "tensors saved from it still read the old one, and miss the change (reread exercise 6.6)."
)
VIEW_ONLY = N_(
    "an in-place change through a view counted a version on the view only, not on its base (reread "
    "exercise 6.6)."
)


@step("6.6")
def an_in_place_change_is_counted_and_refused_later(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    a = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    c = b * b
    counter = b._version_counter
    b.mul_(3)
    see(b._version, N_("b._version after b.mul_(3)"), mistakes=[(0, NOT_BUMPED), (2, BUMPED_TWICE)])
    see(b._version_counter is counter, N_("whether b still has the same version counter after b.mul_(3)"),
        mistakes=[(False, COUNTER_REPLACED)])
    see(_error_of(lambda: c.sum().backward()), N_("the error of backward through c = b * b after b.mul_(3)"),
        mistakes=[(None, NOT_CHECKED)])


@step("6.6")
def an_unchanged_saved_tensor_is_accepted(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    a = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    c = b * b
    b.exp()
    c.sum().backward()
    see(a._grad, N_("a.grad for c = (2a) * (2a), with no in-place change"))


@step("6.6")
def a_view_and_its_base_share_one_counter(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    x = _leaf(np.zeros(4))
    v = x[:2]
    v.add_(1.0)
    see([x._version, v._version], N_("x._version and v._version after v = x[:2]; v.add_(1)"),
        mistakes=[([0, 1], VIEW_ONLY), ([0, 0], NOT_BUMPED)])
    x.mul_(2.0)
    see([x._version, v._version], N_("x._version and v._version after x.mul_(2) then"),
        mistakes=[([1, 1], VIEW_ONLY)])


@step("6.6")
def a_saved_tensor_changed_through_a_view_is_refused(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    x = _leaf(np.ones((2, 2)), requires_grad=True)
    h = x * 2
    s = h * h
    h[0].mul_(10.0)
    see(h._version, N_("h._version after h[0].mul_(10)"), mistakes=[(0, VIEW_ONLY)])
    see(_error_of(lambda: s.sum().backward()), N_("the error of backward through s = h * h after h[0].mul_(10)"),
        mistakes=[(None, NOT_CHECKED)])


@step("6.6")
def versions_after_changes_drawn_at_random(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    x = _leaf(draw.values(see.rng, (4, 3)))
    views = [x[0], x[:, 1], x.t(), x[1:3]]
    seen = []
    for _ in range(int(see.rng.integers(2, 7))):
        i = int(see.rng.integers(0, len(views) + 1))
        target = x if i == len(views) else views[i]
        if see.rng.random() < 0.5:
            target.add_(1.0)
        else:
            target.mul_(2.0)
        seen.append([x._version] + [v._version for v in views])
    see(seen, N_("the versions of x and of four views after in-place changes drawn at random"))


NOT_ONCE = N_(
    "in mode \"all\" the function must be called once per backward pass, with one gradient per tensor (None for a "
    "tensor the pass did not reach), after the pass has computed them all (challenge C6)."
)
ANY_ONCE = N_(
    "in mode \"any\" the function must be called once per backward pass, with the first gradient computed "
    "(challenge C6)."
)
STILL_CALLED = N_("the function was still called after handle.remove() (challenge C6).")


def _multi_hook_calls(mode):
    """What a multi-grad hook on (a, b) received in each of three backward passes, the last after removing it:
    one list of calls per pass."""
    passes = []
    a, b = _leaf([1.0, 2.0], requires_grad=True), _leaf([3.0], requires_grad=True)
    handle = register_multi_grad_hook(
        (a, b), lambda grads: passes[-1].append(list(grads) if isinstance(grads, (list, tuple)) else grads), mode=mode)
    for loss in (lambda: (a * 2.0).sum() + (b * 3.0).sum(), lambda: (a * 5.0).sum(), lambda: (b * 7.0).sum()):
        if len(passes) == 2:
            handle.remove()
        passes.append([])
        loss().backward()
    return passes


@step("C6")
def a_multi_grad_hook_sees_every_gradient(see):
    passes = _multi_hook_calls("all")
    see([len(calls) for calls in passes], N_("calls of a multi-grad hook (mode \"all\") in each of three backward "
                                            "passes, the last after handle.remove()"),
        mistakes=[([1, 1, 1], STILL_CALLED), ([2, 1, 0], NOT_ONCE), ([2, 1, 1], NOT_ONCE), ([0, 0, 0], NOT_ONCE)])
    see(passes, N_("the gradients each call received, in mode \"all\""))


@step("C6")
def a_multi_grad_hook_of_any_gradient(see):
    passes = _multi_hook_calls("any")
    see([len(calls) for calls in passes], N_("calls of a multi-grad hook (mode \"any\") in each of three backward "
                                            "passes, the last after handle.remove()"),
        mistakes=[([1, 1, 1], STILL_CALLED), ([2, 1, 0], ANY_ONCE), ([2, 1, 1], ANY_ONCE)])
    see(passes, N_("the gradient each call received, in mode \"any\""))


@step("C6")
def a_multi_grad_hook_on_results(see):

    x = _leaf(draw.values(see.rng, draw.shape(see.rng)), requires_grad=True)
    y, z = x * 2.0, x * 3.0
    calls = []
    register_multi_grad_hook((y, z), lambda grads: calls.append(list(grads)))
    (y * z).sum().backward()
    see(calls, N_("the gradients of y = 2x and z = 3x given to a multi-grad hook by (y * z).sum().backward()"))
    see.error(lambda: register_multi_grad_hook((x,), print, mode="some"), N_("the error for mode=\"some\""),
              kind=ValueError)


@step("6.6")
def a_result_written_in_place_follows_its_tensor(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    a = _leaf([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    y.exp_()
    y.mul_(2.0)
    see(y._version, N_("y._version after y.exp_() then y.mul_(2)"), mistakes=[(0, NOT_BUMPED)])
    see(_error_of(lambda: y.sum().backward()), N_("the error of backward through y = (2a).exp_() after y.mul_(2)"),
        mistakes=[(None, NOT_FOLLOWED)])


@step("6.6")
def an_item_assignment_counts_a_version(see):
    _unless_untouched("6.6", share_counter, count_write, SavedTensor.unpack, SavedTensor.follow)
    x = _leaf(np.zeros(3))
    v = x[1:]
    x[0] = 5.0
    v[0] = 1.0
    see([x._version, v._version], N_("x._version and v._version after x[0] = 5. then v[0] = 1. (v = x[1:])"),
        mistakes=[([0, 0], NOT_BUMPED), ([1, 1], VIEW_ONLY)])
