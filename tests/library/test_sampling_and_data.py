"""Draws as PyTorch's: ``torch.multinomial`` and ``torch.distributions`` draw its indices and counts, and a
``DataLoader`` gives its batches, shuffled with its draws. Each scenario runs on both libraries, and what it
reports must be equal.
"""
import numpy as np
import pytest

from conftest import EDITION
from support.parity import attempt, same

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


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
