"""``minigrad.optim``: SGD, Adam, AdamW and RMSprop, step by step against PyTorch and by hand; a line fitted."""
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from minigrad import nn, optim

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="optim needs a working autograd")

X = np.random.RandomState(0).randn(16, 3).astype(np.float32)
Y = np.random.RandomState(1).randn(16, 2).astype(np.float32)


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
    "AdamW defaults": lambda lib, params: lib.optim.AdamW(params),
    "AdamW": lambda lib, params: lib.optim.AdamW(params, lr=0.02, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.5),
    "AdamW amsgrad": lambda lib, params: lib.optim.AdamW(params, lr=0.02, weight_decay=0.1, amsgrad=True),
    "AdamW maximize": lambda lib, params: lib.optim.AdamW(params, lr=0.01, maximize=True),
    "rmsprop defaults": lambda lib, params: lib.optim.RMSprop(params),
    "rmsprop alpha eps": lambda lib, params: lib.optim.RMSprop(params, lr=0.01, alpha=0.9, eps=1e-3),
    "rmsprop weight decay": lambda lib, params: lib.optim.RMSprop(params, lr=0.01, weight_decay=0.1),
    "rmsprop momentum": lambda lib, params: lib.optim.RMSprop(params, lr=0.005, momentum=0.9),
    "rmsprop centered": lambda lib, params: lib.optim.RMSprop(params, lr=0.01, centered=True),
    "rmsprop maximize": lambda lib, params: lib.optim.RMSprop(params, lr=0.01, maximize=True),
    "rmsprop everything": lambda lib, params: lib.optim.RMSprop(
        params, 0.005, 0.95, 1e-6, 0.05, 0.5, True, maximize=True),
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
    "adamw weight decay": lambda lib: lib.optim.AdamW(lib.nn.Linear(1, 1).parameters(), weight_decay=-0.1),
    "adamw beta": lambda lib: lib.optim.AdamW(lib.nn.Linear(1, 1).parameters(), betas=(-0.1, 0.9)),
    "adamw coupled": lambda lib: lib.optim.AdamW(lib.nn.Linear(1, 1).parameters(), decoupled_weight_decay=False),
    "rmsprop lr": lambda lib: lib.optim.RMSprop(lib.nn.Linear(1, 1).parameters(), lr=-0.1, alpha=-1),
    "rmsprop eps": lambda lib: lib.optim.RMSprop(lib.nn.Linear(1, 1).parameters(), eps=-1, momentum=-1),
    "rmsprop momentum": lambda lib: lib.optim.RMSprop(lib.nn.Linear(1, 1).parameters(), momentum=-1),
    "rmsprop weight decay": lambda lib: lib.optim.RMSprop(lib.nn.Linear(1, 1).parameters(), weight_decay=-1),
    "rmsprop alpha": lambda lib: lib.optim.RMSprop(lib.nn.Linear(1, 1).parameters(), alpha=-0.5),
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


def steps_with_gradient(optimizer_class, gradient, start, steps, **options):
    """The parameter after each of ``steps`` updates, its gradient held at ``gradient`` throughout.

    A constant gradient makes the running means of g and g² simple: after n steps with
    decay α, they are (1 - αⁿ) g and (1 - αⁿ) g², so the expected values have closed forms.
    """
    param = nn.Parameter(minigrad.tensor(start, dtype=minigrad.float64))
    optimizer = optimizer_class([param], **options)
    path = []
    for _ in range(steps):
        param.grad = minigrad.tensor(gradient, dtype=minigrad.float64)
        optimizer.step()
        path.append(array(param).copy())
    return np.array(path), optimizer


G = np.array([0.5, -4.0, 2.0])
P0 = np.array([1.0, -2.0, 0.0])


def test_rmsprop_steps_by_lr_over_the_root_of_the_decayed_mean_square():
    """p -= lr g / √((1 - αⁿ) g²): a step of lr / √(1 - αⁿ) against the sign of g, whatever its size."""
    path, optimizer = steps_with_gradient(optim.RMSprop, G, P0, 3, lr=0.1, alpha=0.9, eps=0)
    steps = 0.1 / np.sqrt(1 - 0.9 ** np.arange(1, 4))
    np.testing.assert_allclose(path, P0 - np.cumsum(steps)[:, None] * np.sign(G), rtol=1e-12)
    assert sorted(optimizer.state[optimizer.param_groups[0]["params"][0]]) == ["square_avg", "step"]


def test_rmsprop_eps_is_added_to_the_root():
    path, _ = steps_with_gradient(optim.RMSprop, G, P0, 1, lr=0.1, alpha=0.5, eps=0.25)
    np.testing.assert_allclose(path[0], P0 - 0.1 * G / (np.sqrt(0.5 * G * G) + 0.25), rtol=1e-12)


def test_rmsprop_centered_divides_by_the_spread_of_the_gradient():
    """Centered, v = (1 - αⁿ) g² - (1 - αⁿ)² g² = (1 - αⁿ) αⁿ g²."""
    path, optimizer = steps_with_gradient(optim.RMSprop, G, P0, 3, lr=0.1, alpha=0.9, eps=0, centered=True)
    decayed = 0.9 ** np.arange(1, 4)
    steps = 0.1 / np.sqrt((1 - decayed) * decayed)
    np.testing.assert_allclose(path, P0 - np.cumsum(steps)[:, None] * np.sign(G), rtol=1e-12)
    assert "grad_avg" in optimizer.state[optimizer.param_groups[0]["params"][0]]


def test_rmsprop_momentum_accumulates_the_scaled_gradients():
    """b = μ b + g / √v, p -= lr b, with the buffer starting at zero."""
    path, _ = steps_with_gradient(optim.RMSprop, G, P0, 3, lr=0.1, alpha=0.9, eps=0, momentum=0.5)
    buffer, expected = 0.0, []
    for n in range(1, 4):
        buffer = 0.5 * buffer + 1 / np.sqrt(1 - 0.9**n)
        expected.append(-0.1 * buffer * np.sign(G))
    np.testing.assert_allclose(path, P0 + np.cumsum(expected, axis=0), rtol=1e-12)


def test_rmsprop_weight_decay_and_maximize_change_the_gradient_it_sees():
    """One step: g' = -g + wd p (maximize flips g first), and the step is lr g' / √((1 - α) g'²)."""
    path, _ = steps_with_gradient(optim.RMSprop, G, P0, 1, lr=0.1, alpha=0.9, eps=0, weight_decay=0.25, maximize=True)
    seen = -G + 0.25 * P0
    np.testing.assert_allclose(path[0], P0 - 0.1 * seen / np.sqrt(0.1 * seen * seen), rtol=1e-12)


def test_adamw_shrinks_the_parameter_then_takes_the_adam_step():
    """With g constant, m̂ = g and v̂ = g², so each step is p ← p (1 - lr wd) - lr sign(g) (eps aside)."""
    path, optimizer = steps_with_gradient(optim.AdamW, G, P0, 3, lr=0.1, weight_decay=0.5, eps=0)
    expected, p = [], P0
    for _ in range(3):
        p = p * (1 - 0.1 * 0.5) - 0.1 * np.sign(G)
        expected.append(p)
    np.testing.assert_allclose(path, expected, rtol=1e-12)
    assert optimizer.param_groups[0]["decoupled_weight_decay"] is True


def test_adamw_is_adam_with_decoupled_weight_decay():
    """AdamW's defaults: lr 1e-3 and weight decay 0.01, the decay kept out of the running means."""
    adamw, _ = steps_with_gradient(optim.AdamW, G, P0, 4)
    adam, _ = steps_with_gradient(optim.Adam, G, P0, 4, weight_decay=0.01, decoupled_weight_decay=True)
    coupled, _ = steps_with_gradient(optim.Adam, G, P0, 4, weight_decay=0.01)
    np.testing.assert_array_equal(adamw, adam)
    assert not np.allclose(adamw, coupled, rtol=0, atol=1e-9)


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
