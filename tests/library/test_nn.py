"""``minigrad.nn``: Parameter, Module, the layers, the losses and ``nn.init``.

Where PyTorch is installed, each check runs the same code in both libraries from the
same numbers and compares what comes out: values, gradients, graphs (``grad_fn`` names
and ``next_functions``), printouts and error messages. Without PyTorch, gradients are
checked against finite differences in float64.
"""
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from minigrad import nn
from minigrad.nn import functional as F
from support.helpers import central_differences

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="nn needs a working autograd")
RNG = np.random.RandomState(0)  # the inputs of the tables below


def array(tensor):
    return tensor.detach().numpy()


def graph(fn):
    """A graph as nested (node name, [inputs]), with None where an input needs no gradient."""
    if fn is None:
        return None
    return (fn.name().replace("torch::autograd::", ""), [graph(f) for f, _ in fn.next_functions])


def copy_weights(source, target, torch):
    """Load the minigrad module's weights into the torch module."""
    target.load_state_dict({k: torch.from_numpy(array(v).copy()) for k, v in source.state_dict().items()})
    return target


def error(fn, lib):
    """(exception type name, message) of ``fn(lib)``, with any warnings silenced."""
    with warnings.catch_warnings(), pytest.raises(Exception) as info:
        warnings.simplefilter("ignore")
        fn(lib)
    return type(info.value).__name__, str(info.value)


def run_both(torch, fn, arrays, needs_grad, upstream_seed=1):
    """``fn(lib, *tensors)`` in both libraries, then backward from a random upstream gradient.

    Returns, per library, the output, its graph and the inputs' gradients.
    """
    results = []
    for lib in (minigrad, torch):
        tensors = [lib.tensor(a, requires_grad=g) for a, g in zip(arrays, needs_grad)]
        out = fn(lib, *tensors)
        upstream = np.asarray(np.random.RandomState(upstream_seed).rand(*out.shape), array(out).dtype)
        out.backward(lib.tensor(upstream))
        grads = [array(t.grad) for t, g in zip(tensors, needs_grad) if g]
        results.append((array(out), graph(out.grad_fn), grads))
    return results


def assert_same(results, rtol=1e-5, atol=1e-6):
    (out, nodes, grads), (t_out, t_nodes, t_grads) = results
    assert nodes == t_nodes
    np.testing.assert_allclose(out, t_out, rtol=rtol, atol=atol)
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- Parameter


def test_parameter_is_a_leaf_that_shares_its_data():
    data = minigrad.ones(3)
    param = nn.Parameter(data)
    assert isinstance(param, minigrad.Tensor) and param.is_leaf and param.requires_grad
    data.numpy()[0] = 5.0
    assert repr(param) == "Parameter containing:\ntensor([5., 1., 1.], requires_grad=True)"
    assert repr(nn.Parameter(minigrad.ones(2), requires_grad=False)) == "Parameter containing:\ntensor([1., 1.])"
    assert type(param * 2) is minigrad.Tensor and type(param.detach()) is minigrad.Tensor
    assert nn.Parameter().shape == (0,)


# ---------------------------------------------------------------- Module


def small_net(lib):
    """A module with a bit of everything: nested containers, no-bias layers, buffers."""

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = lib.nn.Sequential(lib.nn.Flatten(), lib.nn.Linear(6, 4), lib.nn.ReLU(inplace=True),
                                          lib.nn.Dropout(0.25))
            self.head = lib.nn.Linear(4, 2, bias=False)
            self.register_buffer("scale", lib.ones(2))
            self.register_buffer("scratch", lib.zeros(1), persistent=False)
            self.gain = lib.nn.Parameter(lib.ones(1))

        def forward(self, x):
            return self.head(self.body(x)) * self.scale * self.gain

    return Net()


def printed_modules(lib):
    nn_ = lib.nn
    return [
        small_net(lib), nn_.Sequential(nn_.Linear(3, 2), nn_.ReLU()), nn_.Sigmoid(), nn_.Tanh(), nn_.Softmax(dim=1),
        nn_.LogSoftmax(dim=-1), nn_.Softmax(), nn_.MSELoss(), nn_.CrossEntropyLoss(), nn_.NLLLoss(), nn_.BCELoss(),
        nn_.BCEWithLogitsLoss(), nn_.Module(), nn_.Sequential(OrderedDict(fc=nn_.Linear(1, 1), act=nn_.Tanh()))[1:],
    ]


def test_reprs_match_pytorch(torch):
    assert [repr(m) for m in printed_modules(minigrad)] == [repr(m) for m in printed_modules(torch)]


def test_sequential_repr():
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    assert repr(model) == "Sequential(\n  (0): Linear(in_features=3, out_features=2, bias=True)\n  (1): ReLU()\n)"


def test_names_and_state_dict_keys_match_pytorch(torch):
    def names(lib):
        net = small_net(lib)
        return ([n for n, _ in net.named_parameters()], [n for n, _ in net.named_modules()],
                [n for n, _ in net.named_buffers()], [n for n, _ in net.named_children()],
                list(net.state_dict()), [tuple(p.shape) for p in net.parameters()])

    assert names(minigrad) == names(torch)


def test_shared_weights_are_listed_once_but_saved_under_each_name(torch):
    def tied(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Linear(2, 2))
        model[1].weight = model[0].weight
        return len(list(model.parameters())), list(model.state_dict())

    assert tied(minigrad) == tied(torch) == (3, ["0.weight", "0.bias", "1.weight", "1.bias"])


def test_state_dict_is_detached_and_loads_back_in_place():
    source, target = nn.Linear(3, 2), nn.Linear(3, 2)
    state = source.state_dict()
    assert type(state) is OrderedDict
    assert not state["weight"].requires_grad and state["weight"].numpy() is source.weight.numpy(force=True)
    version = target.weight._version
    assert repr(target.load_state_dict(state)) == "<All keys matched successfully>"
    assert np.array_equal(array(target.weight), array(source.weight)) and target.weight._version == version + 1
    result = target.load_state_dict({"weight": state["weight"], "extra": minigrad.ones(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]


def test_zero_grad_clears_to_none_by_default():
    model = nn.Linear(3, 1)
    model(minigrad.ones(2, 3)).sum().backward()
    grad = model.weight.grad
    model.zero_grad(set_to_none=False)
    assert model.weight.grad is grad and not array(grad).any()
    model.zero_grad()
    assert model.weight.grad is None and model.bias.grad is None


def test_train_eval_and_requires_grad_reach_every_module():
    net = small_net(minigrad)
    assert net.eval() is net and not any(m.training for m in net.modules())
    x = minigrad.ones(2, 2, 3)
    assert np.array_equal(array(net(x)), array(net(x)))  # dropout is off
    assert net.train() is net and all(m.training for m in net.modules())
    assert net.requires_grad_(False) is net and not any(p.requires_grad for p in net.parameters())


def test_to_float64_converts_parameters_and_buffers():
    net = small_net(minigrad).to(minigrad.float64)
    assert {p.dtype for p in net.parameters()} == {minigrad.float64} and net.scale.dtype is minigrad.float64
    assert net.eval()(minigrad.ones(1, 6, dtype=minigrad.float64)).dtype is minigrad.float64
    assert net.cpu() is net and net.to("cpu") is net


def test_apply_visits_children_then_parent():
    seen = []
    small_net(minigrad).apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Flatten", "Linear", "ReLU", "Dropout", "Sequential", "Linear", "Net"]


def test_sequential_indexing_and_names():
    model = nn.Sequential(OrderedDict(fc=nn.Linear(2, 3), act=nn.ReLU()))
    assert isinstance(model[0], nn.Linear) and isinstance(model[-1], nn.ReLU) and len(model) == 2
    assert list(model) == [model.fc, model.act]
    assert [n for n, _ in model[1:].named_children()] == ["act"]
    assert len(model.append(nn.Linear(3, 1))) == 3 and [n for n, _ in model.named_children()][-1] == "2"


# ---------------------------------------------------------------- errors


def _no_forward(lib):
    type("Net", (lib.nn.Module,), {})()(lib.ones(1))


def _relu_then_dropout_in_place(lib):
    """ReLU saved its result for backward; dropout then overwrote it."""
    y = lib.ones(3, requires_grad=True) * 1
    lib.nn.Dropout(0.5, inplace=True)(lib.nn.ReLU(inplace=True)(y)).sum().backward()


def _early(lib, value):
    type("Early", (lib.nn.Module,), {"__init__": lambda self: setattr(self, "w", value(lib))})()


ERRORS = {
    "no forward": _no_forward,
    "linear 2-D": lambda lib: lib.nn.Linear(5, 2)(lib.ones(4, 3)),
    "linear 1-D": lambda lib: lib.nn.Linear(5, 2)(lib.ones(3)),
    "linear 3-D": lambda lib: lib.nn.Linear(5, 2)(lib.ones(2, 4, 3)),
    "linear 0-D": lambda lib: lib.nn.Linear(5, 2)(lib.tensor(3.0)),
    "linear dtype": lambda lib: lib.nn.Linear(5, 2)(lib.ones(4, 5, dtype=lib.float64)),
    "linear no bias": lambda lib: lib.nn.Linear(5, 2, bias=False)(lib.ones(4, 3)),
    "linear 1-D weight": lambda lib: lib.nn.functional.linear(lib.ones(4, 3), lib.ones(3), lib.ones(())),
    "linear 3-D weight": lambda lib: lib.nn.functional.linear(lib.ones(4, 3), lib.ones(2, 2, 3)),
    "relu in place on a leaf": lambda lib: lib.nn.ReLU(inplace=True)(lib.ones(2, requires_grad=True)),
    "relu result changed in place": _relu_then_dropout_in_place,
    "integer parameter": lambda lib: lib.nn.Parameter(lib.tensor([1, 2])),
    "tensor as parameter": lambda lib: setattr(lib.nn.Linear(2, 2), "weight", lib.ones(2, 2)),
    "int as module": lambda lib: setattr(lib.nn.Sequential(lib.nn.ReLU()), "0", 3),
    "parameter before init": lambda lib: _early(lib, lambda lib: lib.nn.Parameter(lib.ones(1))),
    "module before init": lambda lib: _early(lib, lambda lib: lib.nn.ReLU()),
    "missing attribute": lambda lib: lib.nn.Linear(1, 1).foo,
    "register tensor": lambda lib: lib.nn.Module().register_parameter("a", lib.ones(1)),
    "register dotted": lambda lib: lib.nn.Module().register_parameter("a.b", None),
    "register existing": lambda lib: lib.nn.Linear(1, 1).register_buffer("weight", None),
    "buffer int": lambda lib: lib.nn.Module().register_buffer("a", 3),
    "add_module int": lambda lib: lib.nn.Module().add_module("a", 3),
    "load missing": lambda lib: lib.nn.Linear(2, 2).load_state_dict({"weight": lib.ones(2, 2)}),
    "load unexpected": lambda lib: lib.nn.Linear(1, 1).load_state_dict(
        {"weight": lib.ones(1, 1), "bias": lib.ones(1), "b": lib.ones(1)}),
    "load size": lambda lib: lib.nn.Linear(2, 2).load_state_dict({"weight": lib.ones(3, 3)}),
    "load list": lambda lib: lib.nn.Linear(2, 2).load_state_dict([1]),
    "sequential index": lambda lib: lib.nn.Sequential(lib.nn.ReLU())[3],
    "train int": lambda lib: lib.nn.Linear(1, 1).train(1),
    "to long": lambda lib: lib.nn.Linear(1, 1).to(lib.long),
    "mse shapes": lambda lib: lib.nn.functional.mse_loss(lib.ones(3, 2), lib.ones(3)),
    "mse reduction": lambda lib: lib.nn.MSELoss(reduction="avg")(lib.ones(3), lib.ones(3)),
    "bce sizes": lambda lib: lib.nn.BCELoss()(lib.ones(3, 1) / 2, lib.ones(3)),
    "bce input": lambda lib: lib.nn.BCELoss()(lib.ones(3) * 2, lib.ones(3)),
    "bce target": lambda lib: lib.nn.BCELoss()(lib.ones(3) / 2, lib.ones(3) * 2),
    "ce float target": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(4, 3), lib.tensor([0.0, 1, 2, 1])),
    "ce int32 target": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(2, 3), lib.tensor([0, 1], dtype=lib.int32)),
    "ce batch": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(4, 3), lib.tensor([0, 1, 2])),
    "ce scalar target": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(4, 3), lib.tensor(1)),
    "ce out of bounds": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(4, 3), lib.tensor([0, 1, 3, -1])),
    "ce negative": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(2, 3), lib.tensor([0, -1])),
    "nll 0-D": lambda lib: lib.nn.functional.nll_loss(lib.tensor(1.0), lib.tensor(0)),
    "nll 2-D target": lambda lib: lib.nn.NLLLoss()(lib.ones(4, 3), lib.zeros(4, 2, dtype=lib.long)),
    "nll 1-D pair": lambda lib: lib.nn.NLLLoss()(lib.ones(3), lib.zeros(2, dtype=lib.long)),
    "nll weight": lambda lib: lib.nn.NLLLoss(weight=lib.ones(2))(lib.ones(4, 3), lib.zeros(4, dtype=lib.long)),
    "dropout p": lambda lib: lib.nn.functional.dropout(lib.ones(3), 1.5),
    "Dropout p": lambda lib: lib.nn.Dropout(-0.1),
    "fan of 1-D": lambda lib: lib.nn.init.kaiming_uniform_(lib.ones(3)),
    "xavier of 1-D": lambda lib: lib.nn.init.xavier_uniform_(lib.ones(3)),
    "gain": lambda lib: lib.nn.init.calculate_gain("foo"),
    "gain slope": lambda lib: lib.nn.init.calculate_gain("leaky_relu", True),
    "fan mode": lambda lib: lib.nn.init.kaiming_uniform_(lib.ones(3, 3), mode="fan_avg"),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch_word_for_word(torch, case):
    assert error(ERRORS[case], minigrad) == error(ERRORS[case], torch)


def test_linear_shape_error_without_pytorch():
    assert error(ERRORS["linear 2-D"], minigrad) == (
        "RuntimeError", "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)")
    assert error(_no_forward, minigrad) == (
        "NotImplementedError", 'Module [Net] is missing the required "forward" function')


@pytest.mark.parametrize("case", ["mse shapes", "bce sizes"])
def test_size_warnings_match_pytorch(torch, case):
    def caught(lib):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                ERRORS[case](lib)
            except (RuntimeError, ValueError):
                pass
        return [str(w.message) for w in seen]

    assert caught(minigrad) == caught(torch)


# ---------------------------------------------------------------- Linear


@pytest.mark.parametrize("shape", [(5,), (4, 5), (2, 3, 5)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("x_grad", [False, True])
def test_linear_matches_pytorch(torch, shape, bias, x_grad):
    """Values, gradients and the graph: AddmmBackward0(bias, x, TBackward0(weight)) for a matrix."""
    minigrad.manual_seed(0)
    layer = nn.Linear(5, 3, bias=bias)
    t_layer = copy_weights(layer, torch.nn.Linear(5, 3, bias=bias), torch)
    x = np.random.RandomState(1).randn(*shape).astype(np.float32)
    results = run_both(torch, lambda lib, x: (layer if lib is minigrad else t_layer)(x), [x], [x_grad])
    assert_same(results)
    for param, t_param in zip(layer.parameters(), t_layer.parameters()):
        np.testing.assert_allclose(array(param.grad), array(t_param.grad), rtol=1e-5, atol=1e-6)


def test_linear_records_addmm():
    layer = nn.Linear(3, 2)
    y = layer(minigrad.ones(4, 3))
    weight_t = ("TBackward0", [("AccumulateGrad", [])])
    assert graph(y.grad_fn) == ("AddmmBackward0", [("AccumulateGrad", []), None, weight_t])
    assert y.grad_fn.next_functions[0][0].variable is layer.bias


@pytest.mark.parametrize("seed", [0, 7])
def test_linear_starts_from_pytorchs_exact_weights(torch, seed):
    minigrad.manual_seed(seed)
    torch.manual_seed(seed)
    for layer, t_layer in [(nn.Linear(7, 5), torch.nn.Linear(7, 5)), (nn.Linear(20, 30), torch.nn.Linear(20, 30))]:
        assert np.array_equal(array(layer.weight), array(t_layer.weight))
        assert np.array_equal(array(layer.bias), array(t_layer.bias))


def test_linear_init_is_within_its_bound():
    minigrad.manual_seed(0)
    layer = nn.Linear(16, 8)
    bound = 1 / 4
    assert layer.weight.shape == (8, 16) and layer.bias.shape == (8,)
    assert np.abs(array(layer.weight)).max() <= bound and np.abs(array(layer.bias)).max() <= bound
    assert np.abs(array(layer.weight)).max() > bound * 0.8


# ---------------------------------------------------------------- functional


def _weights(lib):
    return lib.tensor([0.5, 2.0, 1.0])


LOSSES = {
    # name: (fn(lib, input, target), input array, target array, does the target need a gradient)
    "mse mean": (lambda lib, x, y: lib.nn.functional.mse_loss(x, y), RNG.randn(4, 3), RNG.randn(4, 3), True),
    "mse sum": (lambda lib, x, y: lib.nn.MSELoss(reduction="sum")(x, y), RNG.randn(4, 3), RNG.randn(4, 3), False),
    "mse none": (lambda lib, x, y: lib.nn.functional.mse_loss(x, y, reduction="none"), RNG.randn(5), RNG.randn(5),
                 True),
    "ce mean": (lambda lib, x, y: lib.nn.functional.cross_entropy(x, y), RNG.randn(4, 3), np.array([0, 2, 1, 1]),
                False),
    "ce sum weighted": (lambda lib, x, y: lib.nn.CrossEntropyLoss(weight=_weights(lib), reduction="sum")(x, y),
                        RNG.randn(4, 3), np.array([0, 2, 1, 1]), False),
    "ce weighted mean": (lambda lib, x, y: lib.nn.CrossEntropyLoss(weight=_weights(lib))(x, y),
                         RNG.randn(4, 3), np.array([0, 2, 1, 1]), False),
    "ce none ignore": (lambda lib, x, y: lib.nn.functional.cross_entropy(x, y, ignore_index=2, reduction="none"),
                       RNG.randn(4, 3), np.array([0, 2, 1, 2]), False),
    "ce one sample": (lambda lib, x, y: lib.nn.functional.cross_entropy(x, y), RNG.randn(3), np.array(2), False),
    "ce large logits": (lambda lib, x, y: lib.nn.functional.cross_entropy(x, y), RNG.randn(2, 3) * 1e3,
                        np.array([0, 1]), False),
    "nll mean": (lambda lib, x, y: lib.nn.NLLLoss()(x, y), RNG.randn(4, 3), np.array([0, 2, 1, 1]), False),
    "nll weighted none": (lambda lib, x, y: lib.nn.functional.nll_loss(x, y, weight=_weights(lib), reduction="none"),
                          RNG.randn(4, 3), np.array([0, 2, 1, 1]), False),
    "bce mean": (lambda lib, x, y: lib.nn.BCELoss()(x, y), RNG.rand(4, 3), RNG.rand(4, 3), True),
    "bce weighted sum": (lambda lib, x, y: lib.nn.BCELoss(weight=_weights(lib), reduction="sum")(x, y),
                         RNG.rand(4, 3), RNG.rand(4, 3), False),
    "bce none edges": (lambda lib, x, y: lib.nn.functional.binary_cross_entropy(x, y, reduction="none"),
                       np.array([0.0, 1.0, 0.5, 1e-30]), np.array([1.0, 0.0, 0.5, 0.0]), False),
    "bce with logits": (lambda lib, x, y: lib.nn.BCEWithLogitsLoss(pos_weight=_weights(lib))(x, y),
                        RNG.randn(4, 3), RNG.rand(4, 3), False),
    "softmax": (lambda lib, x, y: lib.nn.functional.softmax(x, dim=1) * y, RNG.randn(4, 3), RNG.rand(4, 3), False),
    "softmax dim 0": (lambda lib, x, y: lib.nn.Softmax(0)(x) * y, RNG.randn(4, 3), RNG.rand(4, 3), False),
    "log_softmax": (lambda lib, x, y: lib.nn.functional.log_softmax(x, -1) * y, RNG.randn(2, 3, 4),
                    RNG.rand(2, 3, 4), False),
    "log_softmax module": (lambda lib, x, y: lib.nn.LogSoftmax(dim=1)(x) + y, RNG.randn(2, 5), RNG.rand(2, 5), False),
}


@pytest.mark.parametrize("case", LOSSES)
def test_losses_match_pytorch(torch, case):
    fn, x, y, target_grad = LOSSES[case]
    x = x.astype(np.float32)
    y = y.astype(np.float32 if y.dtype.kind == "f" else np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's log(0) in the bce edge case
        results = run_both(torch, fn, [x, y], [True, target_grad])
    (_, _, grads), (_, _, t_grads) = results
    assert_same([(out, nodes, [g for g in gs if np.isfinite(g).all()]) for out, nodes, gs in results])
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=1e-4)  # includes PyTorch's huge values at p = 0 or 1


def test_cross_entropy_records_log_softmax_then_nll():
    x = minigrad.randn(4, 3, requires_grad=True)
    loss = F.cross_entropy(x, minigrad.tensor([0, 2, 1, 1]))
    assert graph(loss.grad_fn) == ("NllLossBackward0", [("LogSoftmaxBackward0", [("AccumulateGrad", [])])])
    assert loss.grad_fn._saved_reduction == 1 and loss.grad_fn._saved_ignore_index == -100
    assert loss.grad_fn.next_functions[0][0]._saved_dim == 1


def test_cross_entropy_ignores_every_row_to_nan(torch):
    def loss(lib):
        return lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([-100, -100])).item()

    assert np.isnan(loss(minigrad)) and np.isnan(loss(torch))


def test_implicit_softmax_dim_warns_like_pytorch(torch):
    def run(lib, fn_name, shape):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = getattr(lib.nn.functional, fn_name)(lib.ones(shape))
        return [str(w.message) for w in seen], array(out).round(4).tolist()

    for fn_name in ("softmax", "log_softmax"):
        for shape in [(), (3,), (2, 3), (2, 2, 3)]:
            assert run(minigrad, fn_name, shape) == run(torch, fn_name, shape)


def test_legacy_reduction_flags(torch):
    def run(lib):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            loss = lib.nn.functional.mse_loss(lib.ones(3), lib.zeros(3), size_average=False)
        return [str(w.message) for w in seen], loss.item()

    assert run(minigrad) == run(torch)


# ---------------------------------------------------------------- dropout, flatten


@pytest.mark.parametrize("shape,p", [((4, 5), 0.3), ((100,), 0.5), ((3, 2, 8), 0.9)])
def test_dropout_drops_what_pytorch_drops(torch, shape, p):
    x = np.random.RandomState(1).rand(*shape).astype(np.float32) + 0.5

    def run(lib, x):
        lib.manual_seed(3)
        return lib.nn.functional.dropout(x, p)

    assert_same(run_both(torch, run, [x], [True]), rtol=0, atol=0)


def test_dropout_modes():
    minigrad.manual_seed(0)
    x = minigrad.ones(20, requires_grad=True)
    layer = nn.Dropout(0.5)
    assert layer.eval()(x) is x and F.dropout(x, 0.0) is x and F.dropout(x, 0.5, training=False) is x
    zeros = layer.train()(x)
    assert graph(zeros.grad_fn) == ("MulBackward0", [("AccumulateGrad", []), None])
    kept = array(zeros)
    assert set(kept.tolist()) <= {0.0, 2.0} and 0 < kept.sum() < 40
    assert not array(F.dropout(x, 1.0)).any()


def test_inplace_relu_and_dropout_write_into_their_input(torch):
    def run(lib):
        lib.manual_seed(0)
        x = lib.tensor([-1.0, 2.0, 3.0, -4.0, 5.0, 6.0], requires_grad=True)
        y = x * 1
        out = lib.nn.ReLU(inplace=True)(lib.nn.Dropout(0.5, inplace=True)(y))
        out.sum().backward()
        return out is y, graph(out.grad_fn), array(out).tolist(), array(x.grad).tolist()

    assert run(minigrad) == run(torch)


def test_flatten_matches_pytorch(torch):
    x = np.random.RandomState(1).randn(2, 3, 4).astype(np.float32)
    assert_same(run_both(torch, lambda lib, x: lib.nn.Flatten()(x), [x], [True]))
    assert_same(run_both(torch, lambda lib, x: lib.nn.Flatten(0, 1)(x), [x], [True]))


@pytest.mark.parametrize("name", ["ReLU", "Sigmoid", "Tanh"])
def test_activations_match_pytorch(torch, name):
    x = np.random.RandomState(1).randn(3, 4).astype(np.float32)
    assert_same(run_both(torch, lambda lib, x: getattr(lib.nn, name)()(x), [x], [True]))


# ---------------------------------------------------------------- backward of backward


SECOND_ORDER = {
    "softmax": lambda lib, x: (lib.nn.functional.softmax(x, 1) * lib.tensor([[1.0, 2.0, 3.0]])).sum(),
    "log_softmax": lambda lib, x: (lib.nn.functional.log_softmax(x, 1) * lib.tensor([[1.0, 2.0, 3.0]])).sum(),
    "cross_entropy": lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor([0, 2])),
    "mse": lambda lib, x: lib.nn.functional.mse_loss(x * x, lib.ones(2, 3)),
    "bce": lambda lib, x: lib.nn.functional.binary_cross_entropy(lib.sigmoid(x), lib.ones(2, 3) / 3),
    "linear": lambda lib, x: (lib.nn.functional.linear(x * x, lib.ones(4, 3), lib.ones(4)) ** 2).sum(),
}


@pytest.mark.parametrize("case", SECOND_ORDER)
def test_second_derivatives_match_pytorch(torch, case):
    """With create_graph=True the backward formulas run on tensors and are recorded too."""
    x0 = np.random.RandomState(1).randn(2, 3).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(x0, requires_grad=True)
        (grad,) = lib.autograd.grad(SECOND_ORDER[case](lib, x), x, create_graph=True)
        (grad * lib.tensor(x0)).sum().backward()
        results.append((array(grad), array(x.grad)))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------- finite differences (no PyTorch needed)


GRADCHECKS = {
    "mse": (lambda x, y: F.mse_loss(x, y), RNG.randn(3, 2), RNG.randn(3, 2)),
    "mse sum": (lambda x, y: F.mse_loss(x, y, reduction="sum"), RNG.randn(4), RNG.randn(4)),
    "cross_entropy": (lambda x, y: F.cross_entropy(x, y.long()), RNG.randn(4, 3), np.array([0.0, 2, 1, 1])),
    "cross_entropy weighted": (lambda x, y: F.cross_entropy(x, y.long(), weight=minigrad.tensor([1.0, 3.0, 0.5],
                               dtype=minigrad.float64)), RNG.randn(4, 3), np.array([0.0, 2, 1, 1])),
    "nll none": (lambda x, y: (F.nll_loss(x, y.long(), reduction="none") * minigrad.arange(4.0).double()).sum(),
                 RNG.randn(4, 3), np.array([0.0, 2, 1, 1])),
    "bce": (lambda x, y: F.binary_cross_entropy(x, y), RNG.rand(3, 2) * 0.8 + 0.1, RNG.rand(3, 2)),
    "bce with logits": (lambda x, y: F.binary_cross_entropy_with_logits(x, y), RNG.randn(5), RNG.rand(5)),
    "softmax": (lambda x, y: (F.softmax(x, dim=1) * y).sum(), RNG.randn(2, 4), RNG.randn(2, 4)),
    "log_softmax": (lambda x, y: (F.log_softmax(x, dim=0) * y).sum(), RNG.randn(3, 2), RNG.randn(3, 2)),
    "linear": (lambda x, w: (F.linear(x, w, minigrad.tensor([0.5, -1.0], dtype=minigrad.float64)) ** 2).sum(),
               RNG.randn(4, 3), RNG.randn(2, 3)),
    "linear 3-D": (lambda x, w: (F.linear(x, w, w[:, 0]) ** 2).sum(), RNG.randn(2, 2, 3), RNG.randn(2, 3)),
}


@pytest.mark.parametrize("case", GRADCHECKS)
def test_gradients_match_finite_differences(case):
    fn, a, b = GRADCHECKS[case]
    inputs = [minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True) for v in (a, b)]
    fn(*inputs).backward()
    for i, value in enumerate((a, b)):
        def f(v, i=i):
            args = [minigrad.tensor(v if j == i else w, dtype=minigrad.float64) for j, w in enumerate((a, b))]
            return fn(*args).item()

        if inputs[i].grad is not None:
            np.testing.assert_allclose(array(inputs[i].grad), central_differences(f, value.copy())[0], rtol=1e-5,
                                       atol=1e-7)


# ---------------------------------------------------------------- init


INITS = {
    "uniform_": lambda lib, t: lib.nn.init.uniform_(t, -0.3, 0.7),
    "normal_ small": lambda lib, t: lib.nn.init.normal_(t[:2], 1.0, 0.5),
    "normal_": lambda lib, t: lib.nn.init.normal_(t, 1.0, 0.5),
    "kaiming_uniform_ relu": lambda lib, t: lib.nn.init.kaiming_uniform_(t, nonlinearity="relu"),
    "kaiming_uniform_ fan_out": lambda lib, t: lib.nn.init.kaiming_uniform_(t, a=0.2, mode="fan_out"),
    "kaiming_normal_": lambda lib, t: lib.nn.init.kaiming_normal_(t),
    "xavier_uniform_": lambda lib, t: lib.nn.init.xavier_uniform_(t, gain=lib.nn.init.calculate_gain("tanh")),
    "xavier_normal_": lambda lib, t: lib.nn.init.xavier_normal_(t),
    "constant_": lambda lib, t: lib.nn.init.constant_(t, 0.25),
    "zeros_": lambda lib, t: lib.nn.init.zeros_(t),
    "ones_": lambda lib, t: lib.nn.init.ones_(t),
}


@pytest.mark.parametrize("case", INITS)
def test_init_draws_pytorchs_numbers(torch, case):
    def run(lib):
        lib.manual_seed(5)
        t = lib.zeros(6, 4, 3)
        result = INITS[case](lib, t)
        return array(result).tolist(), array(t).tolist()

    assert run(minigrad) == run(torch)


def test_init_fills_in_place_and_bumps_the_version():
    weight = nn.Linear(3, 2).weight
    version = weight._version
    assert nn.init.constant_(weight, 2.0) is weight and weight._version == version + 1
    assert not weight.grad_fn and set(array(weight).ravel().tolist()) == {2.0}


def test_calculate_gain(torch):
    cases = [("linear",), ("sigmoid",), ("tanh",), ("relu",), ("leaky_relu",), ("leaky_relu", 0.2),
             ("leaky_relu", 3), ("selu",), ("conv2d",)]
    assert [nn.init.calculate_gain(*c) for c in cases] == [torch.nn.init.calculate_gain(*c) for c in cases]


def test_init_of_an_empty_tensor_warns(torch):
    def run(lib):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            lib.nn.init.kaiming_uniform_(lib.empty(0, 3))
        return [str(w.message) for w in seen]

    assert run(minigrad) == run(torch) == ["Initializing zero-element tensors is a no-op"]
