"""``torch.optim.Adam`` and ``AdamW``, as PyTorch's single-tensor code computes them (``torch/optim/adam.py``)."""
import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .optimizer import Optimizer


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
