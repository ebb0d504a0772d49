"""Operators, formatting, legacy constructors and misuse errors, as PyTorch has them.

Each test states PyTorch's output (recorded from PyTorch 2.13), so it runs without PyTorch;
where PyTorch is installed, the same code is also run there and compared.
"""
import warnings

import numpy as np
import pytest

import minigrad as mg
from conftest import EDITION, error_of

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


def test_a_zero_dim_tensor_formats_as_its_number(lib):
    x = lib.ones(2, requires_grad=True)
    loss = (x ** 2).sum()
    assert f"loss = {loss}" == "loss = 2.0"
    assert "{}".format(lib.tensor(3)) == "3" and f"{lib.tensor(2.5):.3f}" == "2.500"
    assert f"{lib.tensor([1.0, 2.0])}" == "tensor([1., 2.])"
    assert error_of(lambda: f"{lib.tensor([1.0, 2.0]):.2f}") == (
        "TypeError", "unsupported format string passed to Tensor.__format__")


@pytest.mark.parametrize("flag, message", [
    (True, "you can only change requires_grad flags of leaf variables."),
    (False, "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in "
            "a subgraph that doesn't require differentiation use var_no_grad = var.detach()."),
])
def test_the_requires_grad_setter_refuses_a_non_leaf(lib, flag, message):
    y = lib.ones(2, requires_grad=True) * 2

    def set_flag():
        y.requires_grad = flag

    assert error_of(set_flag) == ("RuntimeError", message)
    assert y.requires_grad_(True) is y  # the method accepts True on a non-leaf


def test_a_non_leaf_grad_that_was_set_reads_without_warning(lib):
    y = lib.ones(2, requires_grad=True) * 2
    y.grad = lib.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad.tolist() == [1.0, 1.0]


def test_float_and_int_of_many_elements(lib):
    for convert in (float, int):
        assert error_of(lambda: convert(lib.tensor([1.0, 2.0]))) == (
            "ValueError", "only one element tensors can be converted to Python scalars")


def test_bitwise_operators_on_masks_and_integers(lib):
    t = lib.tensor([1.0, 2.0, 3.0])
    assert ((t > 1) & (t < 3)).tolist() == [False, True, False]
    assert ((t > 1) | (t < 3)).tolist() == [True, True, True]
    assert ((t > 1) ^ (t < 3)).tolist() == [True, False, True]
    assert (True & (t > 1)).tolist() == [False, True, True]
    assert (lib.tensor([1, 2]) & 3).tolist() == [1, 2]
    assert (lib.tensor([1, 2]) ^ lib.tensor([3, 3])).tolist() == [2, 1]
    assert error_of(lambda: t & t) == ("NotImplementedError", "\"bitwise_and_cpu\" not implemented for 'Float'")


def test_remainder_and_floor_division_values(lib):
    t = lib.tensor([1.0, 2.0, 3.0])
    assert (t % 2).tolist() == [1.0, 0.0, 1.0] and (5 % t).tolist() == [0.0, 1.0, 2.0]
    assert (t // 2).tolist() == [0.0, 1.0, 1.0] and (2 // t).tolist() == [2.0, 1.0, 0.0]
    assert (lib.tensor([-7.0, 7.0]) % lib.tensor([3.0, -3.0])).tolist() == [2.0, -2.0]  # the divisor's sign
    assert (+t) is t


def test_remainder_records_pytorchs_nodes_and_gradients(lib):
    a = lib.tensor([5.0, 7.0, -3.0], requires_grad=True)
    b = lib.tensor([2.0, -3.0, 2.0], requires_grad=True)
    assert (a % 2).grad_fn.name() == "RemainderBackward0"
    out = a % b
    assert repr(out) == "tensor([ 1., -2.,  1.], grad_fn=<RemainderBackward1>)"
    out.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0, 1.0] and b.grad.tolist() == [-2.0, 3.0, 2.0]


def test_remainder_gradient_matches_central_differences():
    a_values, b_values = np.array([5.3, 7.1, -3.2]), np.array([2.0, -3.0, 2.5])
    a, b = mg.tensor(a_values, requires_grad=True), mg.tensor(b_values, requires_grad=True)
    (a % b).sum().backward()
    eps = 1e-6
    for i in range(3):
        step = np.eye(3)[i] * eps
        by_a = (np.remainder(a_values + step, b_values) - np.remainder(a_values - step, b_values)).sum() / (2 * eps)
        by_b = (np.remainder(a_values, b_values + step) - np.remainder(a_values, b_values - step)).sum() / (2 * eps)
        assert (a.grad.tolist()[i], b.grad.tolist()[i]) == (pytest.approx(by_a, abs=1e-5), pytest.approx(by_b, abs=1e-5))


@pytest.mark.parametrize("make, op", [(lambda f: f // 2, "floor_divide"), (lambda f: 5 % f, "remainder")])
def test_operations_without_a_derivative_refuse_backward(lib, make, op):
    f = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = make(f)
    assert repr(out).endswith("grad_fn=<NotImplemented>)")
    assert error_of(lambda: out.sum().backward()) == ("RuntimeError", f"derivative for aten::{op} is not implemented")


def test_sign_is_recorded_with_a_zero_gradient(lib):
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    s = x.sign()
    assert repr(s) == "tensor([ 1., -1.], grad_fn=<SignBackward0>)"
    s.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_legacy_typed_constructors(lib):
    assert repr(lib.LongTensor([1, 2])) == "tensor([1, 2])"
    assert repr(lib.DoubleTensor([1])) == "tensor([1.], dtype=torch.float64)"
    assert repr(lib.FloatTensor([1])) == "tensor([1.])"
    assert repr(lib.IntTensor([3])) == "tensor([3], dtype=torch.int32)"
    assert repr(lib.BoolTensor([1, 0])) == "tensor([ True, False])"
    assert tuple(lib.LongTensor(2).shape) == (2,) and lib.LongTensor(2).dtype == lib.int64


def test_softmax_as_method_and_function(lib):
    t = lib.tensor([1.0, 2.0, 3.0])
    assert repr(lib.softmax(t, 0)) == repr(t.softmax(0)) == "tensor([0.0900, 0.2447, 0.6652])"
    assert repr(lib.log_softmax(t, dim=0)) == repr(t.log_softmax(dim=0)) == "tensor([-2.4076, -1.4076, -0.4076])"


def test_where_with_the_condition_alone_gives_indices(lib):
    t = lib.tensor([[1.0, 2.0], [3.0, 0.0]])
    assert repr(lib.where(t > 1)) == "(tensor([0, 1]), tensor([1, 0]))"


def test_a_hook_must_return_a_tensor_of_the_same_size(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    h = a * 1
    h.register_hook(lambda g: g.sum())
    assert error_of(lambda: h.sum().backward()) == ("RuntimeError", "hook '<lambda>' has changed the size of value")
    h = a * 1
    h.register_hook(lambda g: 3)
    assert error_of(lambda: h.sum().backward()) == ("TypeError", "expected Variable, but hook returned 'int'")


# Each basic index as PyTorch 2.13 records it: the nodes from the result back to the leaf.
INDEX_CHAINS = [
    ((slice(None), 1), (3,), ["SelectBackward0"]),
    ((0, 1), (), ["SelectBackward0", "SelectBackward0"]),
    (None, (1, 3, 4), ["UnsqueezeBackward0"]),
    (slice(None), (3, 4), ["SliceBackward0"]),
    ((slice(1, None), 1), (2,), ["SelectBackward0", "SliceBackward0"]),
    ((Ellipsis, 1), (3,), ["SelectBackward0"]),
    ((0, None, slice(1, None)), (1, 3), ["SliceBackward0", "UnsqueezeBackward0", "SelectBackward0"]),
    ((None, slice(None), None), (1, 3, 1, 4), ["UnsqueezeBackward0", "UnsqueezeBackward0"]),
    (slice(None, None, 2), (2, 4), ["SliceBackward0"]),
    (-1, (4,), ["SelectBackward0"]),
    ((slice(None), slice(None)), (3, 4), ["AliasBackward0"]),
    (Ellipsis, (3, 4), ["AliasBackward0"]),
]


@pytest.mark.parametrize("key, shape, chain", INDEX_CHAINS, ids=[repr(k) for k, _, _ in INDEX_CHAINS])
def test_basic_indexing_records_one_view_per_part(lib, key, shape, chain):
    x = lib.ones(3, 4, requires_grad=True)
    out = x[key]
    names, node = [], out.grad_fn
    while type(node).__name__ != "AccumulateGrad":
        names.append(type(node).__name__)
        node = node.next_functions[0][0]
    assert (tuple(out.shape), names, out._base is x) == (shape, chain, True)
    out.sum().backward()
    expected = np.zeros((3, 4))
    expected[key] = 1
    assert x.grad.tolist() == expected.tolist()


@pytest.mark.parametrize("index, message", [
    (lambda lib: lib.ones(3)[5], ("IndexError", "index 5 is out of bounds for dimension 0 with size 3")),
    (lambda lib: lib.ones(3, 4)[:, 7], ("IndexError", "index 7 is out of bounds for dimension 1 with size 4")),
    (lambda lib: lib.ones(3)[-4], ("IndexError", "index -4 is out of bounds for dimension 0 with size 3")),
    (lambda lib: lib.ones(3)[::-1], ("ValueError", "step must be greater than zero")),
])
def test_indexing_errors(lib, index, message):
    assert error_of(lambda: index(lib)) == message


@pytest.mark.parametrize("name, first", [("relu", [1.0, 0.0, 0.0]), ("abs", [1.0, -1.0, 0.0])])
def test_a_double_backward_through_relu_and_abs_stays_connected(lib, name, first):
    x = lib.tensor([0.5, -2.0, 0.0], requires_grad=True)
    (g,) = lib.autograd.grad(getattr(lib, name)(x).sum(), x, create_graph=True)
    assert g.tolist() == first and g.requires_grad  # PyTorch names relu's node ThresholdBackwardBackward0
    assert [(t + 0).tolist() for t in lib.autograd.grad(g.sum(), x)] == [[0.0, 0.0, 0.0]]


@pytest.mark.parametrize("data, message", [
    ([[1, 2], [3]], "expected sequence of length 2 at dim 1 (got 1)"),
    ([[1, 2], [3, 4, 5]], "expected sequence of length 2 at dim 1 (got 3)"),
    ([[[1], [2]], [[3]]], "expected sequence of length 2 at dim 1 (got 1)"),
])
def test_ragged_lists_are_refused_with_pytorchs_words(lib, data, message):
    assert error_of(lambda: lib.tensor(data)) == ("ValueError", message)


def test_copying_a_tensor_with_tensor_warns(lib):
    with pytest.warns(UserWarning, match=r"^To copy construct from a tensor, it is recommended to use "
                                         r"sourceTensor\.detach\(\)\.clone\(\)"):
        copy = lib.tensor(lib.ones(2))
    assert copy.tolist() == [1.0, 1.0]


def test_a_grad_fn_can_be_called_on_a_gradient(lib):
    x = lib.ones(3, requires_grad=True)
    product = x * 3
    assert [None if g is None else g.tolist() for g in product.grad_fn(lib.ones(3))] == [[3.0, 3.0, 3.0], None]
    square_sum = (x * x).sum()
    assert square_sum.grad_fn(lib.tensor(1.0)).tolist() == [1.0, 1.0, 1.0]  # one gradient: no tuple
    assert repr(square_sum.grad_fn.next_functions[0][0](lib.ones(3))[0]) == (
        "tensor([1., 1., 1.], grad_fn=<MulBackward0>)")  # grad mode on: the call is recorded
    assert error_of(lambda: product.grad_fn(lib.ones(3), lib.ones(3))) == (
        "TypeError", "expected 1 arguments, got 2 instead")
    accumulator = product.grad_fn.next_functions[0][0]
    assert accumulator(lib.ones(3)) == () and x.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_number_to_a_tensor_power_keeps_the_exponent(lib):
    x = lib.ones(3, requires_grad=True)
    node = (2 ** x).grad_fn
    assert type(node).__name__ == "PowBackward2" and node._saved_self == 2
    assert node._saved_exponent is x
    assert node._saved_result.tolist() == [2.0, 2.0, 2.0]


def test_saving_a_number_for_backward_is_a_type_error(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, 3)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    assert Double.apply(lib.ones(2)).tolist() == [2.0, 2.0]  # nothing is saved when nothing is recorded
    assert error_of(lambda: Double.apply(lib.ones(2, requires_grad=True))) == (
        "TypeError", "save_for_backward can only save variables, but argument 1 is of type int")


def test_instantiating_a_function_warns(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.exp()

    with pytest.warns(DeprecationWarning) as caught:
        Exp()
    assert str(caught[0].message) == (
        f"{Exp} should not be instantiated. Methods on autograd functions are all static, so you should invoke "
        "them on the class itself. Instantiating an autograd function will raise an error in a future version of "
        "PyTorch.")


def test_x_T_warns_once_on_other_than_matrices(monkeypatch):
    """PyTorch warns once per process (so its own run cannot be repeated here); these are its words."""
    from minigrad.ops import views

    monkeypatch.setattr(views, "_t_warned", set())
    with pytest.warns(UserWarning) as caught:
        assert mg.ones(3).T.shape == (3,)
        assert mg.ones(2, 3, 4).T.shape == (4, 3, 2)
        mg.ones(()).T
    assert [str(w.message) for w in caught] == [
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
        "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
        "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
        "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)",
        "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. (Triggered "
        "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mg.ones(2, 3).T
        mg.ones(3).T  # said once already


def test_a_function_with_outputs_of_different_shapes(lib):
    """Each gradient is checked against the shape of the output it belongs to."""

    class Halves(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:2].clone(), x[2:].clone()

        @staticmethod
        def backward(ctx, first, second):
            return lib.cat([first, second])

    x = lib.ones(5, 3, requires_grad=True)
    head, tail = Halves.apply(x)
    (tail * 2 + head.sum()).sum().backward()
    assert x.grad[:, 0].tolist() == [9.0, 9.0, 2.0, 2.0, 2.0]  # head.sum() is added to each of 9 elements
    assert error_of(lambda: Halves.apply(x)[1].backward(lib.ones(2, 3))) == (
        "RuntimeError", "Mismatch in shape: grad_output[0] has a shape of torch.Size([2, 3]) and output[0] has a "
        "shape of torch.Size([3, 3]).")


def test_backward_with_create_graph_warns_once(monkeypatch):
    """PyTorch says this once per process (so its own run cannot be repeated here); these are its words."""
    from minigrad import autograd

    monkeypatch.setattr(autograd, "_warned_of_cycle", False)
    x = mg.ones(2, requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        (x * x).sum().backward(create_graph=True)
        (x * x).sum().backward(create_graph=True)
        mg.autograd.grad((x * x).sum(), x, create_graph=True)  # autograd.grad makes no cycle: no warning
    assert [str(w.message) for w in caught] == [
        "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
        "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
        "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
        "to None after use to break the cycle and avoid the leak. (Triggered internally at "
        "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"]


@pytest.mark.parametrize("name", ["sin_", "cos_", "exp_", "log_", "sqrt_", "abs_", "neg_", "reciprocal_", "relu_",
                                  "sigmoid_", "tanh_", "square_", "zero_"])
def test_in_place_functions_of_the_module(lib, name):
    """``torch.sin_(x)`` is ``x.sin_()``: the same values, and the same refusal on a leaf that requires grad."""
    data = [0.5, 1.0, 2.0]
    assert getattr(lib, name)(lib.tensor(data)).tolist() == getattr(lib.tensor(data), name)().tolist()
    assert error_of(lambda: getattr(lib, name)(lib.tensor(data, requires_grad=True))) == (
        "RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation.")


def test_square_is_recorded_as_a_power_of_two(lib):
    x = lib.tensor([1.0, 3.0], requires_grad=True)
    y = lib.square(x)
    assert type(y.grad_fn).__name__ == "PowBackward0" and y.grad_fn._saved_exponent == 2
    assert lib.clamp_(lib.tensor([-1.0, 2.0]), 0, 1).tolist() == lib.clip_(lib.tensor([-1.0, 2.0]), 0, 1).tolist()


def test_a_view_made_under_no_grad_requires_grad_but_leads_nowhere(lib):
    x = lib.ones(3, requires_grad=True)
    with lib.no_grad():
        view = x[1:]
        plain = x.detach()[1:]
    assert (view.requires_grad, view.is_leaf, view.grad_fn, view._is_view()) == (True, True, None, True)
    assert plain.requires_grad is False
    product = view * 2  # recorded, with edges to nowhere
    assert product.requires_grad and product.grad_fn.next_functions == ((None, 0), (None, 0))
    product.sum().backward()
    assert view.grad is None and x.grad is None
    assert error_of(lambda: view.mul_(2))[1].startswith(
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled.")


def test_pieces_split_under_no_grad_are_no_grad_views(lib):
    x = lib.ones(4, requires_grad=True)
    with lib.no_grad():
        first, _ = x.split(2)
    assert first.requires_grad and (first * 2).grad_fn.next_functions == ((None, 0), (None, 0))
    assert error_of(lambda: first.mul_(2))[1].startswith("A view was created in no_grad mode")
    y = lib.ones(4)
    with lib.no_grad():
        head, _ = y.split(2)
    head.mul_(2)  # its base needs no gradient: allowed
    assert y.tolist() == [2.0, 2.0, 1.0, 1.0]


def test_post_accumulate_grad_hooks(lib):
    x = lib.ones(3, requires_grad=True)
    seen = []
    handle = x.register_post_accumulate_grad_hook(lambda leaf: seen.append(leaf.grad.clone()))
    (x * 2).sum().backward()
    assert [g.tolist() for g in seen] == [[2.0, 2.0, 2.0]]
    handle.remove()
    (x * 2).sum().backward()
    assert len(seen) == 1 and x.grad.tolist() == [4.0, 4.0, 4.0]
    step = lib.ones(2, requires_grad=True)

    def scale(leaf):  # sees .grad once it is updated
        leaf.grad.mul_(10)

    step.register_post_accumulate_grad_hook(scale)
    (step * 3).sum().backward()
    assert step.grad.tolist() == [30.0, 30.0]
    assert error_of(lambda: (x * 1).register_post_accumulate_grad_hook(print)) == (
        "RuntimeError", "post accumulate grad hooks cannot be registered on non-leaf tensors")
    assert error_of(lambda: lib.ones(3).register_post_accumulate_grad_hook(print)) == (
        "RuntimeError", "cannot register a hook on a tensor that doesn't require gradient")
    returns = lib.ones(2, requires_grad=True)
    returns.register_post_accumulate_grad_hook(lambda leaf: leaf.grad)
    assert error_of(lambda: returns.sum().backward()) == (
        "RuntimeError", "Tensor post accumulate grad hooks should return None.")


def test_the_profiler_counts_operations_and_backward_functions(lib):
    x, y = lib.full((2, 3), 1.5, requires_grad=True), lib.ones(2, 3, requires_grad=True)
    z = lib.ones(2, 3, requires_grad=True)
    with lib.autograd.profiler.profile(use_cuda=False) as prof:
        for _ in range(100):
            z = (z / x) * y
        z.sum().backward()
    events = {e.key: e for e in prof.key_averages()}
    assert events["aten::div"].count >= 100 and events["aten::mul"].count >= 100  # PyTorch's backward adds its own
    assert events["autograd::engine::evaluate_function: DivBackward0"].count == 100
    assert events["autograd::engine::evaluate_function: MulBackward0"].count == 100
    lines = prof.key_averages().table(sort_by="self_cpu_time_total").splitlines()
    assert lines[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%", "CPU", "total",
                                "CPU", "time", "avg", "#", "of", "Calls"]
    assert lines[0] == lines[2] == lines[-2] and lines[-1].startswith("Self CPU time total: ")


def test_the_profiler_names_every_operation_by_its_own_name():
    """Only operations (as ``aten::<name>``) and backward functions are counted, not their helpers."""
    x = mg.ones(3, requires_grad=True)
    with mg.autograd.profiler.profile() as prof:
        (x.sin() * 2).sum().backward()
    assert sorted(e.key for e in prof.key_averages()) == [
        "aten::mul", "aten::sin", "aten::sum",
        "autograd::engine::evaluate_function: MulBackward0",
        "autograd::engine::evaluate_function: SinBackward0",
        "autograd::engine::evaluate_function: SumBackward0",
        "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
    ]


def test_prod_over_a_tuple_of_dims_is_refused_in_pytorchs_words(lib):
    assert error_of(lambda: lib.ones(3).prod((0,))) == (
        "TypeError", "prod() received an invalid combination of arguments - got (tuple), but expected one of:\n"
        " * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n")
