"""Places where minigrad used to differ from PyTorch, each checked against PyTorch when
it is installed and, where a gradient is involved, against central differences always.

1. ``binary_cross_entropy_with_logits`` gives a target that requires grad its gradient.
2. ``reshape`` records what PyTorch records: ``ViewBackward0`` for a contiguous input,
   ``ReshapeAliasBackward0`` for a non-contiguous one it can view, and for one it
   cannot, a copy (``CloneBackward0``, then ``UnsafeViewBackward0``) that is no view.
   ``flatten`` and ``contiguous`` follow.
3. The random in-place fillers keep PyTorch's rules: no leaf that requires grad under
   grad mode, one version per fill, and a node that gives the old values no gradient.
4. ``cross_entropy`` takes class probabilities as targets, and ``label_smoothing``.
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from conftest import EDITION
from minigrad import random as mr
from minigrad.ops import views
from support.helpers import central_differences

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def graph(fn):
    """A graph as nested (node name, [inputs]), with None where an input needs no gradient."""
    if fn is None:
        return None
    return (fn.name().replace("torch::autograd::", ""), [graph(f) for f, _ in fn.next_functions])


def upstream(shape):
    """A gradient to start backward with, never uniform."""
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape)


def run(lib, fn, arrays, needs_grad):
    """``fn(lib, *tensors)``, then backward from ``upstream``: the output, its graph and the
    gradients of the inputs that need one."""
    tensors = [lib.tensor(a, requires_grad=g) for a, g in zip(arrays, needs_grad)]
    out = fn(lib, *tensors)
    value = out.detach().numpy().copy()
    out.backward(lib.tensor(upstream(value.shape).astype(value.dtype)))
    return value, graph(out.grad_fn), [t.grad.numpy().copy() for t, g in zip(tensors, needs_grad) if g]


def assert_same(fn, arrays, needs_grad, torch, whole_graph=True, rtol=1e-7, atol=1e-10):
    value, nodes, grads = run(mg, fn, arrays, needs_grad)
    t_value, t_nodes, t_grads = run(torch, fn, arrays, needs_grad)
    assert (nodes if whole_graph else nodes[0]) == (t_nodes if whole_graph else t_nodes[0])
    assert value.dtype == t_value.dtype
    np.testing.assert_allclose(value, t_value, rtol=rtol, atol=atol)
    assert len(grads) == len(t_grads)
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=rtol, atol=atol)


def assert_differences(fn, arrays, needs_grad):
    """The gradients of Σ upstream · fn(...) against central differences, in float64."""
    _, _, grads = run(mg, fn, arrays, needs_grad)
    wanted = [i for i, g in enumerate(needs_grad) if g]
    for grad, i in zip(grads, wanted):
        def f(v, i=i):
            tensors = [mg.tensor(v if j == i else a) for j, a in enumerate(arrays)]
            out = fn(mg, *tensors).numpy()
            return float((out * upstream(out.shape)).sum())

        np.testing.assert_allclose(grad, central_differences(f, arrays[i].copy())[0], rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------- 1. BCE with logits, the target's gradient

RNG = np.random.RandomState(0)
LOGITS, PROBABILITIES = RNG.randn(4, 3) * 2, RNG.rand(4, 3)
WEIGHT, POS_WEIGHT = np.array([0.5, 2.0, 1.0]), np.array([3.0, 0.25, 1.0])


def _bce(reduction, weighted, pos_weighted):
    def fn(lib, z, y):
        weight = lib.tensor(WEIGHT) if weighted else None
        pos_weight = lib.tensor(POS_WEIGHT) if pos_weighted else None
        return lib.nn.functional.binary_cross_entropy_with_logits(z, y, weight, reduction=reduction,
                                                                  pos_weight=pos_weight)
    return fn


BCE_OPTIONS = [(r, w, p) for r in ("mean", "sum", "none") for w in (False, True) for p in (False, True)]
BCE_IDS = [f"{r}{' weight' * w}{' pos_weight' * p}" for r, w, p in BCE_OPTIONS]


@pytest.mark.parametrize("options", BCE_OPTIONS, ids=BCE_IDS)
def test_bce_with_logits_target_gradient_matches_pytorch(torch, options):
    assert_same(_bce(*options), [LOGITS, PROBABILITIES], [True, True], torch)


@pytest.mark.parametrize("options", BCE_OPTIONS, ids=BCE_IDS)
def test_bce_with_logits_target_gradient_matches_differences(options):
    assert_differences(_bce(*options), [LOGITS, PROBABILITIES], [True, True])


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_bce_with_logits_target_alone_matches_pytorch(torch, reduction):
    assert_same(_bce(reduction, True, True), [LOGITS, PROBABILITIES], [False, True], torch)


def test_bce_with_logits_loss_module_gives_the_target_its_gradient(torch):
    def fn(lib, z, y):
        return lib.nn.BCEWithLogitsLoss(weight=lib.tensor(WEIGHT), pos_weight=lib.tensor(POS_WEIGHT))(z, y)

    assert_same(fn, [LOGITS, PROBABILITIES], [True, True], torch)


def test_bce_with_logits_target_gradient_without_pytorch():
    z, y = mg.tensor([2.0, -1.0], requires_grad=True), mg.tensor([0.25, 1.0], requires_grad=True)
    mg.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="sum").backward()
    assert y.grad.tolist() == [-2.0, 1.0]  # -z


# ---------------------------------------------------------------- 2. reshape, flatten, contiguous

def _grid(lib):
    return lib.tensor(np.arange(24.0).reshape(2, 3, 4) / 7, requires_grad=True)


RESHAPES = {  # name: (the input, made from a (2, 3, 4) leaf; the new shape)
    "contiguous": (lambda x: x, (6, 4)),
    "contiguous, same shape": (lambda x: x, (2, 3, 4)),
    "a transpose, flattened": (lambda x: x.transpose(0, 2), (24,)),
    "a transpose, same shape": (lambda x: x.transpose(0, 2), (4, 3, 2)),
    "a transpose, viewable": (lambda x: x.transpose(0, 1), (3, 2, 2, 2)),
    "a permute": (lambda x: x.permute(1, 2, 0), (12, 2)),
    "a slice, copied": (lambda x: x[:, 1:], (-1,)),
    "a slice, viewable": (lambda x: x[:, 1:], (4, 4)),
    "rows of a slice": (lambda x: x[1:], (3, 4)),
    "a strided slice": (lambda x: x[:, :, ::2], (12,)),
    "an expand": (lambda x: x[:1].expand(3, 3, 4), (9, 4)),
    "an expand, viewable": (lambda x: x[:1].expand(3, 3, 4), (3, 3, 2, 2)),
    "one element": (lambda x: x[1][2][3], (1, 1)),
    "an unsqueezed transpose": (lambda x: x[0].t().unsqueeze(0), (4, 3)),
}


def _is_view_of(y, x):
    """(is y a view, of x's base): what PyTorch and minigrad must agree on."""
    base = x._base if x._base is not None else x
    return y._is_view(), y._base is base


@pytest.mark.parametrize("name", RESHAPES)
def test_reshape_records_pytorchs_nodes(torch, name):
    make, shape = RESHAPES[name]

    def check(lib):
        x = make(_grid(lib))
        y = x.reshape(shape)
        return graph(y.grad_fn), _is_view_of(y, x)

    assert check(mg) == check(torch)
    assert_same(lambda lib, g: make(g).reshape(shape) * 2, [np.arange(24.0).reshape(2, 3, 4)], [True], torch)


def test_a_copying_reshape_is_not_a_view():
    x = _grid(mg)
    t = x.transpose(0, 2)
    y = t.reshape(24)
    assert graph(y.grad_fn) == ("UnsafeViewBackward0", [("CloneBackward0", [graph(t.grad_fn)])])
    assert not y._is_view() and y._base is None
    before = y.tolist()
    with mg.no_grad():
        y.mul_(2)
    assert x._version == 0 and y._version == 1 and t.reshape(24).tolist() == before
    (y * mg.tensor(upstream(24))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), upstream(24).reshape(4, 3, 2).transpose(2, 1, 0))


def test_a_viewable_reshape_of_a_non_contiguous_tensor_is_an_alias():
    t = _grid(mg).transpose(0, 1)
    y = t.reshape(3, 2, 2, 2)
    assert graph(y.grad_fn) == ("ReshapeAliasBackward0", [graph(t.grad_fn)])
    assert y._is_view() and y.grad_fn._saved_self_sym_sizes == (3, 2, 4)


@st.composite
def strided(draw):
    """A shape, a way to make a (maybe non-contiguous) tensor of it, and a shape to reshape to."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    dims = draw(st.permutations(range(len(shape))))
    steps = draw(st.lists(st.sampled_from([1, 1, 2]), min_size=len(shape), max_size=len(shape)))
    expand = draw(st.booleans())
    made = tuple(-(-shape[d] // steps[d]) for d in dims)  # the shape after slicing and permuting
    if expand:
        made = (2,) + made
    numel = int(np.prod(made))
    target = []
    while numel > 1 and len(target) < 4:
        divisor = draw(st.sampled_from([d for d in range(1, numel + 1) if numel % d == 0]))
        target.append(divisor)
        numel //= divisor
    target.append(numel)
    return shape, dims, steps, expand, tuple(draw(st.permutations(target)))


def _strided(x, dims, steps, expand):
    for dim, step in enumerate(steps):  # one dim at a time: PyTorch records a slice per dim
        if step > 1:
            x = x[(slice(None),) * dim + (slice(None, None, step),)]
    x = x.permute(dims)
    return x.unsqueeze(0).expand((2,) + tuple(x.shape)) if expand else x


@settings(derandomize=True, deadline=None, max_examples=150, database=None)
@given(case=strided())
def test_reshape_of_any_strided_tensor_matches_pytorch(torch, case):
    shape, dims, steps, expand, target = case
    start = np.arange(float(np.prod(shape))).reshape(shape)

    def check(lib):
        leaf = lib.tensor(start, requires_grad=True)
        x = _strided(leaf, dims, steps, expand)
        y = x.reshape(target)
        (y * lib.tensor(upstream(target))).sum().backward()
        return graph(y.grad_fn), _is_view_of(y, x), y.detach().numpy().tolist(), leaf.grad.numpy().tolist()

    assert check(mg) == check(torch)


FLATTENS = {
    "a vector": lambda x: x[0][0].flatten(),
    "a number": lambda x: x[0][0][0].flatten(),
    "nothing to merge": lambda x: x.flatten(2),
    "one dim, negative": lambda x: x.flatten(-2, 1),
    "contiguous": lambda x: x.flatten(),
    "the first two": lambda x: x.flatten(0, 1),
    "a transpose": lambda x: x.transpose(0, 2).flatten(),
    "a transpose, nothing to merge": lambda x: x.transpose(0, 2).flatten(1, 1),
    "a transpose, viewable": lambda x: x.transpose(0, 1).flatten(1),
}


@pytest.mark.parametrize("name", FLATTENS)
def test_flatten_matches_pytorch(torch, name):
    def check(lib):
        x = _grid(lib) * 1
        y = FLATTENS[name](x)
        return graph(y.grad_fn), tuple(y.shape), y._is_view(), y is x

    assert check(mg) == check(torch)


def test_flatten_with_nothing_to_merge_returns_its_input():
    x = _grid(mg)
    vector = x[0][0]
    assert x.flatten(1, 1) is x and x.flatten(-1) is x and vector.flatten() is vector
    assert vector[0].flatten().shape == (1,)


@pytest.mark.parametrize("make", [lambda x: x, lambda x: x.transpose(1, 2), lambda x: x.permute(2, 0, 1)],
                         ids=["contiguous", "a transpose", "a permute"])
def test_linear_of_a_non_contiguous_batch_matches_pytorch(torch, make):
    """PyTorch fuses the bias into one product only for a contiguous input."""
    def fn(lib, x, w, b):
        out = lib.nn.functional.linear(make(x), w, b)
        assert out._version == (0 if make(x).is_contiguous() else 1)  # the bias added in place
        return out

    arrays = [np.arange(27.0).reshape(3, 3, 3) / 9, np.arange(6.0).reshape(2, 3) - 2, np.array([0.5, -1.0])]
    assert_same(fn, arrays, [True, True, True], torch)


CONTIGUOUS = {
    "contiguous": lambda x: x,
    "a transpose": lambda x: x.transpose(0, 2),
    "a slice": lambda x: x[:, 1:],
    "rows": lambda x: x[1:],
    "an expand": lambda x: x[:1].expand(3, 3, 4),
}


@pytest.mark.parametrize("name", CONTIGUOUS)
def test_contiguous_matches_pytorch(torch, name):
    def check(lib, contiguous):
        x = CONTIGUOUS[name](_grid(lib))
        y = contiguous(x)
        return y is x, graph(y.grad_fn), y.is_contiguous(), y._is_view() and y._base is not x._base

    assert check(mg, views.contiguous) == check(torch, lambda t: t.contiguous())


def test_contiguous_copies_only_when_it_must():
    x = _grid(mg)
    assert views.contiguous(x) is x
    y = views.contiguous(x.transpose(0, 2))
    assert y.is_contiguous() and not y._is_view() and y.grad_fn.name() == "CloneBackward0"
    y.sum().backward()
    assert x.grad.tolist() == np.ones((2, 3, 4)).tolist()


def test_tensor_contiguous_method_copies_a_non_contiguous_tensor():
    x = _grid(mg)
    assert x.transpose(0, 2).contiguous().grad_fn.name() == "CloneBackward0"


# ---------------------------------------------------------------- 3. the random in-place fillers

def _fill(lib, name):
    """PyTorch's fillers are tensor methods; minigrad's are functions of ``minigrad.random``."""
    if lib is mg:
        return getattr(mr, name)
    return lambda t, *args: getattr(t, name)(*args)


FILLERS = {
    "uniform_": lambda lib, t: _fill(lib, "uniform_")(t, -1.0, 2.0),
    "normal_": lambda lib, t: _fill(lib, "normal_")(t, 1.0, 0.5),
    "bernoulli_": lambda lib, t: _fill(lib, "bernoulli_")(t, 0.25),
    "bernoulli_ with a tensor": lambda lib, t: _fill(lib, "bernoulli_")(t, lib.ones(tuple(t.shape)) * 0.75),
}


def _error(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("name", FILLERS)
def test_filler_refuses_a_leaf_that_requires_grad(name):
    fill = FILLERS[name]
    x = mg.ones(3, requires_grad=True)
    mg.manual_seed(0)
    assert _error(lambda: fill(mg, x)) == LEAF
    assert _error(lambda: fill(mg, x[1:])) == VIEW_OF_LEAF
    assert _error(lambda: fill(mg, mg.ones(1).expand(3))).startswith("unsupported operation: more than one element")
    assert x._version == 0 and x.tolist() == [1.0, 1.0, 1.0]
    assert mg.rand(2).tolist() == (mg.manual_seed(0), mg.rand(2))[1].tolist()  # nothing was drawn


@pytest.mark.parametrize("name", FILLERS)
def test_filler_errors_match_pytorch(torch, name):
    def errors(lib):
        x = lib.ones(3, requires_grad=True)
        return _error(lambda: FILLERS[name](lib, x)), _error(lambda: FILLERS[name](lib, x[1:]))

    assert errors(mg) == errors(torch)


@pytest.mark.parametrize("name", FILLERS)
def test_filler_under_no_grad_fills_a_leaf_and_counts_a_version(name):
    x = mg.ones(4, requires_grad=True)
    with mg.no_grad():
        assert FILLERS[name](mg, x) is x
        FILLERS[name](mg, x[1:])
    assert x._version == 2 and x.grad_fn is None and x.requires_grad
    plain = mg.ones(3)
    FILLERS[name](mg, plain)
    assert plain._version == 1


@pytest.mark.parametrize("name", FILLERS)
def test_filler_on_a_result_records_pytorchs_node(torch, name):
    def check(lib):
        lib.manual_seed(3)
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x * 2
        FILLERS[name](lib, y.t())  # a transposed view: its base gets the history, filled in memory order
        (y * lib.tensor(upstream((2, 3)))).sum().backward()
        return graph(y.grad_fn), y._version, y.detach().numpy().tobytes(), x.grad.tolist()

    assert check(mg) == check(torch)


@pytest.mark.parametrize("name", FILLERS)
def test_filled_values_get_no_gradient(name):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    FILLERS[name](mg, y[1:])
    assert y._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 0.0]


# ---------------------------------------------------------------- 4. cross_entropy: probabilities, label smoothing

def _probabilities(shape, dim=1, seed=1):
    e = np.exp(np.random.RandomState(seed).randn(*shape))
    return e / e.sum(axis=dim, keepdims=True)


def _ce(**options):
    return lambda lib, x, y: lib.nn.functional.cross_entropy(
        x, y, **{k: lib.tensor(v) if k == "weight" else v for k, v in options.items()})


X = RNG.randn(4, 3)
INDICES = np.array([0, 2, 1, 2])
CROSS_ENTROPY = {  # name: (fn, input, target, does the target need a gradient)
    "soft mean": (_ce(), X, _probabilities((4, 3)), True),
    "soft sum": (_ce(reduction="sum"), X, _probabilities((4, 3)), True),
    "soft none": (_ce(reduction="none"), X, _probabilities((4, 3)), True),
    "soft weighted mean": (_ce(weight=WEIGHT), X, _probabilities((4, 3)), True),
    "soft weighted none": (_ce(weight=WEIGHT, reduction="none"), X, _probabilities((4, 3)), True),
    "soft smoothed": (_ce(label_smoothing=0.2), X, _probabilities((4, 3)), True),
    "soft smoothed weighted sum": (_ce(label_smoothing=0.3, weight=WEIGHT, reduction="sum"), X,
                                   _probabilities((4, 3)), True),
    "soft negative smoothing": (_ce(label_smoothing=-0.5), X, _probabilities((4, 3)), True),
    "soft one sample": (_ce(), X[0], _probabilities((3,), 0), True),
    "soft one sample weighted": (_ce(weight=WEIGHT, label_smoothing=0.1), X[0], _probabilities((3,), 0), True),
    "soft 3-D": (_ce(weight=WEIGHT), RNG.randn(2, 3, 4), _probabilities((2, 3, 4)), True),
    "soft 3-D none": (_ce(reduction="none"), RNG.randn(2, 3, 4), _probabilities((2, 3, 4)), True),
    "soft not normalized": (_ce(), X, RNG.rand(4, 3) * 3, True),
    "smoothed mean": (_ce(label_smoothing=0.1), X, INDICES, False),
    "smoothed sum": (_ce(label_smoothing=0.1, reduction="sum"), X, INDICES, False),
    "smoothed none": (_ce(label_smoothing=0.1, reduction="none"), X, INDICES, False),
    "smoothed weighted ignored mean": (_ce(label_smoothing=0.4, weight=WEIGHT, ignore_index=2), X, INDICES, False),
    "smoothed weighted ignored sum": (_ce(label_smoothing=0.4, weight=WEIGHT, ignore_index=2, reduction="sum"), X,
                                      INDICES, False),
    "smoothed weighted ignored none": (_ce(label_smoothing=0.4, weight=WEIGHT, ignore_index=2, reduction="none"), X,
                                       INDICES, False),
    "smoothed unweighted ignored mean": (_ce(label_smoothing=0.4, ignore_index=1), X, INDICES, False),
    "fully smoothed": (_ce(label_smoothing=1.0), X, INDICES, False),
    "negative smoothing": (_ce(label_smoothing=-0.1), X, INDICES, False),
    "smoothed one sample": (_ce(label_smoothing=0.3, weight=WEIGHT), X[1], np.array(2), False),
    "smoothed one sample ignored": (_ce(label_smoothing=0.3), X[1], np.array(-100), False),
}


@pytest.mark.parametrize("name", CROSS_ENTROPY)
def test_cross_entropy_matches_pytorch(torch, name):
    fn, x, y, target_grad = CROSS_ENTROPY[name]
    assert_same(fn, [x, y], [True, target_grad], torch, whole_graph=False)


@pytest.mark.parametrize("name", [name for name in CROSS_ENTROPY if name != "smoothed one sample ignored"])  # nan
def test_cross_entropy_matches_differences(name):
    fn, x, y, target_grad = CROSS_ENTROPY[name]
    assert_differences(fn, [x, y], [True, target_grad])


def test_cross_entropy_in_float32_with_float64_probabilities(torch):
    fn, x, y, _ = CROSS_ENTROPY["soft smoothed"]
    assert_same(fn, [x.astype(np.float32), y], [True, True], torch, whole_graph=False, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_every_sample_ignored_is_nan_with_no_gradient(torch, smoothing):
    def loss(lib, target, weight):
        x = lib.ones(3, 3, requires_grad=True)
        out = lib.nn.functional.cross_entropy(x, lib.tensor(target), weight=lib.tensor(weight),
                                              label_smoothing=smoothing)
        out.backward()
        return bool(np.isnan(out.item())), np.nan_to_num(x.grad.numpy(), nan=-1.0).round(6).tolist()

    cases = [([-100, 1, -100], [1.0, 2.0, 1.0]), ([-100, -100, -100], [1.0, 2.0, 1.0])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0/0 is nan silently, as in PyTorch
        for target, weight in cases:
            assert loss(mg, target, weight) == loss(torch, target, weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the kept sample weighs 0: nan for it, 0 for the ignored ones
        assert loss(mg, [-100, 1, -100], [1.0, 0.0, 1.0]) == loss(torch, [-100, 1, -100], [1.0, 0.0, 1.0])


def test_cross_entropy_of_no_samples_is_nan(torch):
    def loss(lib):
        x = lib.ones(0, 3, requires_grad=True)
        out = lib.nn.functional.cross_entropy(x, lib.ones(0, 3), weight=lib.ones(3))
        return np.isnan(out.item()), out.grad_fn.name()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert loss(mg) == loss(torch)


def test_cross_entropy_soft_target_without_pytorch():
    x = mg.tensor([[0.0, 0.0]], requires_grad=True)
    y = mg.tensor([[0.25, 0.75]], requires_grad=True)
    loss = mg.nn.functional.cross_entropy(x, y, label_smoothing=0.5)
    assert loss.grad_fn.name() == "DivBackward1" and np.isclose(loss.item(), np.log(2))
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.125, -0.125]])  # softmax - smoothed target
    np.testing.assert_allclose(y.grad.numpy(), [[0.5 * np.log(2)] * 2])  # -(1 - ε) log p


@settings(derandomize=True, deadline=None, max_examples=60, database=None)
@given(n=st.integers(1, 4), c=st.integers(1, 4), soft=st.booleans(), weighted=st.booleans(),
       smoothing=st.sampled_from([0.0, 0.05, 0.5, 1.0]), reduction=st.sampled_from(["mean", "sum", "none"]),
       seed=st.integers(0, 100))
def test_cross_entropy_of_any_batch_matches_pytorch(torch, n, c, soft, weighted, smoothing, reduction, seed):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, c)
    y = rng.rand(n, c) if soft else rng.randint(0, c, n)
    options = dict(label_smoothing=smoothing, reduction=reduction)
    if weighted:
        options["weight"] = rng.rand(c) + 0.1
    assert_same(_ce(**options), [x, y], [True, soft], torch, whole_graph=False)


def test_cross_entropy_loss_module_takes_label_smoothing(torch):
    def fn(lib, x, y):
        module = lib.nn.CrossEntropyLoss(weight=lib.tensor(WEIGHT), label_smoothing=0.25)
        assert module.label_smoothing == 0.25
        return module(x, y)

    assert_same(fn, [X, INDICES], [True, False], torch, whole_graph=False)
    assert_same(fn, [X, _probabilities((4, 3))], [True, True], torch, whole_graph=False)


CROSS_ENTROPY_ERRORS = {
    "long probabilities": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3).long()),
    "bool probabilities": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3).bool()),
    "probabilities, ignore_index": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3),
                                                                              ignore_index=0),
    "probabilities, weight": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3),
                                                                        weight=lib.ones(4), label_smoothing=2.0),
    "probabilities, smoothing": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3),
                                                                           label_smoothing=1.5),
    "indices, smoothing": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 7]),
                                                                     label_smoothing=1.5),
    "indices out of range, smoothed": lambda lib: lib.nn.functional.cross_entropy(
        lib.ones(2, 3), lib.tensor([0, 7]), label_smoothing=0.5),
    "float indices": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0.0, 1.0])),
    "2-D float indices": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 4)),
    "2-D float indices, nll": lambda lib: lib.nn.functional.nll_loss(lib.ones(2, 3), lib.ones(2, 4)),
    "batch": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(3, 3)),
    "reduction": lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.ones(2, 3), reduction="avg"),
}


@pytest.mark.parametrize("name", CROSS_ENTROPY_ERRORS)
def test_cross_entropy_errors_match_pytorch(torch, name):
    def error(lib):
        with pytest.raises(Exception) as info:
            CROSS_ENTROPY_ERRORS[name](lib)
        return type(info.value).__name__, str(info.value)

    assert error(mg) == error(torch)
