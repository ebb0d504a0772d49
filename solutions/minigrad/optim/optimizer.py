"""``torch.optim.Optimizer``: the parameter groups, the per-parameter state, and one ``step``.

Each optimizer (``sgd.py``, ``adam.py``, ``rmsprop.py``) only says how one parameter
changes from its gradient (``_update``); the loop over groups, the version bump, the
closure and the ``state_dict`` are here, once.
"""
import warnings
from collections import defaultdict

from ..autograd.grad_mode import enable_grad
from ..autograd.saved_mutation import before_write
from ..nn.module import typename, zero_grads
from ..tensor import Tensor


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
                    before_write(param)  # allow_mutation_on_saved_tensors: clone what was saved of it
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
