"""Full backward hooks of modules: how a hook sees the gradients at a module's boundary.

A module is many autograd nodes, none of which is "the module". PyTorch's answer
(``torch.utils.hooks.BackwardHook``), reproduced here: pass the module's tensor inputs,
and then its tensor outputs, through an identity autograd Function. Its node (printed
``BackwardHookFunctionBackward``) is where the gradients cross the boundary:

- the node of the *outputs* runs first in backward; its post-hook records the gradients
  of the outputs (``grad_output``), lets the backward pre-hooks replace them, and hands
  them on into the module;
- the node of the *inputs* runs once the module's own nodes are done; its post-hook sees
  the gradients of the inputs (``grad_input``) and calls the full backward hooks, which
  may replace them.

The outputs of such a module are views made by a custom Function, so changing them in
place is refused (``ops.inplace_history``), as PyTorch refuses it.
"""
import os
import sys
import warnings

from ..autograd import grad_mode
from ..autograd.function import Function
from ..tensor import Tensor

NO_INPUT_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs since no inputs "
    "require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
    "#torch.nn.Module.register_full_backward_hook for more details."
)
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BackwardHookFunction(Function):
    """The identity, recorded: its node marks the module's boundary in the graph.

    Tensors that need no gradient are marked non-differentiable, so wrapping them does
    not make them require one."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """The backward hooks of one call of a module: made by ``Module.__call__`` for each call,
    it wraps the inputs (``setup_input_hook``) and the outputs (``setup_output_hook``) and
    carries ``grad_output`` from the outputs' node to the inputs' node."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_outputs = self.n_inputs = -1
        self.output_tensors_index = self.input_tensors_index = None

    def setup_input_hook(self, args):
        """The inputs, their tensors wrapped; the node of the wrap calls the full backward hooks."""
        result, self.input_tensors_index = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        return result

    def setup_output_hook(self, result):
        """The outputs (a tensor or a tuple), their tensors wrapped; the node of the wrap
        records ``grad_output`` and calls the backward pre-hooks."""
        is_tuple = isinstance(result, tuple)
        outputs = result if is_tuple else (result,)
        wrapped, self.output_tensors_index = self._apply_on_tensors(self._set_output_hook, outputs)
        self.n_outputs = len(outputs)
        return wrapped if is_tuple else wrapped[0]

    def _apply_on_tensors(self, set_hook, args):
        """``args`` with their tensors passed through ``BackwardHookFunction`` (and the positions
        of the tensors), when one of them requires grad and grad mode is on; else unchanged."""
        positions = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in positions]
        if not (grad_mode._enabled and any(t.requires_grad for t in tensors)):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        node = next(t.grad_fn for t in new_tensors if type(t.grad_fn) is BackwardHookFunction._backward_cls)
        # Its own count of outputs: a custom Function's node class keeps the largest count seen, and the
        # engine would hand this node a gradient for outputs of other calls.
        node._num_outputs = len(new_tensors)
        set_hook(node)
        arg_list = list(args)
        for i, tensor in zip(positions, new_tensors):
            arg_list[i] = tensor
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), positions

    def _set_output_hook(self, node):
        def hook(_, grad_output):
            self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
            expected = len(self.grad_outputs)
            for user_pre_hook in self.user_pre_hooks:
                replaced = user_pre_hook(self.module, self.grad_outputs)
                if replaced is None:
                    continue
                if len(replaced) != expected:
                    raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                       f"got {len(replaced)}, but expected {expected}")
                self.grad_outputs = replaced
            grad_outputs = self.grad_outputs
            if self.input_tensors_index is None:  # no input needs a gradient: the hooks are called here
                warnings.warn(NO_INPUT_GRAD, stacklevel=_outside_package())
                grad_inputs = (None,) * self.n_inputs
                for user_hook in self.user_hooks:
                    res = user_hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple) and all(g is None for g in res)):
                        raise RuntimeError("Backward hook for Modules where no input requires "
                                           "gradient should always return None or None for all gradients.")
                self.grad_outputs = None
            return tuple(grad_outputs[i] for i in self.output_tensors_index)

        node.register_hook(hook)

    def _set_user_hook(self, node):
        def hook(grad_input, _):
            if self.grad_outputs is None:
                # The gradient reached the inputs without passing through the outputs (a double backward).
                return None
            res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)

        node.register_hook(hook)


def _pack_with_none(indices, values, size):
    """``values`` placed at ``indices`` of a tuple of ``size``, None elsewhere (the non-tensors)."""
    packed = [None] * size
    for i, value in zip(indices, values):
        packed[i] = value
    return tuple(packed)


def _outside_package():
    """The stacklevel of the first caller outside minigrad: where the user called ``backward``
    (PyTorch's warning, raised from its engine, points there too)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE):
        frame, level = frame.f_back, level + 1
    return level
