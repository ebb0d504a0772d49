"""``torch.optim``: optimizers that update parameters from their gradients.

``optimizer.step()`` changes each parameter in place, with the same formulas and in
the same order as PyTorch's single-tensor code (``torch/optim/sgd.py``,
``torch/optim/adam.py``, ``torch/optim/rmsprop.py``), so results agree to float32
rounding. Each update bumps the parameter's version counter, as PyTorch's in-place
``add_`` does: a graph that saved the old value will refuse to run backward with the
new one.

Options such as ``foreach``, ``fused`` or ``differentiable`` choose between PyTorch's
kernels, which compute the same numbers; minigrad has one kernel and keeps those
options only so that ``param_groups`` and printing match PyTorch's.
"""
import warnings
from collections import defaultdict

import numpy as np

from . import dtypes
from .autograd.grad_mode import enable_grad
from .nn.module import typename, zero_grads
from .tensor import Tensor


class Optimizer:
    """Holds the parameters in groups (each with its own options) and per-parameter state."""

    def __init__(self, params, defaults):
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                + typename(params)
            )
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (missing ones come from the defaults)."""
        params = param_group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + typename(param))
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = {"params": params, **{k: v for k, v in param_group.items() if k != "params"}}
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        if len(set(params)) != len(params):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this will cause an "
                "error; see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )
        for other in self.param_groups:
            if not set(other["params"]).isdisjoint(params):
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        """Clear every parameter's gradient before the next backward (to None by default)."""
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient.

        ``closure``, if given, recomputes the loss (with gradients) and is returned.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param._grad is not None:
                    self._update(param, param._grad._array, group)
                    param._bump_version()
        return loss

    def _update(self, param, grad, group):
        """Change ``param._array`` in place, from its gradient array ``grad`` and the group's options."""
        raise NotImplementedError

    def state_dict(self):
        """The state and options, with each parameter replaced by its position (0, 1, ...)."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {index[id(param)]: values for param, values in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Take state and options from ``state_dict``, matching parameters by position."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )
        by_index = {i: p for g, s in zip(self.param_groups, saved_groups) for i, p in zip(s["params"], g["params"])}
        self.state = defaultdict(dict, {by_index[i]: dict(values) for i, values in state_dict["state"].items()})
        for group, saved in zip(self.param_groups, saved_groups):
            group.update({k: v for k, v in saved.items() if k != "params"})

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params")
        return text + ")"


class SGD(Optimizer):
    """Stochastic gradient descent: p -= lr * g, optionally with momentum and weight decay.

    With momentum, g is replaced by a running buffer b = momentum * b + (1 - dampening) * g
    (the first b is g itself); Nesterov momentum uses g + momentum * b instead.
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def _update(self, param, grad, group):
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad + group["weight_decay"] * param._array
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = Tensor._wrap(np.array(grad))  # a copy: .grad changes in place
            else:
                buffer._array *= momentum
                buffer._array += (1 - group["dampening"]) * grad
            grad = grad + momentum * buffer._array if group["nesterov"] else buffer._array
        param._array -= group["lr"] * grad


class Adam(Optimizer):
    """Adam: a step along the running mean of gradients m, scaled per element by 1/√(running mean of g²).

    m = β1 m + (1 - β1) g and v = β2 v + (1 - β2) g², both corrected for starting at 0,
    then p -= lr * m̂ / (√v̂ + eps). With ``amsgrad``, v̂ never decreases.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _init_state(self, param, amsgrad):
        """step (a 0-d tensor, as in PyTorch), and zero running means shaped like the parameter."""
        state = self.state[param]
        state["step"] = Tensor._wrap(np.zeros((), dtypes.get_default_dtype().numpy))
        names = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq") if amsgrad else ("exp_avg", "exp_avg_sq")
        for name in names:
            state[name] = Tensor._wrap(np.zeros_like(param._array))
        return state

    def _update(self, param, grad, group):
        lr, (beta1, beta2), weight_decay = group["lr"], group["betas"], group["weight_decay"]
        state = self.state[param] or self._init_state(param, group["amsgrad"])
        if group["maximize"]:
            grad = -grad
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param._array *= 1 - lr * weight_decay
            else:
                grad = grad + weight_decay * param._array
        state["step"]._array += 1
        exp_avg, exp_avg_sq = state["exp_avg"]._array, state["exp_avg_sq"]._array
        exp_avg += (1 - beta1) * (grad - exp_avg)  # PyTorch's lerp_(grad, 1 - beta1)
        exp_avg_sq *= beta2
        exp_avg_sq += (1 - beta2) * grad * grad
        step = state["step"].item()
        step_size = lr / (1 - beta1**step)
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        if group["amsgrad"]:
            np.maximum(state["max_exp_avg_sq"]._array, exp_avg_sq, out=state["max_exp_avg_sq"]._array)
            exp_avg_sq = state["max_exp_avg_sq"]._array
        denom = np.sqrt(exp_avg_sq) / bias_correction2_sqrt + group["eps"]
        param._array -= step_size * exp_avg / denom


class AdamW(Adam):
    """Adam with decoupled weight decay: p *= 1 - lr * weight_decay before each step.

    Plain Adam adds weight_decay * p to the gradient, where the 1/√v̂ scaling then weakens
    the decay of parameters with large gradients; AdamW shrinks every parameter by the same
    factor instead. PyTorch makes it Adam with ``decoupled_weight_decay=True`` (shown in
    ``param_groups`` and in its printing), and a default decay of 0.01 rather than 0.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    """RMSprop: each element's step divided by √(running mean of g²), so steep and flat directions move alike.

    v = α v + (1 - α) g², then p -= lr * g / (√v + eps). With ``centered``, v minus the
    square of a running mean of g (an estimate of g's variance) replaces v; with
    ``momentum``, a buffer b = momentum * b + g / (√v + eps) (starting from 0) is the step.
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        for what, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if value < 0.0:
                raise ValueError(f"Invalid {what}: {value}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        """step, and zero buffers shaped like the parameter: only those the group's options use, as in PyTorch."""
        state = self.state[param]
        state["step"] = Tensor._wrap(np.zeros((), dtypes.get_default_dtype().numpy))
        state["square_avg"] = Tensor._wrap(np.zeros_like(param._array))
        if group["momentum"] > 0:
            state["momentum_buffer"] = Tensor._wrap(np.zeros_like(param._array))
        if group["centered"]:
            state["grad_avg"] = Tensor._wrap(np.zeros_like(param._array))
        return state

    def _update(self, param, grad, group):
        state = self.state[param] or self._init_state(param, group)
        if group["maximize"]:
            grad = -grad
        state["step"]._array += 1
        if group["weight_decay"] != 0:
            grad = grad + group["weight_decay"] * param._array
        avg = self._root_mean_square(state, grad, group)
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]._array
            buffer *= group["momentum"]
            buffer += grad / avg
            param._array -= group["lr"] * buffer
        else:
            param._array -= group["lr"] * (grad / avg)

    @staticmethod
    def _root_mean_square(state, grad, group):
        """√v + eps, the per-element divisor, after folding this gradient into the running means.

        Centered, v is the running mean of g² minus the square of the running mean of g.
        """
        alpha = group["alpha"]
        square_avg = state["square_avg"]._array
        square_avg *= alpha
        square_avg += (1 - alpha) * grad * grad
        if group["centered"]:
            grad_avg = state["grad_avg"]._array
            grad_avg += (1 - alpha) * (grad - grad_avg)  # PyTorch's lerp_(grad, 1 - alpha)
            avg = np.sqrt(square_avg - grad_avg * grad_avg)
        else:
            avg = np.sqrt(square_avg)
        avg += group["eps"]
        return avg


__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "RMSprop"]
