"""``nn.Module`` hooks: forward pre-hooks, forward hooks, full backward (pre-)hooks, the older backward hooks.

Each scenario runs the same code in minigrad and in PyTorch (same weights, same inputs, fixed seeds) and
writes down what the hooks saw, in the order they ran, what they changed, the ``grad_fn`` names, the
warnings and the errors. The two transcripts must be equal.
"""
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="the hooks need a working autograd")
RNG = np.random.RandomState(0)
X = RNG.randn(5, 3).astype(np.float32)
W1, B1 = RNG.randn(4, 3).astype(np.float32), RNG.randn(4).astype(np.float32)
W2, B2 = RNG.randn(2, 4).astype(np.float32), RNG.randn(2).astype(np.float32)


def net(lib):
    """Linear(3, 4), ReLU, Linear(4, 2) with the weights above."""
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for layer, (w, b) in ((model[0], (W1, B1)), (model[2], (W2, B2))):
            layer.weight.copy_(lib.tensor(w))
            layer.bias.copy_(lib.tensor(b))
    return model


def described(value):
    """A hook's argument, comparable across the libraries: shapes and rounded sums of tensors."""
    if isinstance(value, (tuple, list)):
        return [described(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "shape"):
        return ("tensor", tuple(value.shape), round(float(value.detach().sum()), 3), value.requires_grad)
    return value


def transcript(scenario, lib):
    """What ``scenario(lib, log)`` logs, then its warnings (category and message) or its error."""
    log = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            scenario(lib, log.append)
        except Exception as e:  # the error is part of what is compared
            log.append(("raised", type(e).__name__, str(e)))
    log.extend((w.category.__name__, str(w.message)) for w in caught)
    return log


def compare(scenario, torch):
    assert transcript(scenario, minigrad) == transcript(scenario, torch)


# ---------------------------------------------------------------- forward hooks


def order_of_every_kind(lib, log):
    model = net(lib)
    for name, module in [("net", model), ("0", model[0]), ("1", model[1]), ("2", model[2])]:
        module.register_forward_pre_hook(lambda m, args, name=name: log(("pre", name, described(args))))
        module.register_forward_hook(lambda m, args, out, name=name: log(("fwd", name, described(out))))
        module.register_full_backward_pre_hook(lambda m, go, name=name: log(("bpre", name, described(go))))
        module.register_full_backward_hook(lambda m, gi, go, name=name: log(("bwd", name, described([gi, go]))))
    x = lib.tensor(X, requires_grad=True)
    out = model(x)
    log(out.grad_fn.name())
    log(model[1](x).grad_fn.name())
    out.sum().backward()
    log(described(x.grad))


def test_hooks_fire_in_pytorchs_order(torch):
    compare(order_of_every_kind, torch)


def replacing_arguments_and_outputs(lib, log):
    layer = net(lib)[0]
    x = lib.tensor(X)
    h = layer.register_forward_pre_hook(lambda m, args: args[0] * 2)  # one value: taken as (value,)
    log(described(layer(x)))
    h.remove()
    h = layer.register_forward_pre_hook(lambda m, args: (args[0] + 1,))
    log(described(layer(x)))
    h.remove()
    layer.register_forward_hook(lambda m, args, out: out * 0 + 7)
    log(described(layer(x)))
    layer.register_forward_hook(lambda m, args, out: None)  # None keeps the output
    log(described(layer(x)))


def test_a_pre_hook_replaces_the_arguments_and_a_hook_the_output(torch):
    compare(replacing_arguments_and_outputs, torch)


def prepend_and_remove(lib, log):
    layer = net(lib)[2]
    handles = [layer.register_forward_hook(lambda m, a, o, n=n: log(("fwd", n))) for n in range(3)]
    layer.register_forward_hook(lambda m, a, o: log("first"), prepend=True)
    layer.register_forward_pre_hook(lambda m, a: log("pre-late"))
    layer.register_forward_pre_hook(lambda m, a: log("pre-first"), prepend=True)
    layer(lib.ones(1, 4))
    handles[1].remove()
    handles[1].remove()  # twice: nothing more
    with layer.register_forward_hook(lambda m, a, o: log("in with")):
        layer(lib.ones(1, 4))
    layer(lib.ones(1, 4))
    log(type(handles[0]).__name__)
    log((len(layer._forward_hooks), len(layer._forward_pre_hooks), len(layer._backward_hooks),
         len(layer._backward_pre_hooks)))


def test_prepend_puts_a_hook_first_and_handles_remove_theirs(torch):
    compare(prepend_and_remove, torch)


class Scaled:
    """A module taking a keyword argument, made in either library."""

    @staticmethod
    def make(lib):
        class Scale(lib.nn.Module):
            def forward(self, x, scale=1.0):
                return x * scale

        return Scale()


def keyword_arguments(lib, log):
    module = Scaled.make(lib)
    x = lib.ones(2)
    module.register_forward_pre_hook(lambda m, args, kwargs: log(("pre", described(args), kwargs)), with_kwargs=True)
    h = module.register_forward_pre_hook(lambda m, args, kwargs: (args, {"scale": 3.0}), with_kwargs=True)
    module.register_forward_hook(lambda m, args, kwargs, out: log(("fwd", kwargs, described(out))), with_kwargs=True)
    log(described(module(x, scale=2.0)))
    h.remove()
    log((len(module._forward_pre_hooks), len(module._forward_pre_hooks_with_kwargs),
         len(module._forward_hooks_with_kwargs)))
    module.register_forward_pre_hook(lambda m, args, kwargs: 3, with_kwargs=True)
    module(x)


def test_hooks_with_kwargs_see_and_replace_the_keyword_arguments(torch):
    compare(keyword_arguments, torch)


def always_call(lib, log):
    class Failing(lib.nn.Module):
        def forward(self, x):
            raise ValueError("forward failed")

    module = Failing()
    module.register_forward_hook(lambda m, a, o: log(("always", o)), always_call=True)
    module.register_forward_hook(lambda m, a, o: log("not called"))
    module.register_forward_hook(lambda m, a, o: 1 / 0, always_call=True)  # its error becomes a warning
    log(len(module._forward_hooks_always_called))
    module(lib.ones(1))


def test_always_call_hooks_run_when_forward_raises(torch):
    compare(always_call, torch)


# ---------------------------------------------------------------- full backward hooks


class TwoInputs:
    @staticmethod
    def make(lib):
        class Two(lib.nn.Module):
            def forward(self, a, b):
                return a * b, a + b, 5

        return Two()


def grad_input_per_positional_input(lib, log):
    module = TwoInputs.make(lib)
    module.register_full_backward_pre_hook(lambda m, go: log(("bpre", described(go))))
    module.register_full_backward_hook(lambda m, gi, go: log(("bwd", described(gi), described(go))))
    a = lib.ones(2, requires_grad=True)
    b = lib.full((2,), 2.0)
    p, s, five = module(a, b)
    log((p.grad_fn.name(), s.grad_fn.name(), five, b.requires_grad))
    p.sum().backward()  # b needs no gradient: zeros; the unused output s: None
    p, s, five = module(a, 3.0)  # a number: None in grad_input
    (p.sum() + s.sum()).backward()
    log(described(a.grad))
    p, s, five = module(a, b)  # the outputs of an earlier call with more tensors do not confuse this one
    p.sum().backward()
    log(described(a.grad))


def test_grad_input_and_grad_output_at_the_modules_boundary(torch):
    compare(grad_input_per_positional_input, torch)


def replacing_gradients(lib, log):
    model = net(lib)
    x = lib.tensor(X, requires_grad=True)
    h = model[0].register_full_backward_hook(lambda m, gi, go: (gi[0] * 2,))
    model(x).sum().backward()
    log(described(x.grad))
    h.remove()
    x.grad = None
    h = model[2].register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
    model(x).sum().backward()
    log((described(x.grad), described(model[0].weight.grad), described(model[2].weight.grad)))
    h.remove()
    model[0].register_full_backward_hook(lambda m, gi, go: log("replaced by a later hook") or (gi[0] * 0,))
    model[0].register_full_backward_hook(lambda m, gi, go: log(("sees", described(gi))) or None, prepend=True)
    x.grad = None
    model(x).sum().backward()
    log(described(x.grad))


def test_a_backward_hook_replaces_grad_input_and_a_pre_hook_grad_output(torch):
    compare(replacing_gradients, torch)


def wrong_numbers_of_gradients(lib, log):
    a = lib.ones(2, requires_grad=True)
    b = lib.full((2,), 2.0)
    module = TwoInputs.make(lib)
    module.register_full_backward_hook(lambda m, gi, go: (None,))
    try:
        module(a, b)[0].sum().backward()
    except RuntimeError as e:
        log(str(e))
    module = TwoInputs.make(lib)
    module.register_full_backward_pre_hook(lambda m, go: (go[0],))
    module(a, b)[0].sum().backward()


def test_a_hook_returning_the_wrong_number_of_gradients_is_refused(torch):
    compare(wrong_numbers_of_gradients, torch)


def no_input_requires_grad(lib, log):
    layer = net(lib)[0]
    layer.register_full_backward_hook(lambda m, gi, go: log(("bwd", described(gi), described(go))))
    layer(lib.tensor(X)).sum().backward()  # fires from the outputs' side, with a warning
    log(described(layer.weight.grad))
    layer.register_full_backward_hook(lambda m, gi, go: (lib.ones(5, 3),))
    layer(lib.tensor(X)).sum().backward()


def test_with_no_input_requiring_grad_the_hook_fires_at_the_outputs(torch):
    compare(no_input_requires_grad, torch)


def untracked_and_odd_outputs(lib, log):
    layer = net(lib)[0]
    layer.register_full_backward_hook(lambda m, gi, go: log("bwd"))
    x = lib.tensor(X, requires_grad=True)
    with lib.no_grad():
        log(layer(x).grad_fn)
    layer.register_forward_hook(lambda m, a, out: {"out": out})
    log(type(layer(x)).__name__)


def test_no_wrap_without_grad_mode_and_a_warning_for_a_dict_output(torch):
    compare(untracked_and_odd_outputs, torch)


def in_place_at_the_boundary(lib, log):
    relu = lib.nn.ReLU(inplace=True)
    relu.register_full_backward_hook(lambda m, gi, go: None)
    x = lib.tensor(X, requires_grad=True)
    try:
        relu(x * 1)
    except RuntimeError as e:
        log(str(e))
    layer = net(lib)[0]
    layer.register_full_backward_pre_hook(lambda m, go: None)
    out = layer(x)
    log((out.grad_fn.name(), out.is_leaf, out._base is not None))
    out.add_(1)


def test_in_place_changes_of_wrapped_tensors_are_refused(torch):
    compare(in_place_at_the_boundary, torch)


def identity_module(lib, log):
    module = lib.nn.Identity() if hasattr(lib.nn, "Identity") else None
    if module is None:  # minigrad without nn.Identity: the same module, written out
        class Identity(lib.nn.Module):
            def forward(self, x):
                return x

        module = Identity()
    module.register_full_backward_hook(lambda m, gi, go: log(("bwd", described(gi), described(go))) or (gi[0] * 3,))
    x = lib.tensor(X, requires_grad=True)
    y = module(x)
    log(y.grad_fn.name())
    y.sum().backward()
    log(described(x.grad))


def test_a_module_that_returns_its_input(torch):
    compare(identity_module, torch)


def double_backward(lib, log):
    class Square(lib.nn.Module):
        def forward(self, x):
            return x * x

    module = Square()
    module.register_full_backward_hook(lambda m, gi, go: log(("bwd", described(gi), described(go))))
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (g,) = lib.autograd.grad(module(x).sum(), x, create_graph=True)
    log(described(g))
    g.sum().backward()
    log(described(x.grad))


def test_create_graph_through_a_hooked_module(torch):
    compare(double_backward, torch)


# ---------------------------------------------------------------- the older backward hooks


def non_full_hooks(lib, log):
    class Double(lib.nn.Module):
        def forward(self, x):
            return x * 2

    module = Double()
    module.register_backward_hook(lambda m, gi, go: log(("old", described(gi), described(go))))
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    out = module(x)
    log(out.grad_fn.name())
    out.sum().backward()
    try:
        module.register_full_backward_hook(lambda m, gi, go: None)
    except RuntimeError as e:
        log(str(e))
    layer = net(lib)[0]
    layer.register_full_backward_hook(lambda m, gi, go: None)
    layer.register_backward_hook(lambda m, gi, go: None)


def test_older_backward_hooks_and_mixing_the_kinds(torch):
    compare(non_full_hooks, torch)


def test_a_module_without_hooks_keeps_the_plain_call():
    """No hook ever registered: ``__call__`` is ``forward`` after one look-up of a class attribute."""
    layer = minigrad.nn.Linear(3, 2)
    assert "_has_hooks" not in layer.__dict__
    assert layer(minigrad.ones(1, 3)).grad_fn.name() != "BackwardHookFunctionBackward"
    layer.register_forward_hook(lambda m, a, o: None).remove()
    assert layer(minigrad.ones(1, 3)).grad_fn.name() != "BackwardHookFunctionBackward"
