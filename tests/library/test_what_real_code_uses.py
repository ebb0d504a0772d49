"""What real PyTorch code uses: names and spellings, hook order,
graph lifetime, custom Function details, node names. Each test runs on both libraries
(``lib``); gradients of the new operators are checked against central differences through
the ``OPS`` table (``test_ops_numeric.py``), and their values against PyTorch (``test_ops_vs_torch.py``).
"""
import io
import warnings

import numpy as np
import pytest

from conftest import EDITION, error_of

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need the complete package")


def test_numpy_spellings_and_size_keywords(lib):
    lib.manual_seed(0)
    a = lib.randn(size=(2, 3))
    lib.manual_seed(0)
    assert lib.equal(a, lib.randn(2, 3))
    assert lib.rand(size=(4,)).shape == (4,)
    assert a.sum(1, keepdims=True).shape == (2, 1) and a.mean(0, keepdims=True).shape == (1, 3)
    assert a.argmax(axis=1).tolist() == a.argmax(1).tolist()
    assert (lib.pi, lib.e) == (np.pi, np.e) and lib.inf == float("inf")


def test_reductions_and_indices_without_gradients(lib):
    x = lib.tensor([[0.6, 0.0, 0.0], [0.0, 0.4, 0.0]])
    assert lib.all(x >= 0).item() and not x.all().item() and x.any(1).tolist() == [True, True]
    assert lib.nonzero(x).tolist() == [[0, 0], [1, 1]]
    assert [t.tolist() for t in lib.nonzero(x, as_tuple=True)] == [[0, 1], [0, 1]]
    values, indices = lib.sort(lib.tensor([3.0, 1.0, 2.0]), descending=True)
    assert values.tolist() == [3.0, 2.0, 1.0] and indices.tolist() == [0, 2, 1]
    assert lib.argsort(lib.tensor([3.0, 1.0, 2.0])).tolist() == [1, 2, 0]
    hot = lib.nn.functional.one_hot(lib.tensor([0, 2]), 4)
    assert hot.tolist() == [[1, 0, 0, 0], [0, 0, 1, 0]] and hot.dtype == lib.int64
    assert error_of(lambda: lib.nn.functional.one_hot(lib.tensor([0.0]))) == (
        "RuntimeError", "one_hot is only applicable to index tensor of type LongTensor.")


def test_in_place_fills_and_index_add_as_methods(lib):
    x = lib.ones(5, 3)
    x.index_add_(0, lib.tensor([0, 4, 0]), lib.ones(3, 3) * 2)
    assert x[:, 0].tolist() == [5.0, 1.0, 1.0, 1.0, 3.0]
    lib.manual_seed(0)
    drawn = lib.empty(2, 2).uniform_(-1, 1)
    assert drawn.tolist() == [[-0.007486820220947266, 0.5364435911178589], [-0.8230451345443726, -0.7359390258789062]]
    assert lib.zeros(3).normal_(0, 1).shape == (3,)


def test_storage_is_shared_by_views_and_saved_tensors(lib):
    x = lib.arange(6.0, requires_grad=True)
    assert x[2:].data_ptr() - x.data_ptr() == 2 * x.element_size()
    assert x.view(2, 3).data_ptr() == x.data_ptr() and x.clone().data_ptr() != x.data_ptr()
    assert x.pow(2).grad_fn._saved_self.data_ptr() == x.data_ptr()
    assert x[3:].untyped_storage().data_ptr() == x.data_ptr()


def test_save_and_load_keep_views_sharing_memory(lib):
    numbers = lib.arange(1, 10)
    buffer = io.BytesIO()
    lib.save([numbers, numbers[1::2], lib.ones(2, requires_grad=True)], buffer)
    buffer.seek(0)
    loaded, evens, w = lib.load(buffer)
    loaded *= 2
    assert evens.tolist() == [4, 8, 12, 16] and w.requires_grad and w.is_leaf


def test_unbind_narrow_select_and_view_as_are_views_with_pytorchs_nodes(lib):
    x = lib.arange(12.0, requires_grad=True)
    m = x.view(3, 4)
    rows = m.unbind(0)
    assert [r.grad_fn.name() for r in rows] == ["UnbindBackward0"] * 3 and rows[1]._base is x
    assert m.narrow(1, 1, 2).grad_fn.name() == "SliceBackward0" and m.select(1, -1).tolist() == [3.0, 7.0, 11.0]
    assert error_of(lambda: m.narrow(1, 3, 2)) == ("RuntimeError", "start (3) + length (2) exceeds dimension size (4).")
    assert m.view_as(lib.empty(12)).shape == (12,)
    rows[1].sum().backward()
    assert x.grad.view(3, 4)[1].tolist() == [1.0] * 4 and x.grad.sum().item() == 4.0


def test_var_mean_is_one_node_with_two_outputs(lib):
    x = lib.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
    var, mean = lib.var_mean(x, dim=1)
    assert var.grad_fn is mean.grad_fn and var.grad_fn.name() == "VarMeanBackward0"
    (var + mean).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), (x.detach() - mean.detach().view(2, 1)).numpy() + 1 / 3, rtol=1e-6)


def test_hooks_run_in_pytorchs_order(lib):
    order = []
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    a.register_hook(lambda g: order.append("tensor hook"))
    a.register_post_accumulate_grad_hook(lambda t: order.append("post-accumulate"))
    acc = b.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda gos: order.append("node pre-hook"))
    acc.register_hook(lambda gis, gos: order.append("node post hook"))
    b.sum().backward()
    assert order == ["tensor hook", "node pre-hook", "post-accumulate", "node post hook"]


def test_a_node_post_hook_may_replace_the_gradients(lib):
    a = lib.zeros(3, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_outputs[0] * 2,))
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0]


def test_a_post_accumulate_grad_hook_may_return_its_leaf_and_nothing_else(lib):
    a = lib.ones(2, requires_grad=True)
    a.register_post_accumulate_grad_hook(lambda leaf: leaf)
    (a * 2).sum().backward()
    b = lib.ones(2, requires_grad=True)
    b.register_post_accumulate_grad_hook(lambda leaf: 5)
    assert error_of(lambda: (b * 2).sum().backward()) == ("TypeError", "expected Variable, but hook returned 'int'")


def test_names_of_the_nodes_pytorch_writes_in_cpp(lib):
    x = lib.ones(3, requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert (type(acc).__name__, acc.name()) == ("AccumulateGrad", "torch::autograd::AccumulateGrad")
    z = x.clone()
    z[0] = 5.0
    assert (type(z.grad_fn).__name__, z.grad_fn.name()) == ("CopySlices", "torch::autograd::CopySlices")
    assert repr(z).endswith("grad_fn=<CopySlices>)")
    assert x.unsqueeze(0).squeeze(0).grad_fn._saved_dim == 0


def test_indexing_frees_what_it_saved_after_backward(lib):
    a = lib.zeros(4, requires_grad=True)
    b = a[lib.tensor([0, 2])]
    b.sum().backward()
    assert error_of(lambda: b.sum().backward())[1].startswith("Trying to backward through the graph a second time")


def test_materialized_zeros_carry_a_graph_with_create_graph(lib):
    x, a = lib.tensor(0.5, requires_grad=True), lib.tensor(1.0, requires_grad=True)
    (dydx,) = lib.autograd.grad(x * a, x, create_graph=True)
    (zero,) = lib.autograd.grad(dydx, x, create_graph=True, allow_unused=True, materialize_grads=True)
    assert zero.item() == 0 and zero.requires_grad


def test_grads_batched_are_one_gradient_per_seed(lib):
    x = lib.ones(3, requires_grad=True)
    (jacobian,) = lib.autograd.grad(x * 2, x, lib.eye(3), is_grads_batched=True)
    assert jacobian.tolist() == (2 * np.eye(3)).tolist()


def test_non_tensor_outputs_of_a_function_get_no_gradient(lib):
    seen = []

    class WithLabel(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, "label"

        @staticmethod
        def backward(ctx, grad, grad_label):
            seen.append(grad_label)
            return grad * 2

    out, _ = WithLabel.apply(lib.ones(2, requires_grad=True))
    out.sum().backward()
    assert seen == [None]


def test_gradcheck_of_a_view_of_its_input(lib):
    x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(lambda t: t.view(3), (x,)) and lib.autograd.gradcheck(lambda t: t[:2], (x,))


def test_decorating_a_class_with_no_grad_warns(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @lib.no_grad()
        class Foo:
            def __init__(self):
                self.x = lib.ones(2, requires_grad=True) * 2

    assert not Foo().x.requires_grad
    assert [w.category for w in caught] == [FutureWarning]
    assert str(caught[0].message).startswith("Decorating classes is deprecated")


def test_pack_hooks_see_the_second_operand_first(lib):
    seen = []
    a, b = lib.tensor([1.0], requires_grad=True), lib.tensor([3.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t.item()) or t, lambda t: t):
        a * b
        a / b
        lib.mm(a.view(1, 1), b.view(1, 1))
    assert seen == [3.0, 1.0, 3.0, 1.0, 3.0, 1.0]


def test_the_nodes_of_a_recorded_sum_backward(lib):
    x = lib.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
    _, jvp = lib.autograd.functional.jvp(lambda t: t.exp().sum(dim=1), x, lib.ones(2, 2), create_graph=True)
    assert jvp.grad_fn.name() == "SqueezeBackward1"


def test_a_multi_grad_hook_fires_once_per_backward_with_every_gradient(lib):
    a, b, c = lib.ones(2, requires_grad=True), lib.ones(3, requires_grad=True), lib.ones(1, requires_grad=True)
    seen = []
    handle = lib.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
    ((a * 2).sum() + (b * 3).sum()).backward()
    handle.remove()
    (a.sum() + c.sum()).backward()
    assert seen == [[[2.0, 2.0], [3.0, 3.0, 3.0], None]]
    first = []
    lib.autograd.graph.register_multi_grad_hook((a, b), first.append, mode="any")
    (b * 5).sum().backward()
    assert len(first) == 1 and first[0].tolist() == [5.0, 5.0, 5.0]


def test_batch_norm_forward_hooks_and_sequential_assignment(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))
    model[2] = lib.nn.Linear(4, 1)
    outputs = []
    model[1].register_forward_hook(lambda module, args, output: outputs.append(output) or output * 2)
    x = lib.randn(5, 3)
    out = model(x)
    (out**2).sum().backward()
    assert out.shape == (5, 1) and len(outputs) == 1
    norm = model[1]
    np.testing.assert_allclose(norm.running_mean.numpy(), 0.1 * model[0](x).mean(0).detach().numpy(), rtol=1e-5)
    assert norm.num_batches_tracked.item() == 1 and list(norm.state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert [round(v, 3) for v in model[0].weight.grad.view(-1).tolist()] == [  # PyTorch 2.13's
        1.487, 0.204, 0.119, 2.014, -2.535, 1.888, -0.739, -0.027, -0.075, -24.102, -31.56, 16.07]


def test_hooks_on_an_output_that_got_no_gradient_see_none(lib):
    x = lib.ones(3, requires_grad=True)
    first, second, _ = x.unbind()
    seen = []
    first.register_hook(seen.append)
    second.backward()
    assert seen == [None] and x.grad.tolist() == [0.0, 1.0, 0.0]


def test_the_legacy_new_constructor_keeps_the_dtype(lib):
    x = lib.ones(2, dtype=lib.float64)
    assert str(x.new([1, 2])) == "tensor([1., 2.], dtype=torch.float64)"
    assert x.new(2, 3).shape == (2, 3) and x.new().shape == (0,) and lib.Tensor().shape == (0,)


def test_sigmoid_keeps_the_digits_of_small_results(lib):
    values = lib.sigmoid(lib.tensor([-8.0, -80.0, 0.0, 30.0]))
    assert str(values) == "tensor([3.3535e-04, 1.8049e-35, 5.0000e-01, 1.0000e+00])"
