"""``torch.optim``: optimizers that update parameters from their gradients, and schedules for their learning rates.

``optimizer.step()`` changes each parameter in place, with the same formulas and in
the same order as PyTorch's single-tensor code (``torch/optim/sgd.py``,
``torch/optim/adam.py``, ``torch/optim/rmsprop.py``), so results agree to float32
rounding. Each update bumps the parameter's version counter, as PyTorch's in-place
``add_`` does: a graph that saved the old value will refuse to run backward with the
new one.

Options such as ``foreach``, ``fused`` or ``differentiable`` choose between PyTorch's
kernels, which compute the same numbers; minigrad has one kernel and keeps those
options only so that ``param_groups`` and printing match PyTorch's.

``lr_scheduler`` changes each group's ``lr`` between steps, with PyTorch's formulas
(the chainable ones, so the floats agree step by step).
"""
from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
