"""``optim.lr_scheduler``, AdamW with nanoGPT's parameter groups, and ``nn.init``'s orthogonal_ and
trunc_normal_, each against PyTorch: the learning rates step by step as PyTorch's floats, the weights
after the same seed."""
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="optimizers and fillers need a working autograd")


def array(tensor):
    return tensor.detach().numpy()


def two_groups(lib, optimizer="SGD"):
    """An optimizer with two groups of different learning rates (SGD with momentum, or Adam)."""
    w, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(1))
    options = {"momentum": 0.9} if optimizer == "SGD" else {}
    return getattr(lib.optim, optimizer)([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1, **options)


SCHEDULES = {
    "StepLR": lambda s, o: s.StepLR(o, step_size=7, gamma=0.3),
    "MultiStepLR": lambda s, o: s.MultiStepLR(o, milestones=[3, 8, 8, 20], gamma=0.7),
    "ExponentialLR": lambda s, o: s.ExponentialLR(o, gamma=0.93),
    "LambdaLR": lambda s, o: s.LambdaLR(o, lambda step: min(1.0, (step + 1) / 10)),
    "LambdaLR per group": lambda s, o: s.LambdaLR(o, [lambda step: 0.9**step, lambda step: 1 / (step + 1)]),
    "MultiplicativeLR": lambda s, o: s.MultiplicativeLR(o, lambda step: 0.95),
    "ConstantLR": lambda s, o: s.ConstantLR(o, factor=0.3, total_iters=4),
    "LinearLR": lambda s, o: s.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=10),
    "LinearLR down": lambda s, o: s.LinearLR(o, start_factor=1.0, end_factor=0.05, total_iters=25),
    "CosineAnnealingLR": lambda s, o: s.CosineAnnealingLR(o, T_max=10, eta_min=0.001),
    "CosineAnnealingLR long": lambda s, o: s.CosineAnnealingLR(o, T_max=30),
    "OneCycleLR": lambda s, o: s.OneCycleLR(o, max_lr=[1.0, 0.3], total_steps=31),
    "OneCycleLR three phases": lambda s, o: s.OneCycleLR(o, 1.0, epochs=1, steps_per_epoch=31, three_phase=True,
                                                         anneal_strategy="linear"),
    "SequentialLR warmup then cosine": lambda s, o: s.SequentialLR(
        o, [s.LinearLR(o, 0.1, 1.0, 5), s.CosineAnnealingLR(o, 25)], milestones=[5]),
    "SequentialLR three": lambda s, o: s.SequentialLR(
        o, [s.ConstantLR(o, 0.5, 3), s.ExponentialLR(o, 0.9), s.StepLR(o, 4)], milestones=[4, 12]),
}


def schedule(lib, make, optimizer="SGD", steps=30):
    """The rates (and momentum or betas) before the first step and after each of ``steps`` steps."""
    opt = two_groups(lib, optimizer)
    scheduler = make(lib.optim.lr_scheduler, opt)
    rates = [scheduler.get_last_lr()]
    for _ in range(steps):
        opt.step()
        scheduler.step()
        group = opt.param_groups[0]
        rates.append(scheduler.get_last_lr() + [group["lr"], group.get("momentum", group.get("betas"))])
    return rates, scheduler


@pytest.mark.parametrize("case", SCHEDULES)
def test_rates_are_pytorchs_floats_step_by_step(torch, case):
    rates, scheduler = schedule(minigrad, SCHEDULES[case])
    t_rates, t_scheduler = schedule(torch, SCHEDULES[case])
    assert rates == t_rates  # exactly: the chainable formulas, in PyTorch's order
    assert scheduler.last_epoch == t_scheduler.last_epoch
    assert sorted(scheduler.state_dict()) == sorted(t_scheduler.state_dict())


def test_one_cycle_cycles_adams_beta1(torch):
    make = SCHEDULES["OneCycleLR"]
    assert schedule(minigrad, make, "Adam")[0] == schedule(torch, make, "Adam")[0]


def test_one_cycle_refuses_a_step_past_its_end(torch):
    messages = []
    for lib in (minigrad, torch):
        opt = two_groups(lib)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, 1.0, total_steps=2)
        opt.step()
        scheduler.step()
        scheduler.step()
        with pytest.raises(ValueError) as error:
            scheduler.step()
        messages.append(str(error.value))
    assert messages[0] == messages[1] == "Tried to step 3 times. The specified number of total steps is 2"


@pytest.mark.parametrize("case", ["StepLR", "CosineAnnealingLR", "LambdaLR", "SequentialLR warmup then cosine"])
def test_state_dict_resumes_the_schedule(case):
    """A scheduler loaded from another's state_dict continues with the same rates."""
    make = SCHEDULES[case]
    opt = two_groups(minigrad)
    first = make(minigrad.optim.lr_scheduler, opt)
    for _ in range(7):
        opt.step()
        first.step()
    state = first.state_dict()
    assert "optimizer" not in state
    other_opt = two_groups(minigrad)
    second = make(minigrad.optim.lr_scheduler, other_opt)
    second.load_state_dict(state)
    other_opt.load_state_dict(opt.state_dict())
    for _ in range(10):
        for o, s in ((opt, first), (other_opt, second)):
            o.step()
            s.step()
        assert first.get_last_lr() == second.get_last_lr()
        assert [g["lr"] for g in opt.param_groups] == [g["lr"] for g in other_opt.param_groups]


def warnings_of(lib, calls):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calls(lib)
    return [str(w.message) for w in caught]


def test_warnings_are_pytorchs(torch):
    def misuse(lib):
        opt = two_groups(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, 2)
        scheduler.step()  # before optimizer.step()
        scheduler.get_lr()  # the next rates, not the current ones
        scheduler.step(3)  # the deprecated epoch argument

    mine, theirs = warnings_of(minigrad, misuse), warnings_of(torch, misuse)
    assert mine == theirs and len(mine) == 3
    assert mine[0].startswith("Detected call of `lr_scheduler.step()` before `optimizer.step()`.")


def test_no_warning_in_the_right_order(torch):
    def proper(lib):
        opt = two_groups(lib)
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, 0.5)
        for _ in range(3):
            opt.step()
            scheduler.step()

    assert warnings_of(minigrad, proper) == warnings_of(torch, proper) == []


def errors_of(lib, make):
    try:
        make(lib)
    except Exception as error:  # noqa: BLE001 - the type and text are compared
        return type(error).__name__, str(error)
    return None


ERRORS = {
    "not an optimizer": lambda lib: lib.optim.lr_scheduler.StepLR([1], 2),
    "resuming without initial_lr": lambda lib: lib.optim.lr_scheduler.StepLR(two_groups(lib), 2, last_epoch=3),
    "LinearLR start": lambda lib: lib.optim.lr_scheduler.LinearLR(two_groups(lib), start_factor=0),
    "LinearLR end": lambda lib: lib.optim.lr_scheduler.LinearLR(two_groups(lib), end_factor=2),
    "lambdas per group": lambda lib: lib.optim.lr_scheduler.LambdaLR(two_groups(lib), [lambda e: 1.0]),
    "SequentialLR milestones": lambda lib: lib.optim.lr_scheduler.SequentialLR(
        (o := two_groups(lib)), [lib.optim.lr_scheduler.StepLR(o, 2)], milestones=[3]),
    "OneCycleLR steps": lambda lib: lib.optim.lr_scheduler.OneCycleLR(two_groups(lib), 1.0),
    "OneCycleLR max_lr list": lambda lib: lib.optim.lr_scheduler.OneCycleLR(two_groups(lib), [1.0], total_steps=3),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_are_pytorchs(torch, case):
    assert errors_of(minigrad, ERRORS[case]) == errors_of(torch, ERRORS[case]) is not None


def test_import_paths_of_torch_optim():
    from minigrad.optim import SGD, Adam, AdamW, Optimizer, RMSprop  # noqa: F401
    from minigrad.optim.lr_scheduler import LRScheduler, StepLR

    assert issubclass(StepLR, LRScheduler) and issubclass(AdamW, Optimizer)
    assert minigrad.optim.lr_scheduler.CosineAnnealingLR.__name__ == "CosineAnnealingLR"


def nanogpt_adamw(lib, params):
    """nanoGPT's configure_optimizers: matrices decay, biases and gains don't."""
    params = [p for p in params if p.requires_grad]
    groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
    return lib.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.95))


def test_adamw_with_decay_and_no_decay_groups_steps_as_pytorchs_on_pytorchs_gradients(torch):
    """Given the same gradients, five steps give PyTorch's parameters bit for bit."""
    rng = np.random.RandomState(0)
    start = [rng.randn(8, 6).astype(np.float32), rng.randn(8).astype(np.float32)]
    grads = [[rng.randn(*a.shape).astype(np.float32) for a in start] for _ in range(5)]
    results = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.tensor(a)) for a in start]
        opt = nanogpt_adamw(lib, params)
        for step in grads:
            for p, g in zip(params, step):
                p.grad = lib.tensor(g)
            opt.step()
        results.append(([array(p).copy() for p in params], repr(opt)))
    (mine, text), (theirs, t_text) = results
    assert all(np.array_equal(a, b) for a, b in zip(mine, theirs))
    assert text == t_text


def test_adamw_with_nanogpt_groups_trains_as_pytorch(torch):
    """A small network, five steps: the gradients differ from PyTorch's by float32 rounding only."""
    x = np.random.RandomState(0).randn(10, 6).astype(np.float32)
    y = np.random.RandomState(1).randn(10, 3).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(6, 8), lib.nn.Tanh(), lib.nn.Linear(8, 3))
        opt = nanogpt_adamw(lib, net.parameters())
        for _ in range(5):
            opt.zero_grad()
            lib.nn.functional.mse_loss(net(lib.tensor(x)), lib.tensor(y)).backward()
            opt.step()
        results.append([array(p).copy() for p in net.parameters()])
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


FILLERS = {
    "orthogonal tall": ((5, 3), lambda lib, t: lib.nn.init.orthogonal_(t)),
    "orthogonal wide, gain": ((3, 5), lambda lib, t: lib.nn.init.orthogonal_(t, gain=2.0)),
    "orthogonal 3-d": ((4, 2, 3), lambda lib, t: lib.nn.init.orthogonal_(t)),
    "orthogonal square": ((64, 64), lambda lib, t: lib.nn.init.orthogonal_(t, 1.4)),
    "trunc_normal_ defaults": ((50, 40), lambda lib, t: lib.nn.init.trunc_normal_(t)),
    "trunc_normal_ small tensor": ((7, 2), lambda lib, t: lib.nn.init.trunc_normal_(t, std=0.02)),
    "trunc_normal_ timm's": ((33, 17), lambda lib, t: lib.nn.init.trunc_normal_(t, 0.0, 0.02, -0.04, 0.04)),
    "trunc_normal_ narrow": ((30, 20), lambda lib, t: lib.nn.init.trunc_normal_(t, 0.0, 1.0, -0.5, 0.5)),
    "trunc_normal_ narrow, scalar path": ((3, 4), lambda lib, t: lib.nn.init.trunc_normal_(t, 0.0, 1.0, -0.2, 0.2)),
    "trunc_normal_ tail": ((100,), lambda lib, t: lib.nn.init.trunc_normal_(t, 0.0, 1.0, 1.0, 3.0)),
    "normal_": ((6, 5), lambda lib, t: lib.nn.init.normal_(t, 1.0, 0.5)),
    "xavier_normal_": ((6, 5), lambda lib, t: lib.nn.init.xavier_normal_(t)),
    "kaiming_uniform_": ((6, 5), lambda lib, t: lib.nn.init.kaiming_uniform_(t, nonlinearity="relu")),
}


def filled(lib, shape, fill, seed=0):
    """The filled parameter, the function's result being it, and the generator's next numbers."""
    lib.manual_seed(seed)
    weight = lib.nn.Parameter(lib.empty(*shape))
    result = fill(lib, weight)
    return array(weight).copy(), result is weight, array(lib.rand(3)), weight.requires_grad, weight.grad_fn


@pytest.mark.parametrize("case", FILLERS)
def test_fillers_give_pytorchs_values_after_the_same_seed(torch, case):
    shape, fill = FILLERS[case]
    values, same, after, requires_grad, grad_fn = filled(minigrad, shape, fill)
    t_values, t_same, t_after, t_requires_grad, t_grad_fn = filled(torch, shape, fill)
    if case.startswith("orthogonal"):  # numpy's QR works in float64, LAPACK's sgeqrf in float32
        np.testing.assert_allclose(values, t_values, rtol=0, atol=1e-5)
    else:
        assert np.array_equal(values, t_values)
    assert np.array_equal(after, t_after)  # the same random numbers were used up
    assert same and t_same and requires_grad and t_requires_grad and grad_fn is None and t_grad_fn is None


def test_orthogonal_rows_are_orthonormal():
    minigrad.manual_seed(3)
    weight = array(minigrad.nn.init.orthogonal_(minigrad.empty(4, 9), gain=3.0))
    np.testing.assert_allclose(weight @ weight.T, 9.0 * np.eye(4), atol=1e-5)


def test_filler_errors_and_warnings_are_pytorchs(torch):
    def one_d(lib):
        return lib.nn.init.orthogonal_(lib.empty(3))

    assert errors_of(minigrad, one_d) == errors_of(torch, one_d) == (
        "ValueError", "Only tensors with 2 or more dimensions are supported")

    def far_mean(lib):
        lib.nn.init.trunc_normal_(lib.empty(3), mean=5.0)

    assert warnings_of(minigrad, far_mean) == warnings_of(torch, far_mean) == [
        "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be incorrect."]
