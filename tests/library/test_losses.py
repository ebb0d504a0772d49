"""The losses' gradients as PyTorch gives them, checked against PyTorch when it is installed and against
central differences always: ``binary_cross_entropy_with_logits`` gives a target that requires grad its
gradient; ``cross_entropy`` takes class probabilities as targets, and ``label_smoothing``.
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from conftest import EDITION
from support.parity import assert_differences, assert_same

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


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
