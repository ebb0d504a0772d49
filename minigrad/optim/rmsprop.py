"""``torch.optim.RMSprop``: steps scaled by the root of a running mean of squared gradients."""
import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .optimizer import Optimizer


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
