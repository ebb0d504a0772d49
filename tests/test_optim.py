"""``minigrad.optim``: SGD and Adam, step by step against PyTorch, and a training loop that learns."""
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from minigrad import nn, optim

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="optim needs a working autograd")

X = np.random.RandomState(0).randn(16, 3).astype(np.float32)
Y = np.random.RandomState(1).randn(16, 2).astype(np.float32)


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def array(tensor):
    return tensor.detach().numpy()


def model(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))


def train(lib, make_optimizer, steps=5):
    """``steps`` updates of a small regression.

    Returns the losses, the gradients of each step, the parameters after, and the optimizer.
    """
    net = model(lib)
    optimizer = make_optimizer(lib, net.parameters())
    x, y = lib.tensor(X), lib.tensor(Y)
    losses, grads = [], []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = lib.nn.functional.mse_loss(net(x), y)
        loss.backward()
        losses.append(loss.item())
        grads += [array(p.grad).copy() for p in net.parameters()]
        optimizer.step()
    return losses, grads, [array(p) for p in net.parameters()], optimizer


OPTIMIZERS = {
    "sgd": lambda lib, params: lib.optim.SGD(params, lr=0.1),
    "sgd momentum": lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9),
    "sgd dampening": lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9, dampening=0.5),
    "sgd weight decay": lambda lib, params: lib.optim.SGD(params, lr=0.1, weight_decay=0.01),
    "sgd nesterov": lambda lib, params: lib.optim.SGD(params, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1),
    "sgd maximize": lambda lib, params: lib.optim.SGD(params, lr=0.01, momentum=0.5, maximize=True),
    "adam": lambda lib, params: lib.optim.Adam(params, lr=0.01),
    "adam weight decay": lambda lib, params: lib.optim.Adam(params, lr=0.01, betas=(0.8, 0.99), weight_decay=0.1),
    "adam amsgrad": lambda lib, params: lib.optim.Adam(params, lr=0.02, amsgrad=True, eps=1e-6),
    "adamw": lambda lib, params: lib.optim.Adam(params, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
    "groups": lambda lib, params: lib.optim.SGD([{"params": list(params)[:2], "lr": 0.3}], lr=0.1, momentum=0.5),
}


@pytest.mark.parametrize("case", OPTIMIZERS)
def test_five_steps_match_pytorch(torch, case):
    losses, grads, params, optimizer = train(minigrad, OPTIMIZERS[case])
    t_losses, t_grads, t_params, t_optimizer = train(torch, OPTIMIZERS[case])
    np.testing.assert_allclose(losses, t_losses, rtol=1e-5)
    for mine, theirs in zip(grads + params, t_grads + t_params):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)
    state, t_state = optimizer.state_dict(), t_optimizer.state_dict()
    assert state["param_groups"] == t_state["param_groups"]
    assert {i: sorted(s) for i, s in state["state"].items()} == {i: sorted(s) for i, s in t_state["state"].items()}
    for i, values in state["state"].items():
        for name, value in values.items():
            np.testing.assert_allclose(array(value), array(t_state["state"][i][name]), rtol=1e-5, atol=1e-6)
    assert repr(optimizer) == repr(t_optimizer)


def test_initial_weights_are_pytorchs(torch):
    for mine, theirs in zip(model(minigrad).parameters(), model(torch).parameters()):
        assert np.array_equal(array(mine), array(theirs))


def test_step_updates_in_place_and_bumps_the_version():
    net = model(minigrad)
    weight = net[0].weight
    storage, version = weight.numpy(force=True), weight._version
    optimizer = optim.SGD(net.parameters(), lr=0.1)
    out = net(minigrad.tensor(X))
    nn.functional.mse_loss(out, minigrad.tensor(Y)).backward()
    optimizer.step()
    assert weight.numpy(force=True) is storage and weight._version == version + 1


def test_a_step_between_forward_and_backward_is_caught():
    """The forward saved the weights; stepping changes them, so backward must refuse."""
    net = model(minigrad)
    optimizer = optim.SGD(net.parameters(), lr=0.1)
    loss = nn.functional.mse_loss(net(minigrad.tensor(X)), minigrad.tensor(Y))
    loss.backward(retain_graph=True)
    optimizer.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_zero_grad_sets_none_by_default():
    net = model(minigrad)
    optimizer = optim.Adam(net.parameters())
    nn.functional.mse_loss(net(minigrad.tensor(X)), minigrad.tensor(Y)).backward()
    grad = net[0].weight.grad
    optimizer.zero_grad(set_to_none=False)
    assert net[0].weight.grad is grad and not array(grad).any()
    optimizer.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    optimizer.step()  # no gradients: nothing moves, no state is made
    assert not optimizer.state


def test_closure_is_called_with_grad_enabled_and_its_loss_returned():
    net = model(minigrad)
    optimizer = optim.SGD(net.parameters(), lr=0.1)

    def closure():
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(net(minigrad.tensor(X)), minigrad.tensor(Y))
        loss.backward()
        return loss

    with minigrad.no_grad():
        first = optimizer.step(closure)
    assert first.requires_grad and optimizer.step(closure).item() < first.item()


def test_state_dict_round_trip_continues_identically():
    _, _, params, optimizer = train(minigrad, OPTIMIZERS["adam amsgrad"], steps=3)
    saved = optimizer.state_dict()
    assert saved["param_groups"][0]["params"] == [0, 1, 2, 3] and saved["state"][0]["step"].item() == 3.0

    net = model(minigrad)
    for param, value in zip(net.parameters(), params):
        param.data = minigrad.tensor(value)
    fresh = OPTIMIZERS["adam amsgrad"](minigrad, net.parameters())
    fresh.load_state_dict(saved)
    assert fresh.state[net[0].weight]["exp_avg"] is saved["state"][0]["exp_avg"]
    with pytest.raises(ValueError, match="different number of parameter groups"):
        fresh.load_state_dict({"state": {}, "param_groups": []})


def _duplicate(lib):
    p = lib.nn.Parameter(lib.ones(2))
    return lib.optim.SGD([p, p], lr=1)


ERRORS = {
    "lr": lambda lib: lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), lr=-1),
    "momentum": lambda lib: lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), lr=1, momentum=-0.5),
    "weight decay": lambda lib: lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), weight_decay=-1),
    "nesterov": lambda lib: lib.optim.SGD(lib.nn.Linear(1, 1).parameters(), lr=1, nesterov=True),
    "tensor": lambda lib: lib.optim.SGD(lib.nn.Parameter(lib.ones(1)), lr=1),
    "empty": lambda lib: lib.optim.Adam([]),
    "non-leaf": lambda lib: lib.optim.Adam([lib.nn.Parameter(lib.ones(1)) * 2]),
    "overlap": lambda lib: lib.optim.SGD([{"params": lib.nn.Linear(1, 1).weight}] * 2, lr=1),
    "adam eps": lambda lib: lib.optim.Adam(lib.nn.Linear(1, 1).parameters(), eps=-1),
    "adam beta": lambda lib: lib.optim.Adam(lib.nn.Linear(1, 1).parameters(), betas=(0.9, 1.0)),
    "adam weight decay": lambda lib: lib.optim.Adam(lib.nn.Linear(1, 1).parameters(), weight_decay=-0.1),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch(torch, case):
    def error(lib):
        with pytest.raises(Exception) as info:
            ERRORS[case](lib)
        return type(info.value).__name__, str(info.value)

    assert error(minigrad) == error(torch)


def test_duplicate_parameters_warn_like_pytorch(torch):
    def warned(lib):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            _duplicate(lib)
        return [str(w.message) for w in seen]

    assert warned(minigrad) == warned(torch) != []


def test_sgd_fits_a_line():
    """y = 2x + 1 from 20 noisy points: the loss falls and the line comes out."""
    minigrad.manual_seed(0)
    x = minigrad.tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(20, 1))
    y = 2 * x + 1 + minigrad.tensor(np.random.RandomState(2).randn(20, 1).astype(np.float32) * 0.01)
    line = nn.Linear(1, 1)
    optimizer = optim.SGD(line.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(100):
        optimizer.zero_grad()
        loss = nn.MSELoss()(line(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 1e-3 < losses[0] and losses[10] < losses[0]
    assert abs(line.weight.item() - 2) < 0.02 and abs(line.bias.item() - 1) < 0.02
