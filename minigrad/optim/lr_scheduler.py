"""``torch.optim.lr_scheduler``: learning rates that change from one step to the next.

A scheduler writes each parameter group's ``lr`` when it is made (step 0) and at every
``scheduler.step()``. PyTorch computes the new rate from the group's current one (the
"chainable" form: StepLR multiplies by gamma at each boundary, CosineAnnealingLR by a
ratio of cosines), not from a closed formula in the step number, and the two differ in
the last bits of a float; we use the same formulas in the same order, so the rates are
PyTorch's floats exactly. ``step(epoch)``, deprecated, takes the closed form instead.

``state_dict()`` is every attribute but the optimizer, as in PyTorch, so the attribute
names (``base_lrs``, ``last_epoch``, ``_step_count``, ...) are PyTorch's too.
"""
import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from functools import wraps
from weakref import ref

from ..tensor import Tensor
from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
STEP_OVERRIDDEN = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
STEP_BEFORE_OPTIMIZER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
USE_GET_LAST_LR = "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."


def _copy(value):
    """A rate that may be a tensor is copied, so that no two groups or lists share it."""
    return value.clone() if isinstance(value, Tensor) else value


def _group_values(optimizer, key):
    """``group[key]`` of every group, copied (a KeyError if a group lacks it)."""
    return [_copy(group[key]) for group in optimizer.param_groups]


def _set_group_value(group, key, value):
    """Write a rate into a group: a tensor rate is filled in place, so whoever holds it sees the change."""
    if isinstance(group[key], Tensor):
        group[key].fill_(value.item() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


def _per_group(name, optimizer, value):
    """One value per group: a list or tuple must have one for each, a single value is repeated."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {len(optimizer.param_groups)}."
            )
    else:
        value = [value] * len(optimizer.param_groups)
    return [_copy(v) for v in value]


def _mark_optimizer_steps(scheduler, optimizer):
    """Wrap this optimizer's ``step`` (once) so that it records being called.

    The first ``scheduler.step()`` after the one made at construction warns when the
    optimizer has not stepped yet: the schedule's first rate would never be used. The
    wrapper holds the optimizer weakly, as PyTorch's does, so it keeps nothing alive.
    """
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    optimizer_ref = ref(optimizer)
    function = optimizer.step.__func__

    @wraps(function)
    def step(*args, **kwargs):
        owner = optimizer_ref()
        owner._opt_called = True
        return function.__get__(owner, type(owner))(*args, **kwargs)

    step._wrapped_by_lr_sched = True
    optimizer.step = step


class LRScheduler:
    """The base of every schedule: subclasses say how the next rates come from the current ones (``get_lr``)."""

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _copy(group["lr"]))
        else:
            _require_initial_lr(optimizer)
        self.base_lrs = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _mark_optimizer_steps(self, optimizer)
        self._initial_step()

    def _initial_step(self):
        """Step 0: set the rates the first optimizer step will use."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self):
        """Every attribute but the optimizer (which ``load_state_dict``'s scheduler already has)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        """The rates of the last step, one per group (copies: changing them changes no group)."""
        return self._last_lr

    def get_lr(self):
        """The next rates, one per group: what each schedule defines."""
        raise NotImplementedError

    def step(self, epoch=None):
        """Move to the next step and write its rates into the optimizer's groups. Call it after ``optimizer.step()``."""
        if self._step_count == 1:
            self._warn_if_optimizer_has_not_stepped()
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _warn_if_optimizer_has_not_stepped(self):
        if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
            warnings.warn(STEP_OVERRIDDEN, UserWarning, stacklevel=3)
        elif not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(STEP_BEFORE_OPTIMIZER, UserWarning, stacklevel=3)

    def _update_lr(self, epoch=None):
        """Compute the rates of step ``last_epoch + 1`` (or of ``epoch``, by the closed form) and write them."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_group_value(group, "lr", lr)
        self._last_lr = _group_values(self.optimizer, "lr")

    def _warn_outside_step(self):
        """``get_lr()`` is the next step's computation: a user who wants the current rates is pointed elsewhere."""
        if not self._get_lr_called_within_step:
            warnings.warn(USE_GET_LAST_LR, UserWarning, stacklevel=2)

    def _current(self):
        return _group_values(self.optimizer, "lr")


def _require_initial_lr(optimizer):
    """Resuming (``last_epoch`` >= 0) needs each group's ``initial_lr``, which a checkpoint's optimizer carries."""
    for i, group in enumerate(optimizer.param_groups):
        if "initial_lr" not in group:
            raise KeyError(
                f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                "last_epoch >= 0.\n"
                "This typically happens when:\n"
                "1. You're trying to resume training from a checkpoint but haven't properly loaded the optimizer "
                "state\n"
                "2. You're using last_epoch >= 0 for a fresh training run (not recommended)"
            )


class _LRScheduler(LRScheduler):
    """The old name, kept by PyTorch for code that subclasses it."""


def _lambdas(optimizer, lr_lambda):
    """One function per group: a list or tuple gives each its own, a single function is shared."""
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class _LambdaState:
    """``state_dict`` for schedules made of functions: a plain function is not saved (None), a callable
    object's attributes are."""

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = {key: value for key, value in state_dict.items() if key != "lr_lambdas"}
        self.__dict__.update(state)
        for fn, saved in zip(self.lr_lambdas, state_dict["lr_lambdas"]):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(_LambdaState, LRScheduler):
    """lr = initial lr × ``lr_lambda(step)``: any schedule written as a function (a warmup, say)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """lr ×= ``lr_lambda(step)`` at each step after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self._is_initial:
            return self._current()
        groups = self.optimizer.param_groups
        return [group["lr"] * fn(self.last_epoch) for fn, group in zip(self.lr_lambdas, groups, strict=True)]


class StepLR(LRScheduler):
    """lr ×= gamma every ``step_size`` steps."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr ×= gamma at each milestone (twice at a milestone given twice)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [group["lr"] * factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base_lr * self.gamma**passed for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr × ``factor`` for the first ``total_iters`` steps, then the initial lr."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return self._current()
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        factor = self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor)
        return [base_lr * factor for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """A warmup: the factor on the initial lr goes in a straight line from ``start_factor`` to
    ``end_factor`` over ``total_iters`` steps, then stays.

    Chainable, each step multiplies by the ratio of this step's factor to the last one's.
    """

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current()
        slope = self.end_factor - self.start_factor
        ratio = 1.0 + slope / (self.total_iters * self.start_factor + (self.last_epoch - 1) * slope)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        slope = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + slope * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr ×= gamma at every step."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        if self._is_initial:  # resuming from a checkpoint must not decay one step ahead
            return self._current()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr follows half a cosine from the initial lr down to ``eta_min`` over ``T_max`` steps, then back up.

    Chainable, each step multiplies lr - eta_min by (1 + cos(π t/T)) / (1 + cos(π (t-1)/T)); where
    that ratio would divide by zero (the bottom of the cosine), the step adds instead.
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_outside_step()
        groups, eta_min, t_max = self.optimizer.param_groups, self.eta_min, self.T_max
        if self._is_initial:
            return self._current()
        if self._step_count == 1 and self.last_epoch > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(self.last_epoch * math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        if (self.last_epoch - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        ratio = (1 + math.cos(math.pi * self.last_epoch / t_max)) / (1 + math.cos(math.pi * (self.last_epoch - 1)
                                                                                  / t_max))
        return [ratio * (group["lr"] - eta_min) + eta_min for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class SequentialLR(LRScheduler):
    """Several schedules one after another: ``schedulers[i]`` runs from ``milestones[i-1]`` on, restarted at 0."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        _check_sequence(self, optimizer, schedulers, milestones)
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # each scheduler made already stepped: start again
            _set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()
        first = self._schedulers[bisect_right(milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None):
        """Take back the step each inner scheduler made when it was built (in nested ones too)."""
        scheduler = self if sched is None else sched
        if hasattr(scheduler, "_schedulers"):
            for inner in scheduler._schedulers:
                self.recursive_undo(inner)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    def step(self):
        """Step the scheduler whose turn it is; at a milestone, start it from its step 0 (closed form)."""
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [scheduler.state_dict() for scheduler in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        self.__dict__.update({key: value for key, value in state_dict.items() if key != "_schedulers"})
        for scheduler, saved in zip(self._schedulers, state_dict["_schedulers"]):
            scheduler.load_state_dict(saved)


def _check_sequence(sequential, optimizer, schedulers, milestones):
    """SequentialLR's arguments, checked in PyTorch's order and with its messages."""
    name = type(sequential).__name__
    if len(schedulers) < 1:
        raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but "
                f"got scheduler {type(scheduler).__name__} at index {i} has {scheduler.optimizer}, "
                f"which is different from {type(optimizer).__name__}."
            )
    if len(milestones) != len(schedulers) - 1:
        raise ValueError(
            "Sequential Schedulers expects number of schedulers provided to be one more "
            f"than the number of milestone points, but got number of schedulers {len(schedulers)} and the "
            f"number of milestones to be equal to {len(milestones)}"
        )


def _annealing_cos(start, end, pct):
    """From ``start`` (pct 0) to ``end`` (pct 1) along half a cosine."""
    return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)


def _annealing_linear(start, end, pct):
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr rises from max_lr/div_factor to max_lr over the first ``pct_start`` of the
    steps, then falls far below where it started; momentum (or Adam's beta1) moves the opposite way.

    Each step is computed from the step number and the group's ``initial_lr``, ``max_lr`` and
    ``min_lr`` (which the constructor writes into the groups), not chained.
    """

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85, max_momentum=0.95,
                 div_factor=25.0, final_div_factor=1e4, three_phase=False, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(pct_start, self.total_steps, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        if last_epoch == -1:
            for max_lr_of_group, group in zip(_per_group("max_lr", optimizer, max_lr), optimizer.param_groups):
                group["initial_lr"] = max_lr_of_group / div_factor
                group["max_lr"] = max_lr_of_group
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._set_up_momentum(max_momentum, base_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _set_up_momentum(self, max_momentum, base_momentum, last_epoch):
        """Momentum cycles too: SGD's ``momentum``, or the first of Adam's ``betas``."""
        optimizer = self.optimizer
        if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
            raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
        self.use_beta1 = "betas" in optimizer.defaults
        maxima = _per_group("max_momentum", optimizer, max_momentum)
        bases = _per_group("base_momentum", optimizer, base_momentum)
        if last_epoch == -1:
            for maximum, base, group in zip(maxima, bases, optimizer.param_groups, strict=True):
                self._set_momentum(group, maximum)
                group["max_momentum"] = maximum
                group["base_momentum"] = base

    def _set_momentum(self, group, value):
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal_func(self, start, end, pct):
        return (_annealing_cos if self._anneal_func_type == "cos" else _annealing_linear)(start, end, pct)

    def get_lr(self):
        self._warn_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            phase, pct = self._phase_at(step)
            lrs.append(self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                momentum = self._anneal_func(group[phase["start_momentum"]], group[phase["end_momentum"]], pct)
                self._set_momentum(group, momentum)
        return lrs

    def _phase_at(self, step):
        """The phase that ``step`` falls in, and how far through it (0 to 1); the last phase takes any step after."""
        start = 0.0
        for i, phase in enumerate(self._schedule_phases):
            end = phase["end_step"]
            if step <= end or i == len(self._schedule_phases) - 1:
                return phase, (step - start) / (end - start)
            start = end


def _total_steps(total_steps, epochs, steps_per_epoch):
    """``total_steps``, or ``epochs`` × ``steps_per_epoch``, each checked as PyTorch checks it."""
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
    return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
            "start_momentum": start_momentum, "end_momentum": end_momentum}


def _phases(pct_start, total_steps, three_phase):
    """OneCycleLR's phases: up then down, or (``three_phase``) up, back down to the start, then down to min_lr."""
    up = _phase(float(pct_start * total_steps) - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum")
    if not three_phase:
        return [up, _phase(total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
    return [
        up,
        _phase(float(2 * pct_start * total_steps) - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
        _phase(total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
    ]


__all__ = [
    "ConstantLR", "CosineAnnealingLR", "ExponentialLR", "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR",
    "MultiplicativeLR", "OneCycleLR", "SequentialLR", "StepLR",
]
