"""The last gaps between minigrad and PyTorch the corpus found, each checked against PyTorch.

1. Inference tensors: what ``inference_mode`` makes, and PyTorch's refusals outside it.
2. ``torch.multinomial`` and ``torch.distributions`` draw PyTorch's indices and counts.
3. ``torch.utils.data``: a ``DataLoader`` gives PyTorch's batches, shuffled with its draws.
4. Attributes: a view follows its base's ``requires_grad``; ``del x.grad``; ``.data`` and
   ``requires_grad`` refuse what PyTorch refuses.

Each scenario is run on both libraries and what it reports (values, reprs, error texts)
must be equal.
"""
import numpy as np
import pytest

import minigrad as mg
from conftest import EDITION

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def attempt(action):
    """What ``action()`` returns, or its error as ``Name: text``."""
    try:
        return action()
    except (RuntimeError, TypeError, ValueError, AssertionError) as error:
        return f"{type(error).__name__}: {error}"


def plain(value):
    """A report as plain Python values (a tensor as its dtype name, shape and numbers)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        array = value.detach().numpy()
        return str(value.dtype), list(array.shape), array.tolist()
    return value


def same(torch, scenario):
    assert plain(scenario(mg)) == plain(scenario(torch))


# ---------------------------------------------------------------- 1. inference tensors

def made_inside(lib):
    x = lib.ones(2, requires_grad=True)
    with lib.inference_mode():
        c = lib.ones(2)
        d = x * 2
        v = x[0:1]  # a view of a normal tensor: normal
        inside = lib.is_inference_mode_enabled()
        with lib.inference_mode(False):
            normal = lib.ones(1).is_inference()
    return [c.is_inference(), d.is_inference(), d.requires_grad, v.is_inference(), c[0].is_inference(),
            c.clone().is_inference(), lib.is_inference(d), inside, normal,
            lib.is_inference_mode_enabled(), x.is_inference()]


def refused_outside(lib):
    """(PyTorch writes before it refuses an in-place change, minigrad refuses before writing:
    the values of a refused tensor are not compared.)"""
    x = lib.ones(2, requires_grad=True)
    with lib.inference_mode():
        c = lib.ones(2)
        inside = c.add_(1).tolist()  # in place inside the mode is fine
    report = [inside, attempt(lambda: c.requires_grad_()), attempt(lambda: setattr(c, "requires_grad", True)),
              attempt(lambda: c.requires_grad_(False).requires_grad), (x * c.clone()).tolist()]
    for change in (lambda: c.mul_(2), lambda: c.zero_(), lambda: c.__setitem__(0, 5.0), lambda: c[0:1].add_(1)):
        report.append(attempt(change))
    with lib.no_grad():
        report.append(attempt(lambda: c.add_(1)))
        report.append(attempt(lambda: (x * c).requires_grad))
    report.append(attempt(lambda: (x * c).sum()))  # mul saves c
    report.append(attempt(lambda: (x + c).sum().requires_grad))  # add saves nothing
    report.append(attempt(lambda: (x * c.clone()).sum().requires_grad))
    return report


@pytest.mark.parametrize("scenario", [made_inside, refused_outside])
def test_inference_tensors_are_pytorchs(torch, scenario):
    same(torch, scenario)


def test_inference_mode_as_a_decorator_and_its_module(torch):
    @mg.inference_mode()
    def doubled(x):
        return x * 2

    out = doubled(mg.ones(1, requires_grad=True))
    assert (out.requires_grad, out.is_inference(), mg.is_inference_mode_enabled()) == (False, True, False)
    assert mg.autograd.inference_mode is mg.inference_mode
    assert mg.autograd.is_inference_mode_enabled is mg.is_inference_mode_enabled


# ---------------------------------------------------------------- 2. multinomial

CASES = [  # (shape, dtype, num_samples, replacement, seed)
    ((4,), "float32", 2, False, 0), ((4,), "float32", 4, True, 0), ((6,), "float64", 1, True, 3),
    ((3, 7), "float32", 5, False, 1), ((3, 7), "float64", 9, True, 2), ((2, 27), "float32", 1, False, 7),
    ((50,), "float32", 200, True, 11), ((1, 6), "float32", 5000, True, 5),
]


def draws(lib, shape, dtype, num_samples, replacement, seed, generator=False):
    """Indices drawn from positive weights, then the generator's next numbers (its state moved as PyTorch's)."""
    weights = lib.tensor(np.random.default_rng(seed).random(shape) + 0.01, dtype=getattr(lib, dtype))
    if generator:
        gen = lib.Generator().manual_seed(seed)
        return [weights.multinomial(num_samples, replacement, generator=gen), lib.rand(3, generator=gen)]
    lib.manual_seed(seed)
    return [lib.multinomial(weights, num_samples, replacement), lib.rand(3)]


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("generator", [False, True])
def test_multinomial_draws_pytorchs_indices(torch, case, generator):
    same(torch, lambda lib: draws(lib, *case, generator=generator))


def test_multinomial_keeps_zero_weights_out(torch):
    same(torch, lambda lib: [lib.manual_seed(0) and lib.multinomial(lib.tensor([0.0, 10, 3, 0]), 2),
                             lib.multinomial(lib.tensor([0.0, 10, 3, 0]), 4, replacement=True)])


def test_multinomial_errors(torch):
    def errors(lib):
        tensor = lib.tensor
        return [attempt(lambda: lib.multinomial(tensor([1, 2]), 1)),
                attempt(lambda: lib.multinomial(lib.ones(2, 2, 2), 1)),
                attempt(lambda: lib.multinomial(lib.ones(3), 0)),
                attempt(lambda: lib.multinomial(lib.ones(3), 4)),
                attempt(lambda: lib.multinomial(tensor([1.0, -1]), 1)),
                attempt(lambda: lib.multinomial(tensor([1.0, float("nan")]), 1)),
                attempt(lambda: lib.multinomial(tensor([0.0, 0]), 1)),
                attempt(lambda: lib.multinomial(tensor([1.0, -1]), 3, True)),
                attempt(lambda: lib.multinomial(tensor([1.0, float("inf")]), 3, True))]

    same(torch, errors)


def sampled(lib):
    from importlib import import_module

    distributions = import_module(lib.__name__ + ".distributions")
    lib.manual_seed(0)
    probs = lib.ones(6) / 6
    rows = lib.tensor([[1.0, 2, 3], [3, 0, 1]])
    return [distributions.Multinomial(1, probs).sample(), distributions.Multinomial(10, probs).sample((4,)),
            distributions.Multinomial(7, rows).sample(), distributions.Categorical(rows).sample((2, 5)),
            distributions.Categorical(probs=probs).probs, repr(distributions.Categorical(rows)),
            distributions.Multinomial(3, probs).event_shape == (6,)]


def test_distributions_sample_pytorchs_counts(torch):
    same(torch, sampled)


def test_bernoulli_records_a_zero_gradient(torch):
    def report(lib):
        lib.manual_seed(0)
        p = lib.tensor([0.3, 0.7], requires_grad=True)
        sample = lib.bernoulli(p)
        sample.sum().backward()
        return [sample, type(sample.grad_fn).__name__, p.grad]

    same(torch, report)


# ---------------------------------------------------------------- 3. torch.utils.data

def loaded(lib, batch_size, shuffle, drop_last, generator):
    from importlib import import_module

    data = import_module(lib.__name__ + ".utils.data")
    lib.manual_seed(4)
    x = lib.arange(23.0).reshape(23, 1)
    dataset = data.TensorDataset(x, lib.arange(23))
    gen = lib.Generator().manual_seed(9) if generator else None
    loader = data.DataLoader(dataset, batch_size, shuffle=shuffle, drop_last=drop_last, generator=gen)
    epochs = [[batch for batch in loader] for _ in range(2)]
    return [len(loader), len(dataset), epochs, lib.rand(2)]


@pytest.mark.parametrize("batch_size", [1, 5, 23, 30])
@pytest.mark.parametrize("shuffle, drop_last, generator", [(False, False, False), (True, False, False),
                                                           (True, True, False), (True, False, True)])
def test_dataloader_gives_pytorchs_batches(torch, batch_size, shuffle, drop_last, generator):
    same(torch, lambda lib: loaded(lib, batch_size, shuffle, drop_last, generator))


def test_dataloader_collates_numbers_and_lists(torch):
    def report(lib):
        from importlib import import_module

        data = import_module(lib.__name__ + ".utils.data")
        return [list(data.DataLoader([1, 2, 3], 2)), list(data.DataLoader([(1, 2.0)], 2)),
                list(data.DataLoader(lib.arange(5.0), batch_size=None)),
                attempt(lambda: data.TensorDataset(lib.ones(3), lib.ones(2)))]

    same(torch, report)


# ---------------------------------------------------------------- 4. attributes

def flagged_base(lib):
    base = lib.zeros(4)
    view = base[1:3]
    base.requires_grad_()
    report = [view.requires_grad, view.is_leaf, view.grad_fn is None, attempt(lambda: view.mul_(2))]
    (view * 2).sum().backward()
    report += [base.grad, view.grad]
    base.requires_grad_(False)
    report.append(view.requires_grad)
    other = lib.zeros(2)
    view = other[0:1]
    other.requires_grad = True
    return report + [view.requires_grad]


def attributes(lib):
    x = lib.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    del x.grad
    report = [x.grad]
    x.data = lib.zeros(3)
    report += [x, x.requires_grad]
    for action in (lambda: delattr(x, "data"), lambda: delattr(x, "requires_grad"),
                   lambda: setattr(x, "data", [1, 2, 3]), lambda: setattr(x, "requires_grad", "yes"),
                   lambda: setattr(x, "requires_grad", 1)):
        report.append(attempt(action))
    return report


@pytest.mark.parametrize("scenario", [flagged_base, attributes])
def test_attributes_follow_pytorchs_rules(torch, scenario):
    same(torch, scenario)
