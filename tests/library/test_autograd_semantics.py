"""Autograd's semantics, checked against PyTorch's behaviour.

Scenarios are written once as functions of the library (``lib`` is minigrad or torch)
and return plain Python values; each is checked against the values PyTorch gives
(recorded here, and compared live when torch is installed). Gradients are also checked
against float64 central differences.
"""
import re

import numpy as np
import pytest

import minigrad as mg
from support.helpers import central_differences, leaf, names


def check_against_differences(program, *shapes, seed=0):
    """minigrad's gradients of ``program(mg, *leaves)`` match central differences (and torch's)."""
    arrays = [np.random.default_rng(seed + i).standard_normal(shape) for i, shape in enumerate(shapes)]

    def value(lib, *values):
        return program(lib, *[lib.tensor(v, dtype=lib.float64) for v in values]).item()

    leaves = [mg.tensor(a, dtype=mg.float64, requires_grad=True) for a in arrays]
    program(mg, *leaves).backward()
    expected = central_differences(lambda *a: value(mg, *a), *[a.copy() for a in arrays])
    for x, want in zip(leaves, expected):
        assert np.allclose(x.grad.numpy(), want, atol=1e-5)
    try:
        import torch
    except ImportError:
        return
    torch_leaves = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]
    program(torch, *torch_leaves).backward()
    for x, t in zip(leaves, torch_leaves):
        assert np.allclose(x.grad.numpy(), t.grad.numpy())


# ---------------------------------------------------------------- grad mode


def _modes(lib):
    """What recording looks like inside each context and decorator, as a list of booleans."""
    x = lib.ones(2, requires_grad=True)
    seen = []

    def records():
        return (x * 2).requires_grad

    with lib.no_grad():
        seen.append(records())
        with lib.enable_grad():
            seen.append(records())
        seen.append(lib.is_grad_enabled())
    seen.append(records())
    # set_grad_enabled(False) switches the mode off as soon as it is made, and back when it decorates
    for decorator in (lib.no_grad, lib.no_grad(), lib.set_grad_enabled(False), lib.inference_mode,
                      lib.inference_mode()):
        seen.append(decorator(records)())
        seen.append(lib.is_grad_enabled())
    with lib.no_grad():
        seen.append(lib.enable_grad(records)())
        seen.append(lib.inference_mode(False)(records)())
    with lib.set_grad_enabled(False):
        seen.append(records())
    seen.append(lib.is_grad_enabled())
    lib.set_grad_enabled(False)  # called, not entered: the mode stays changed
    seen.append(lib.is_grad_enabled())
    lib.set_grad_enabled(True)
    with lib.inference_mode():
        seen += [records(), lib.is_inference_mode_enabled()]
    seen.append(lib.is_inference_mode_enabled())
    try:
        with lib.no_grad():
            raise KeyError
    except KeyError:
        seen.append(lib.is_grad_enabled())
    return seen


MODES = [False, True, False, True, False, False, False, False, False, True, False, True, False, True, True, True,
         False, True, False, False, True, False, True]  # what PyTorch 2.13 gives


def test_grad_mode_contexts_and_decorators():
    assert _modes(mg) == MODES


def test_grad_mode_as_pytorch():
    torch = pytest.importorskip("torch")
    assert _modes(torch) == MODES


def _generator_modes(lib):
    @lib.no_grad()
    def steps():
        yield lib.is_grad_enabled()
        received = yield lib.is_grad_enabled()
        yield received

    run = steps()
    return [next(run), lib.is_grad_enabled(), next(run), run.send("sent"), lib.is_grad_enabled()]


def test_a_decorated_generator_runs_in_the_mode_each_time_it_resumes():
    assert _generator_modes(mg) == [False, True, False, "sent", True]


def test_a_decorated_generator_as_pytorch():
    torch = pytest.importorskip("torch")
    assert _generator_modes(torch) == [False, True, False, "sent", True]


def test_decorators_keep_the_functions_name_and_results():
    @mg.no_grad()
    def double(t):
        """Doc."""
        return t * 2

    assert double.__name__ == "double" and double.__doc__ == "Doc."
    assert double(leaf(1.0)).tolist() == [2.0]


# ---------------------------------------------------------------- detach and requires_grad


def test_detach_shares_data_and_version_counter_but_not_history():
    x = leaf(1.0, 2.0)
    y = x * 2
    d = y.detach()
    assert d._array is y._array and d._version_counter is y._version_counter
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    assert repr(d) == "tensor([2., 4.])"


def test_requires_grad_switches_leaves_only():
    x = mg.ones(2)
    assert x.requires_grad_() is x and x.requires_grad and x.is_leaf
    x.requires_grad = False
    assert not x.requires_grad
    y = leaf(1.0) * 2
    y.requires_grad_(True)  # allowed on a non-leaf: nothing changes (the setter refuses it: see test_errors)
    assert y.requires_grad and not y.is_leaf


def test_requires_grad_spreads_to_results():
    x, c = leaf(1.0), mg.ones(1)
    assert (x * c).requires_grad and not (c * c).requires_grad
    assert (x * c).grad_fn.name() == "MulBackward0" and (c * c).grad_fn is None


# ---------------------------------------------------------------- backward


def test_a_vector_output_needs_the_vector_of_the_product():
    x = leaf(1.0, 2.0, 3.0)
    (x * x).backward(mg.tensor([1.0, 0.1, 0.01]))
    assert x.grad.tolist() == pytest.approx([2.0, 0.4, 0.06])


def test_gradients_accumulate_until_zeroed_or_cleared():
    x = leaf(1.0, 2.0)
    for _ in range(3):
        (x * 3).sum().backward()
    assert x.grad.tolist() == [9.0, 9.0]
    grad = x.grad
    x.grad.zero_()
    (x * 3).sum().backward()
    assert x.grad is grad and x.grad.tolist() == [3.0, 3.0]
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("make", [
    lambda x: (x + 1).sum(), lambda x: x.sum(), lambda x: x.mean(), lambda x: (x - 1).view(2, 1).t().sum(),
])
def test_backward_twice_through_nodes_that_saved_nothing(make):
    x = leaf(1.0, 2.0)
    y = make(x)
    y.backward()
    first = x.grad.tolist()
    y.backward()
    assert x.grad.tolist() == [2 * g for g in first]


def test_backward_twice_with_retain_graph():
    x = leaf(1.0, 2.0)
    y = (x * x * x).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [9.0, 36.0]


def test_saved_tensors_are_freed_after_backward():
    x = leaf(1.0, 2.0)
    y = x.exp()
    saved = y.grad_fn._saved[0]
    y.sum().backward()
    assert saved._array is None and saved._tensor is None


def test_backward_with_inputs_accumulates_into_those_only():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    h = x * w
    (h * h).sum().backward(inputs=[x], retain_graph=True)
    assert x.grad.tolist() == [18.0, 64.0] and w.grad is None
    (h * h).sum().backward(inputs=w)
    assert w.grad.tolist() == [6.0, 32.0] and x.grad.tolist() == [18.0, 64.0]


def test_backward_with_a_non_leaf_input_retains_its_grad():
    x = leaf(1.0, 2.0)
    y = x * 2
    (y * y).sum().backward(inputs=[y])
    assert y.retains_grad and y.grad.tolist() == [4.0, 8.0] and x.grad is None


def test_backward_with_inputs_runs_only_what_leads_to_them():
    x, w = leaf(1.0), leaf(2.0)
    ran = []
    side = w.exp()
    side.grad_fn.register_prehook(lambda grads: ran.append("exp"))
    (x * 2 + side).sum().backward(inputs=[x])
    assert ran == [] and w.grad is None and x.grad.tolist() == [2.0]
    side.sum().backward()  # not run, so its saved result was not freed
    assert ran == ["exp"] and w.grad.tolist() == pytest.approx([np.exp(2.0)])


def test_autograd_backward_takes_several_outputs():
    x = leaf(1.0, 2.0)
    mg.autograd.backward([x * 2, (x * x).sum()], [mg.ones(2), None])
    assert x.grad.tolist() == [4.0, 6.0]


# ---------------------------------------------------------------- autograd.grad


def test_grad_returns_gradients_and_leaves_dot_grad_alone():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    gx, gw = mg.autograd.grad((x * w).sum(), [x, w])
    assert gx.tolist() == [3.0, 4.0] and gw.tolist() == [1.0, 2.0]
    assert x.grad is None and w.grad is None
    (single,) = mg.autograd.grad((x * x).sum(), x)
    assert single.tolist() == [2.0, 4.0] and not single.requires_grad


def test_grad_runs_no_node_that_leads_to_no_input():
    x, w = leaf(1.0), leaf(2.0)
    ran = []
    side = w.exp()
    side.grad_fn.register_prehook(lambda grads: ran.append("exp"))
    w.register_hook(lambda grad: ran.append("w"))
    (gx,) = mg.autograd.grad((x * 2 + side).sum(), x)
    assert gx.tolist() == [2.0] and ran == []
    side.sum().backward()  # its saved tensors were kept
    assert ran == ["exp", "w"]


def test_grad_with_respect_to_a_non_leaf_stops_there():
    x = leaf(1.0, 2.0)
    y = x * 2
    ran = []
    y.grad_fn.register_prehook(lambda grads: ran.append("mul"))
    (gy,) = mg.autograd.grad((y * y).sum(), y)
    assert gy.tolist() == [4.0, 8.0] and ran == [] and x.grad is None


def test_grad_sees_hooks_as_pytorch_does():
    x = leaf(1.0, 1.0)
    x.register_hook(lambda g: g * 10)
    assert mg.autograd.grad((x * 2).sum(), x)[0].tolist() == [20.0, 20.0]
    x = leaf(1.0, 1.0)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    assert mg.autograd.grad((y * 1).sum(), y)[0].tolist() == [10.0, 10.0]
    # when y's node runs (x is wanted too), y's captured gradient is taken before its hook
    gy, gx = mg.autograd.grad((y * 1).sum(), [y, x])
    assert gy.tolist() == [1.0, 1.0] and gx.tolist() == [20.0, 20.0]


def test_grad_allows_unused_inputs_when_asked():
    x, w = leaf(1.0), leaf(2.0, 3.0)
    gx, gw = mg.autograd.grad((x * 2).sum(), [x, w], allow_unused=True)
    assert gx.tolist() == [2.0] and gw is None
    gx, gw = mg.autograd.grad((x * 2).sum(), [x, w], materialize_grads=True)
    assert gw.tolist() == [0.0, 0.0]


def test_grad_of_outputs_with_grad_outputs():
    x = leaf(1.0, 2.0)
    (g,) = mg.autograd.grad([x * 2, x * x], x, [mg.tensor([1.0, 1.0]), mg.tensor([0.5, 0.5])])
    assert g.tolist() == [3.0, 4.0]
    (g,) = mg.autograd.grad(x, x, mg.tensor([3.0, 4.0]))
    assert g.tolist() == [3.0, 4.0]


def test_grad_results_are_new_tensors():
    x = leaf(1.0, 2.0)
    gx, gy = mg.autograd.grad((x + x).sum(), [x, x])
    gx.add_(1)
    assert gy.tolist() == [2.0, 2.0]


def test_create_graph_keeps_the_graph_and_gives_differentiable_gradients():
    x = leaf(1.0, 2.0)
    z = (x * x * x).sum()
    (g,) = mg.autograd.grad(z, x, create_graph=True)
    assert g.grad_fn is not None and g.tolist() == [3.0, 12.0]
    assert mg.autograd.grad(z, x, retain_graph=True)[0].tolist() == [3.0, 12.0]  # the graph was kept
    g.sum().backward()  # g's graph runs through z's nodes, and frees them
    assert x.grad.tolist() == [6.0, 12.0]


# ---------------------------------------------------------------- graph shapes


def test_a_node_used_twice_and_a_diamond():
    check_against_differences(lambda lib, a: (a * a + a).sum(), (3,))
    check_against_differences(lambda lib, x: (lambda h: (h * h.exp() + h.sin()).sum())(x * 2), (2, 3))
    x = leaf(3.0)
    h = x * 2
    (h * h + h).sum().backward()
    assert x.grad.tolist() == [26.0]


def test_a_chain_10000_deep():
    x = leaf(1.0, 2.0, dtype=mg.float64)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0001 ** 10_000] * 2, rel=1e-4)


def _dynamic(lib, x):
    """The graph depends on the values: Python control flow decides which operations run."""
    y = x * 2
    steps = 0
    while y.norm() < 50 and steps < 20:
        y = y * 2 if y.sum() > 0 else y - 1
        steps += 1
    total = y[0]
    for value in y[1:]:
        total = total + value if value > 0 else total - value * value
    return total


def test_dynamic_graphs_built_by_control_flow():
    check_against_differences(_dynamic, (4,))


def test_broadcasting_layers_and_matmul():
    check_against_differences(lambda lib, w, b: lib.sigmoid(lib.ones(4, 3, dtype=w.dtype) @ w + b).sum(), (3, 2),
                              (2,))
    check_against_differences(lambda lib, w, b: (lib.ones(5, dtype=w.dtype) @ w + b).tanh().mean(), (5, 3), (3,))


# ---------------------------------------------------------------- graph internals


def test_the_graph_of_a_layer():
    x, w, b = mg.ones(5), mg.ones(5, 3, requires_grad=True), mg.ones(3, requires_grad=True)
    z = mg.matmul(x, w) + b
    assert names(z.grad_fn) == ("SqueezeBackward4", "AccumulateGrad")
    squeeze = z.grad_fn.next_functions[0][0]
    assert names(squeeze) == ("MmBackward0",) and names(squeeze.next_functions[0][0]) == (None, "AccumulateGrad")
    assert z.grad_fn.next_functions[1][0].variable is b
    assert repr(z.grad_fn).startswith("<AddBackward0 object at 0x") and z.grad_fn.name() == "AddBackward0"
    assert z.grad_fn.metadata == {} and z.grad_fn.requires_grad
    assert (x + 2).grad_fn is None  # nothing requires grad: no node at all
    y = w + 1
    assert names((y * y).grad_fn) == ("AddBackward0", "AddBackward0")
    assert names((w + 2).grad_fn) == ("AccumulateGrad", None)


def test_leaves_share_one_accumulator():
    w = leaf(1.0)
    assert (w * 2).grad_fn.next_functions[0][0] is (w + 1).grad_fn.next_functions[0][0]


def test_saved_attributes():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    product = (x * w).grad_fn
    assert product._saved_self is x and product._saved_other is w
    assert (x * mg.ones(2)).grad_fn._saved_self is None
    power = (x ** 2).grad_fn
    assert power._saved_self is x and power._saved_exponent == 2
    result = x.exp()
    saved = result.grad_fn._saved_result
    assert saved is not result and saved.tolist() == result.tolist() and saved.requires_grad
    assert (x + w).grad_fn._saved_alpha == 1
    assert x.sum().grad_fn._saved_self_sym_sizes == (2,)
    assert {"_saved_self", "_saved_other"} <= set(dir(product))
    with pytest.raises(AttributeError):
        product._saved_nothing


def test_a_number_operand_is_saved_as_a_tensor():
    assert repr((leaf(1.0) * 2).grad_fn._saved_other) == "tensor(2)"


def test_is_leaf_and_retain_grad():
    x = leaf(1.0, 2.0)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and mg.ones(1).is_leaf and (mg.ones(1) * 2).is_leaf
    assert not y.retains_grad
    y.retain_grad()
    x.retain_grad()  # a leaf keeps its gradient anyway
    assert y.retains_grad and not x.retains_grad
    (y * y).sum().backward()
    assert y.grad.tolist() == [4.0, 8.0] and x.grad.tolist() == [8.0, 16.0]


def test_tensor_hooks_see_and_may_replace_gradients():
    x = leaf(1.0, 2.0)
    y = x * 3
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    handle = y.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: seen.append(g.tolist()))
    x.register_hook(lambda g: g + 1)
    y.sum().backward()
    assert seen == [[1.0, 1.0], [30.0, 30.0]] and x.grad.tolist() == [31.0, 31.0]
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()  # a new graph: y's hooks are not on it
    assert x.grad.tolist() == [4.0, 4.0]


def test_node_hooks_and_prehooks():
    x = leaf(1.0, 2.0)
    y = x * 3
    calls = []
    y.grad_fn.register_prehook(lambda grads_out: calls.append(("pre", grads_out[0].tolist())))
    handle = y.grad_fn.register_hook(lambda grads_in, grads_out: calls.append(("post", grads_in[0].tolist())))
    y.grad_fn.register_prehook(lambda grads_out: (grads_out[0] * 2,))
    y.sum().backward(retain_graph=True)
    assert calls == [("pre", [1.0, 1.0]), ("post", [6.0, 6.0])] and x.grad.tolist() == [6.0, 6.0]
    handle.remove()
    y.sum().backward()
    assert calls[-1] == ("pre", [1.0, 1.0]) and len(calls) == 3


def test_output_nr_of_a_function_with_two_outputs():
    class Split(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g2, g3):
            return g2 * 2 + g3 * 3

    a, b = Split.apply(leaf(1.0))
    assert (a.output_nr, b.output_nr) == (0, 1) and a.grad_fn is b.grad_fn
    assert ((b * b).grad_fn.next_functions[0][1]) == 1


# ---------------------------------------------------------------- custom Functions


class Exp(mg.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class LegendrePolynomial3(mg.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


def test_a_custom_function_node_and_reprs():
    x = leaf(0.0, 1.0)
    y = Exp.apply(x)
    assert re.fullmatch(r"<torch\.autograd\.function\.ExpBackward object at 0x[0-9a-f]+>", repr(y.grad_fn))
    assert repr(y) == "tensor([1.0000, 2.7183], grad_fn=<ExpBackward>)"
    assert y.grad_fn.name() == "ExpBackward" and isinstance(y.grad_fn, mg.autograd.function.BackwardCFunction)
    assert names(y.grad_fn) == ("AccumulateGrad",) and y.grad_fn.needs_input_grad == (True,)
    assert y.grad_fn.saved_tensors[0].tolist() == y.tolist()
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0, np.e])


def test_a_custom_function_under_no_grad_or_on_constants_records_nothing():
    with mg.no_grad():
        assert Exp.apply(leaf(1.0)).grad_fn is None
    assert not Exp.apply(mg.ones(1)).requires_grad


def test_the_legendre_polynomial_tutorial():
    check_against_differences(lambda lib, c, d: _legendre(lib, c, d), (), ())


def _legendre(lib, c, d):
    x = lib.linspace(-3.0, 3.0, 7, dtype=c.dtype)
    if lib is mg:
        p3 = LegendrePolynomial3.apply(c + d * x)
    else:  # the same Function, written for PyTorch
        p3 = _torch_legendre(lib).apply(c + d * x)
    return (p3 - x.sin()).pow(2).sum()


def _torch_legendre(torch):
    class TorchLegendrePolynomial3(torch.autograd.Function):
        forward = staticmethod(LegendrePolynomial3.forward)
        backward = staticmethod(LegendrePolynomial3.backward)

    return TorchLegendrePolynomial3


def test_non_tensor_arguments_and_needs_input_grad():
    seen = []

    class Scale(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a, k, b):
            ctx.k = k
            return a * k + b

        @staticmethod
        def backward(ctx, grad):
            seen.append(ctx.needs_input_grad)
            return grad * ctx.k, None, grad if ctx.needs_input_grad[2] else None

    a, b = leaf(1.0, 2.0), mg.ones(2)
    y = Scale.apply(a, 3, b)
    assert names(y.grad_fn) == ("AccumulateGrad", None)
    y.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0] and seen == [(True, False, False)]
    assert Scale.apply(a, k=2, b=b).tolist() == [3.0, 5.0]  # keyword arguments bind as forward's


def test_multiple_outputs_and_non_differentiable_ones():
    received = []

    class MaxAndIndex(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            index = a.argmax()
            ctx.mark_non_differentiable(index)
            ctx.save_for_backward(index)
            return a.max(), index

        @staticmethod
        def backward(ctx, grad, grad_index):
            received.append(grad_index.tolist())
            (index,) = ctx.saved_tensors
            result = mg.zeros(3)
            result[index] = grad
            return result

    value, index = MaxAndIndex.apply(leaf(1.0, 5.0, 2.0))
    assert value.requires_grad and not index.requires_grad and index.grad_fn is None
    x = value.grad_fn.next_functions[0][0].variable
    value.backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0] and received == [0]


def test_materialized_gradients_have_each_outputs_shape():
    received = []

    class Two(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a, materialize):
            ctx.set_materialize_grads(materialize)
            return a * 2, a.sum()

        @staticmethod
        def backward(ctx, g1, g2):
            received.append(g2 if g2 is None else g2.shape)
            return g1 * 2, None

    Two.apply(leaf(1.0, 2.0), True)[0].sum().backward()
    Two.apply(leaf(1.0, 2.0), False)[0].sum().backward()
    assert received == [mg.Size([]), None]


def test_an_input_returned_as_is_comes_back_as_a_view():
    class Identity(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, grad):
            return grad

    x = leaf(1.0)
    y = Identity.apply(x)
    assert y is not x and x.is_leaf and y.grad_fn.name() == "IdentityBackward" and y._base is x


def test_the_setup_context_style():
    class Scale(mg.autograd.Function):
        @staticmethod
        def forward(a, k):
            return a * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None

    x = leaf(1.0, 2.0)
    Scale.apply(x, 5.0).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_a_custom_function_is_differentiated_twice_when_its_backward_is():
    x = leaf(1.0, 2.0)
    (g,) = mg.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "MulBackward0"
    (gg,) = mg.autograd.grad(g.sum(), x)
    assert gg.tolist() == pytest.approx(np.exp([1.0, 2.0]).tolist())


def test_once_differentiable_runs_without_recording():
    state = []

    class Cube(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @mg.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            state.append((mg.is_grad_enabled(), type(grad).__name__))
            return grad * 3 * x * x

    x = leaf(1.0, 2.0)
    (g,) = mg.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0] and g.grad_fn is None and state == [(False, "Tensor")]


def test_autograd_module_names():
    assert mg.autograd.Function is mg.autograd.function.Function
    assert callable(mg.autograd.gradcheck) and callable(mg.autograd.functional.jacobian)
    from minigrad.autograd.gradcheck import GradcheckError

    assert issubclass(GradcheckError, RuntimeError)
