"""PyTorch 2.13 names a capstone network uses: erf, GELU and its kin, Embedding, LayerNorm, the L1
losses, pad, the containers and gradient clipping, each run in both libraries and compared.

The element-wise operations are also rows of the ``OPS`` table (``support/strategies.py``), which
compares them with PyTorch, with central differences and in forward mode.
"""
import math
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from support.helpers import central_differences

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(EDITION == "learner", reason="nn needs a working autograd")
LIBS = (minigrad, torch)


def array(t):
    return t.detach().numpy()


def run(fn, *arrays):
    """``fn(lib, *leaves)`` in each library, backward from a fixed upstream gradient:
    (output, grad_fn name, gradients) per library."""
    results = []
    for lib in LIBS:
        leaves = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
        out = fn(lib, *leaves)
        upstream = np.cos(np.arange(out.numel())).reshape(tuple(out.shape)).astype(array(out).dtype)
        out.backward(lib.tensor(upstream))
        grads = [None if t.grad is None else array(t.grad) for t in leaves]
        results.append((array(out), out.grad_fn.name(), grads))
    return results


def assert_same(results, rtol=1e-5, atol=1e-6):
    (out, name, grads), (t_out, t_name, t_grads) = results
    assert name == t_name
    np.testing.assert_allclose(out, t_out, rtol=rtol, atol=atol)
    for grad, t_grad in zip(grads, t_grads):
        assert (grad is None) == (t_grad is None)
        if grad is not None:
            np.testing.assert_allclose(grad, t_grad, rtol=rtol, atol=atol)


def error(fn):
    """(type name, message) of ``fn(lib)`` in each library."""
    found = []
    for lib in LIBS:
        with warnings.catch_warnings(), pytest.raises(Exception) as info:
            warnings.simplefilter("ignore")
            fn(lib)
        found.append((type(info.value).__name__, str(info.value)))
    return found


RNG = np.random.RandomState(0)
X32 = RNG.randn(4, 6).astype(np.float32)
X64 = RNG.randn(3, 4, 5)


# ---------------------------------------------------------------- erf


def test_erf_is_accurate_to_a_few_ulps_over_its_whole_range():
    x = np.concatenate([np.linspace(-7, 7, 20001), [0.0, 0.5, -0.5, 1e-300, 30.0, -30.0]])
    expected = np.array([math.erf(v) for v in x])
    got = minigrad.erf(minigrad.tensor(x)).numpy()
    np.testing.assert_allclose(got, expected, rtol=5e-16, atol=3e-16)
    ends = minigrad.erf(minigrad.tensor([math.inf, -math.inf, math.nan])).numpy()
    assert ends[0] == 1 and ends[1] == -1 and math.isnan(ends[2])


def test_erf_of_integers_is_a_float_as_in_pytorch():
    assert [str(lib.erf(lib.tensor([0, 1])).dtype) for lib in LIBS] == ["torch.float32"] * 2


# ---------------------------------------------------------------- activations


ACTIVATIONS = {
    "gelu": lambda lib, a: lib.nn.functional.gelu(a),
    "gelu_tanh": lambda lib, a: lib.nn.GELU("tanh")(a),
    "silu": lambda lib, a: lib.nn.SiLU()(a),
    "leaky_relu": lambda lib, a: lib.nn.LeakyReLU(0.1)(a),
    "hardtanh": lambda lib, a: lib.nn.Hardtanh(-0.5, 0.8)(a),
    "erf": lambda lib, a: lib.erf(a),
}


@pytest.mark.parametrize("name", ACTIVATIONS)
@pytest.mark.parametrize("x", [X32, X64], ids=["float32", "float64"])
def test_activation_matches_pytorch(name, x):
    assert_same(run(ACTIVATIONS[name], x), rtol=1e-5 if x.dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("name", ["gelu", "gelu_tanh", "silu", "erf"])
def test_activation_second_derivative_matches_pytorch(name):
    seconds = []
    for lib in LIBS:
        a = lib.tensor(X64[0], requires_grad=True)
        (g,) = lib.autograd.grad(ACTIVATIONS[name](lib, a).sum(), a, create_graph=True)
        seconds.append(array(lib.autograd.grad((g * g).sum(), a)[0]))
    np.testing.assert_allclose(*seconds, rtol=1e-12)


@pytest.mark.parametrize("name", ["leaky_relu", "silu", "hardtanh"])
def test_inplace_activation_writes_into_its_input(name):
    make = {"leaky_relu": lambda lib: lib.nn.LeakyReLU(0.1, inplace=True),
            "silu": lambda lib: lib.nn.SiLU(inplace=True), "hardtanh": lambda lib: lib.nn.Hardtanh(inplace=True)}[name]
    outs = []
    for lib in LIBS:
        x = lib.tensor(X32)
        assert make(lib)(x) is x
        outs.append(array(x))
    np.testing.assert_allclose(*outs, rtol=1e-6)


REPRS = [
    "nn.GELU()", "nn.GELU('tanh')", "nn.SiLU()", "nn.SiLU(inplace=True)", "nn.LeakyReLU()",
    "nn.LeakyReLU(0.2, True)", "nn.Hardtanh()", "nn.Hardtanh(-2, 3.0)", "nn.Embedding(5, 3)",
    "nn.Embedding(5, 3, padding_idx=-1)", "nn.LayerNorm(4)", "nn.LayerNorm((2, 3), bias=False)",
    "nn.LayerNorm(3, elementwise_affine=False)", "nn.SmoothL1Loss(beta=0.5)", "nn.L1Loss()",
    "nn.BatchNorm1d(3)", "nn.BatchNorm2d(3, bias=False)", "nn.BatchNorm1d(3, affine=False)",
    "nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.Linear(1, 1), nn.ReLU()])", "nn.ModuleList()",
    "nn.ModuleDict({'fc': nn.Linear(2, 3), 'act': nn.GELU()})",
    "nn.ParameterList([nn.Parameter(ones(2)), ones(2, 3)])", "nn.ParameterList([ones(1)])",
    "nn.ParameterDict({'a': ones(2), 'b': zeros(2, 3, dtype=float64)})",
    "nn.Sequential(nn.ModuleList([nn.Tanh()]), nn.ParameterList([ones(1)]))",
]


@pytest.mark.parametrize("code", REPRS)
def test_repr_is_pytorchs(code):
    assert repr(eval(code, vars(minigrad))) == repr(eval(code, vars(torch)))


ERRORS = {
    "gelu approximate": lambda lib: lib.nn.functional.gelu(lib.ones(2), approximate="exact"),
    "hardtanh bounds": lambda lib: lib.nn.functional.hardtanh(lib.ones(2), 2, 1),
    "Hardtanh bounds": lambda lib: lib.nn.Hardtanh(2, 1),
    "layer_norm shape": lambda lib: lib.nn.functional.layer_norm(lib.ones(3, 5), (4,)),
    "layer_norm weight": lambda lib: lib.nn.functional.layer_norm(lib.ones(3, 5), (5,), lib.ones(4)),
    "embedding range": lambda lib: lib.nn.functional.embedding(lib.tensor([5]), lib.ones(5, 3)),
    "embedding dtype": lambda lib: lib.nn.functional.embedding(lib.tensor([1.0]), lib.ones(5, 3)),
    "padding_idx": lambda lib: lib.nn.Embedding(5, 3, padding_idx=5),
    "pad odd": lambda lib: lib.nn.functional.pad(lib.ones(3, 5), (1,)),
    "pad long": lambda lib: lib.nn.functional.pad(lib.ones(3, 5), (1,) * 6),
    "pad cut": lambda lib: lib.nn.functional.pad(lib.ones(3, 5), (-3, -3)),
    "smooth_l1 beta": lambda lib: lib.nn.functional.smooth_l1_loss(lib.ones(2), lib.ones(2), beta=-1.0),
    "ModuleList index": lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[3],
    "BatchNorm2d input": lambda lib: lib.nn.BatchNorm2d(3)(lib.ones(2, 3)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_error_is_pytorchs(name):
    mine, theirs = error(ERRORS[name])
    assert mine == theirs


# ---------------------------------------------------------------- Embedding


def test_embedding_after_manual_seed_draws_pytorchs_table():
    tables = []
    for lib in LIBS:
        lib.manual_seed(0)
        first = lib.nn.Embedding(5, 3)
        second = lib.nn.Embedding(7, 4, padding_idx=2)
        tables.append((array(first.weight), array(second.weight), repr(first.weight)))
    (a, b, text), (ta, tb, t_text) = tables
    np.testing.assert_array_equal(a, ta)
    np.testing.assert_array_equal(b, tb)
    assert not b[2].any() and text == t_text


@pytest.mark.parametrize("padding_idx", [None, 1, -1])
def test_embedding_gathers_rows_and_scatters_gradients_back(padding_idx):
    index = np.array([[1, 2, 2, 4], [0, 4, 1, 1]], np.int64)
    table = RNG.randn(5, 3).astype(np.float32)
    assert_same(run(lambda lib, w, i: lib.nn.functional.embedding(i, w, padding_idx=padding_idx), table, index))


def test_embedding_gradient_under_create_graph_matches_pytorch():
    seconds = []
    for lib in LIBS:
        w = lib.tensor(X64[0, :4], requires_grad=True)
        (g,) = lib.autograd.grad((lib.nn.functional.embedding(lib.tensor([1, 1, 3]), w) ** 3).sum(), w,
                                 create_graph=True)
        seconds.append(array(lib.autograd.grad((g * g).sum(), w)[0]))
    np.testing.assert_allclose(*seconds, rtol=1e-12)


def test_embedding_from_pretrained_is_frozen():
    made = [lib.nn.Embedding.from_pretrained(lib.tensor(X32[:3])) for lib in LIBS]
    assert [m.weight.requires_grad for m in made] == [False, False]
    assert repr(made[0]) == repr(made[1])


# ---------------------------------------------------------------- LayerNorm


@pytest.mark.parametrize("shape", [(6,), (4, 6)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_matches_pytorch(shape, affine):
    x = RNG.randn(3, *shape).astype(np.float32)
    w, b = RNG.randn(*shape).astype(np.float32), RNG.randn(*shape).astype(np.float32)
    if affine:
        results = run(lambda lib, a, w, b: lib.nn.functional.layer_norm(a, shape, w, b, eps=1e-3), x, w, b)
    else:
        results = run(lambda lib, a: lib.nn.functional.layer_norm(a, shape), x)
    assert_same(results, rtol=1e-4, atol=1e-5)


def test_layer_norm_gradients_match_central_differences():
    x, w, b = RNG.randn(2, 3, 4), RNG.randn(4), RNG.randn(4)
    upstream = np.cos(np.arange(24.0)).reshape(2, 3, 4)
    tensors = [minigrad.tensor(v, requires_grad=True) for v in (x, w, b)]
    (minigrad.nn.functional.layer_norm(*tensors[:1], (4,), *tensors[1:]) * minigrad.tensor(upstream)).sum().backward()

    def loss(*arrays):
        out = minigrad.nn.functional.layer_norm(minigrad.tensor(arrays[0]), (4,), *map(minigrad.tensor, arrays[1:]))
        return float((out.numpy() * upstream).sum())

    for t, numeric in zip(tensors, central_differences(loss, x, w, b)):
        np.testing.assert_allclose(t.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_layer_norm_second_derivative_matches_pytorch():
    seconds = []
    for lib in LIBS:
        a, w = lib.tensor(X64[0], requires_grad=True), lib.tensor(np.linspace(0.5, 1.5, 5), requires_grad=True)
        out = (lib.nn.functional.layer_norm(a, (5,), w) ** 2 * lib.tensor(np.arange(5.0))).sum()
        (g,) = lib.autograd.grad(out, a, create_graph=True)
        seconds.append([array(v) for v in lib.autograd.grad((g * g).sum(), (a, w))])
    for mine, theirs in zip(*seconds):
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-12)


def test_layer_norm_module_trains_its_weight_and_bias():
    assert_same(run(lambda lib, a: lib.nn.LayerNorm(6)(a), X32), rtol=1e-4, atol=1e-5)
    names = [[n for n, _ in lib.nn.LayerNorm((2, 3), bias=False).named_parameters()] for lib in LIBS]
    assert names[0] == names[1] == ["weight"]


# ---------------------------------------------------------------- losses and pad


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("beta", [1.0, 0.3, 0.0])
def test_smooth_l1_and_l1_losses_match_pytorch(reduction, beta):
    y = RNG.randn(4, 6).astype(np.float32)
    assert_same(run(lambda lib, a, b: lib.nn.SmoothL1Loss(reduction=reduction, beta=beta)(a, b), X32, y))
    assert_same(run(lambda lib, a, b: lib.nn.L1Loss(reduction=reduction)(a, b), X32, y))


@pytest.mark.parametrize("pad", [(1, 2), (0, 1, 2, 0), (-1, 2, 1, -1), (1, 1, 0, 2, 1, 0)])
def test_constant_pad_matches_pytorch(pad):
    assert_same(run(lambda lib, a: lib.nn.functional.pad(a, pad, value=-0.5), X64))


# ---------------------------------------------------------------- containers and clipping


def _model(lib):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = lib.nn.ModuleList([lib.nn.Linear(3, 3) for _ in range(2)])
            self.heads = lib.nn.ModuleDict({"a": lib.nn.Linear(3, 1), "b": lib.nn.Linear(3, 2)})
            self.scales = lib.nn.ParameterList([lib.ones(3), lib.nn.Parameter(lib.zeros(1))])
            self.shifts = lib.nn.ParameterDict({"x": lib.zeros(3)})

        def forward(self, x):
            for block, scale in zip(self.blocks, self.scales):
                x = block(x) * scale
            return self.heads["b"](x + self.shifts["x"])

    return Net()


def test_containers_register_what_they_hold():
    seen = []
    for lib in LIBS:
        lib.manual_seed(0)
        model = _model(lib)
        out = model(lib.tensor(X32[:, :3]))
        out.sum().backward()
        seen.append((repr(model), list(model.state_dict()), [n for n, _ in model.named_parameters()], array(out)))
    assert seen[0][:3] == seen[1][:3]
    np.testing.assert_allclose(seen[0][3], seen[1][3], rtol=1e-5)


def test_module_list_edits_as_a_list():
    lists = []
    for lib in LIBS:
        modules = lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.Tanh()])
        modules.append(lib.nn.GELU())
        modules.insert(1, lib.nn.SiLU())
        del modules[0]
        modules += [lib.nn.Sigmoid()]
        lists.append((repr(modules), repr(modules[1:]), repr(modules[-1]), len(modules)))
    assert lists[0] == lists[1]


@pytest.mark.parametrize("norm_type", [2.0, 1, "inf"])
def test_clip_grad_norm_scales_every_gradient_and_returns_the_total_norm(norm_type):
    found = []
    for lib in LIBS:
        params = [lib.nn.Parameter(lib.tensor(X32[0])), lib.nn.Parameter(lib.tensor(X32[1, :2]))]
        for p in params:
            p.grad = p.detach() * 3
        total = lib.nn.utils.clip_grad_norm_(params, 1.0, norm_type=norm_type)
        found.append((array(total), str(total.dtype), [array(p.grad) for p in params]))
    (total, dtype, grads), (t_total, t_dtype, t_grads) = found
    np.testing.assert_allclose(total, t_total, rtol=1e-5)
    assert dtype == t_dtype and total.shape == ()
    for g, t in zip(grads, t_grads):
        np.testing.assert_allclose(g, t, rtol=1e-5)


def test_clip_grad_value_limits_each_element():
    found = []
    for lib in LIBS:
        p = lib.nn.Parameter(lib.tensor(X32[0]))
        p.grad = p.detach() * 1
        assert lib.nn.utils.clip_grad_value_(p, 0.5) is None
        found.append(array(p.grad))
    np.testing.assert_array_equal(*found)


# ---------------------------------------------------------------- BatchNorm


def test_batch_norm_2d_trains_as_pytorchs():
    found = []
    for lib in LIBS:
        bn = lib.nn.BatchNorm2d(3, bias=False)
        x = lib.tensor(np.stack([X64, X64[::-1] * 2]).astype(np.float32), requires_grad=True)
        out = bn(x)
        (out * lib.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)))).sum().backward()
        found.append([array(out), array(x.grad), array(bn.weight.grad), array(bn.running_var),
                      list(bn.state_dict())])
    for mine, theirs in zip(*found):
        if isinstance(mine, list):
            assert mine == theirs
        else:
            np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)
