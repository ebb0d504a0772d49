"""``torch.optim.SGD``: stochastic gradient descent, with momentum, Nesterov momentum and weight decay."""
import numpy as np

from ..tensor import Tensor
from .optimizer import Optimizer


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
