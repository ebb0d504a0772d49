"""The random in-place fillers keep PyTorch's rules: no leaf that requires grad under grad mode, one version
per fill, and a node that gives the old values no gradient.
"""
import pytest

import minigrad as mg
from conftest import EDITION
from minigrad import random as mr
from support.parity import graph, upstream

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."


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
