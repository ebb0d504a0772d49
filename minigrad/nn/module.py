"""``nn.Module``: the container every network is built from (its parameters are ``parameter.py``'s).

A Module keeps its parameters, buffers and sub-modules in three dictionaries, filled
by plain attribute assignment (``self.fc = nn.Linear(3, 2)``): ``__setattr__`` sees
the type of the value and files it. Everything else (``parameters()``,
``state_dict()``, ``zero_grad()``, the printed tree) walks those dictionaries.
"""
import warnings
from collections import OrderedDict, namedtuple

import numpy as np

from .. import device as _device
from .. import dtypes, hooks
from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .backward_hooks import BackwardHook
from .parameter import Parameter

HOOK_TABLES = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks", "_forward_hooks_with_kwargs",
               "_forward_hooks_always_called", "_backward_pre_hooks", "_backward_hooks")
MIXED_BACKWARD_HOOKS = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. Please use only one of them."
)


class RemovableHandle(hooks.RemovableHandle):
    """The handle of a module hook: removing it also forgets the hook's flags (``with_kwargs``,
    ``always_call``), kept by id in other tables, as PyTorch's ``extra_dict`` does."""

    def __init__(self, table, flag_tables):
        super().__init__(table)
        self._flag_tables = flag_tables

    def remove(self):
        super().remove()
        for table in self._flag_tables:
            table.pop(self.id, None)


def _register(table, hook, prepend, flags):
    """Put ``hook`` in ``table`` (first with ``prepend``), noting its id in each flag table whose flag
    is set (``flags``: pairs of a table and a flag); return its handle."""
    handle = RemovableHandle(table, [flag_table for flag_table, _ in flags])
    table[handle.id] = hook
    for flag_table, flag in flags:
        if flag:
            flag_table[handle.id] = True
    if prepend:
        table.move_to_end(handle.id, last=False)
    return handle


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def typename(value):
    """``torch.typename``: ``torch.FloatTensor`` for a tensor, else the class's dotted name."""
    if isinstance(value, Tensor):
        return value.type()
    cls = type(value)
    module = "" if cls.__module__ in ("builtins", None) else cls.__module__ + "."
    return module + cls.__qualname__


class Module:
    """The base class of every layer and network; subclasses define ``forward``."""

    def __init__(self):
        # object.__setattr__: our own __setattr__ needs these dictionaries to exist.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        for table in HOOK_TABLES:  # PyTorch's attributes, empty (the hooks are looked at only once registered)
            object.__setattr__(self, table, OrderedDict())
        object.__setattr__(self, "_is_full_backward_hook", None)

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    _has_hooks = False  # until a hook is registered: then ``__call__`` takes the hooked path

    def __call__(self, *args, **kwargs):
        """``model(x)`` runs ``model.forward(x)``; with hooks registered, ``_call_impl`` runs them around it.

        A module that never had a hook pays one attribute look-up (a class attribute) for them.
        """
        if self._has_hooks:
            return self._call_impl(*args, **kwargs)
        return self.forward(*args, **kwargs)

    def _call_impl(self, *args, **kwargs):
        """The call with hooks, in PyTorch's order: forward pre-hooks (which may replace the
        arguments), the wrap of the inputs for the backward hooks, ``forward``, forward hooks
        (which may replace the output), the wrap of the outputs. When ``forward`` or a hook
        raises, the forward hooks registered with ``always_call`` still run, then the error passes on."""
        result = None
        called = set()
        try:
            full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()
            backward_pre_hooks = list(self._backward_pre_hooks.values())
            for hook_id, hook in list(self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    replaced = hook(self, args, kwargs)
                    if replaced is not None:
                        if not (isinstance(replaced, tuple) and len(replaced) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {replaced}.")
                        args, kwargs = replaced
                else:
                    replaced = hook(self, args)
                    if replaced is not None:
                        args = replaced if isinstance(replaced, tuple) else (replaced,)
            bw_hook = None
            if full_backward_hooks or backward_pre_hooks:
                bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called.add(hook_id)
                result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
            if bw_hook is not None:
                if not isinstance(result, (Tensor, tuple)):
                    warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple "
                                  f"of Tensors but received {type(result)}", stacklevel=2)
                result = bw_hook.setup_output_hook(result)
            if non_full_backward_hooks:
                _register_non_full(self, non_full_backward_hooks, args, result)
            return result
        except Exception:
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id not in self._forward_hooks_always_called or hook_id in called:
                    continue
                try:
                    result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                except Exception as e:
                    warnings.warn("module forward hook with ``always_call=True`` raised an exception that was "
                                  f"silenced as another error was raised in forward: {e}", stacklevel=2)
            raise

    def _run_forward_hook(self, hook_id, hook, args, kwargs, result):
        """One forward hook's call (with the keyword arguments if it asked for them); the output it replaces, or
        ``result`` when it returns None."""
        if hook_id in self._forward_hooks_with_kwargs:
            replaced = hook(self, args, kwargs, result)
        else:
            replaced = hook(self, args, result)
        return result if replaced is None else replaced

    def _get_backward_hooks(self):
        """The backward hooks split into full ones and the older (non-full) kind; a module has one kind only."""
        if self._is_full_backward_hook is None:
            return [], []
        hooks = list(self._backward_hooks.values())
        return (hooks, []) if self._is_full_backward_hook else ([], hooks)

    # ------------------------------------------------------------ hooks

    def _hook_tables(self):
        """Mark the module as one with hooks (``__call__`` looks for them from now on). The tables are
        made here for a module without them (unpickled from before they existed)."""
        for table in HOOK_TABLES:
            if table not in self.__dict__:
                object.__setattr__(self, table, OrderedDict())
        if "_is_full_backward_hook" not in self.__dict__:
            object.__setattr__(self, "_is_full_backward_hook", None)
        object.__setattr__(self, "_has_hooks", True)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call ``hook(module, args)`` before each ``forward``; it may return new args (a tuple, or one
        value taken as a one-element tuple). With ``with_kwargs``, ``hook(module, args, kwargs)``
        returns None or ``(args, kwargs)``. ``prepend`` puts it before the hooks already there."""
        self._hook_tables()
        return _register(self._forward_pre_hooks, hook, prepend,
                         [(self._forward_pre_hooks_with_kwargs, with_kwargs)])

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Call ``hook(module, args, output)`` after each ``forward``; a returned value replaces the output.
        With ``with_kwargs``, ``hook(module, args, kwargs, output)``; with ``always_call``, it also
        runs when ``forward`` raises."""
        self._hook_tables()
        return _register(self._forward_hooks, hook, prepend,
                         [(self._forward_hooks_with_kwargs, with_kwargs),
                          (self._forward_hooks_always_called, always_call)])

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_output)`` when the gradients of the module's outputs are known,
        before those of its inputs are computed; a returned tuple replaces ``grad_output``."""
        self._hook_tables()
        return _register(self._backward_pre_hooks, hook, prepend, [])

    def register_full_backward_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_input, grad_output)`` once the gradients of the module's positional
        inputs are computed (None for the arguments that are not tensors); a returned tuple replaces
        ``grad_input``."""
        self._hook_tables()
        if self._is_full_backward_hook is False:
            raise RuntimeError(MIXED_BACKWARD_HOOKS)
        object.__setattr__(self, "_is_full_backward_hook", True)
        return _register(self._backward_hooks, hook, prepend, [])

    def register_backward_hook(self, hook):
        """The older backward hook, on the node that made the output (deprecated by PyTorch: it sees the
        gradients of that one node, which are the module's only when forward is a single operation)."""
        self._hook_tables()
        if self._is_full_backward_hook is True:
            raise RuntimeError(MIXED_BACKWARD_HOOKS)
        object.__setattr__(self, "_is_full_backward_hook", False)
        return _register(self._backward_hooks, hook, False, [])

    # ------------------------------------------------------------ registration

    def __setattr__(self, name, value):
        """File a Parameter under ``_parameters`` and a Module under ``_modules``; keep the rest."""
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, self._buffers, self._modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)"
                )
            params[name] = None
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, self._parameters, self._buffers)
            self._modules[name] = value
        elif name in self.__dict__.get("_modules", ()):
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' (torch.nn.Module or None expected)"
                )
            self._modules[name] = None
        elif name in self.__dict__.get("_buffers", ()):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, *tables):
        """Drop ``name`` from the other places it may be, before it is filed anew."""
        for table in (self.__dict__, *tables):
            table.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name):
        """Called only when normal lookup fails: look in the three dictionaries."""
        for table in ("_parameters", "_buffers", "_modules"):
            values = self.__dict__.get(table)
            if values is not None and name in values:
                return values[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        """Attribute names, registered ones included, so tab completion offers ``model.fc``."""
        registered = [*self._parameters, *self._buffers, *self._modules]
        return sorted(set(super().__dir__()) | {name for name in registered if not name[0].isdigit()})

    def register_parameter(self, name, param):
        """Add ``param`` (a Parameter, or None for an absent one such as ``bias=False``)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)"
            )
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that belongs to the module's state but is not trained (e.g. running means).

        A persistent buffer is saved in ``state_dict``; a non-persistent one is not.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module under ``name`` (what ``self.name = module`` does)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    register_module = add_module

    # ------------------------------------------------------------ walking the tree

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """This module and every module below it, each once, with dotted names ("0", "encoder.fc")."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """The direct sub-modules, each once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, table, prefix, recurse, remove_duplicate):
        """(name, tensor) for the entries of one dictionary (``_parameters`` or ``_buffers``).

        A tensor shared by two modules (tied weights) is listed once unless asked otherwise.
        """
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        seen = set()
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                seen.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every trainable tensor of this module and its sub-modules: what an optimizer takes."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn):
        """Call ``fn`` on every sub-module, then on this one (e.g. to initialise weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ saving and loading

    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer, keyed ``"0.weight"``, ...

        The values share memory with the module's but are detached from the graph
        (unless ``keep_vars``), so saving them records nothing.
        """
        if destination is None:
            destination = OrderedDict()
        for name, value in self._own_state():
            destination[prefix + name] = value if keep_vars else value.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _own_state(self):
        """This module's own entries of a state_dict: its parameters, then its persistent buffers."""
        for name, param in self._parameters.items():
            if param is not None:
                yield name, param
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                yield name, buffer

    def load_state_dict(self, state_dict, strict=True):
        """Copy values from ``state_dict`` into this module's tensors, in place.

        With ``strict``, every key must match; a shape mismatch is an error either way.
        """
        if not hasattr(state_dict, "keys"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own = OrderedDict(self._all_state())
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = [message for key, target in own.items() if key in state_dict
                  for message in _copy_into(key, target, state_dict[key])]
        if strict:
            if unexpected:
                errors.insert(0, f"Unexpected key(s) in state_dict: {_quoted(unexpected)}. ")
            if missing:
                errors.insert(0, f"Missing key(s) in state_dict: {_quoted(missing)}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _all_state(self, prefix=""):
        """(key, tensor) for every entry this module's state_dict has, without detaching."""
        for name, value in self._own_state():
            yield prefix + name, value
        for name, module in self._modules.items():
            if module is not None:
                yield from module._all_state(prefix + name + ".")

    # ------------------------------------------------------------ modes and gradients

    def train(self, mode=True):
        """Training mode (the default) or, with False, evaluation mode: Dropout obeys it."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Freeze (False) or unfreeze every parameter."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget the accumulated gradients before the next backward (see ``zero_grads``)."""
        zero_grads(self.parameters(), set_to_none)

    # ------------------------------------------------------------ dtype and device

    def _apply(self, fn):
        """Replace the data of every parameter, gradient and buffer by ``fn`` of it, in place."""
        for module in self.modules():
            for param in module._parameters.values():
                if param is not None:
                    param.data = fn(param.data)
                    if param._grad is not None:
                        param._grad.data = fn(param._grad.data)
            for name, buffer in module._buffers.items():
                if buffer is not None:
                    module._buffers[name] = fn(buffer)
        return self

    def to(self, *args, **kwargs):
        """``model.to(torch.float64)`` converts floating-point tensors; ``model.to(device)`` moves every
        tensor (the CPU, or "meta": the same shapes and dtypes without data, a model's bare structure)."""
        dtype = kwargs.get("dtype", next((arg for arg in args if isinstance(arg, dtypes.dtype)), None))
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
            )
        where = kwargs.get("device", next((arg for arg in args if isinstance(arg, (str, _device.device))), None))
        return self._apply(lambda t: t.to(*args, **kwargs) if t.is_floating_point() else t.to(where))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def cpu(self):
        return self

    # ------------------------------------------------------------ printing

    def extra_repr(self):
        """The text inside the parentheses of this module's line, e.g. ``in_features=3, ...``."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        """One line for a leaf module; a leaf per line, indented, for a container."""
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_indent(repr(module), 2)}" for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _register_non_full(module, backward_hooks, args, result):
    """The older backward hooks: post-hooks of the node that made the first output tensor, called
    ``hook(module, grad_input, grad_output)`` with that node's gradients (PyTorch warns when those
    are not the module's)."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in backward_hooks:
        grad_fn.register_hook(_WrappedHook(hook, module))
    _warn_non_full(args, result, grad_fn)


class _WrappedHook:
    """A module's older backward hook as a node post-hook: the module comes first."""

    def __init__(self, hook, module):
        self.hook, self.module = hook, module

    def __call__(self, grad_input, grad_output):
        return self.hook(self.module, grad_input, grad_output)


def _warn_non_full(inputs, result, grad_fn):
    """PyTorch's FutureWarnings for the older backward hooks, where they miss gradients."""
    message = None
    if isinstance(result, Tensor):
        result = (result,)
    if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        message = ("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of "
                   "Tensors is deprecated and will be removed in future versions. This hook will be missing some of "
                   "the grad_output. Please use register_full_backward_hook to get the documented behavior.")
    elif not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
        message = ("Using non-full backward hooks on a Module that does not take as input a single Tensor or a "
                   "tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                   "missing some of the grad_input. Please use register_full_backward_hook to get the documented "
                   "behavior.")
    else:
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            message = ("Using a non-full backward hook when outputs are nested in python data structure is "
                       "deprecated and will be removed in future versions. This hook will be missing some "
                       "grad_output.")
        elif len(out_grad_fn) > 1:
            message = ("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                       "deprecated and will be removed in future versions. This hook will be missing some "
                       "grad_output. Please use register_full_backward_hook to get the documented behavior.")
        elif {i.grad_fn for i in inputs if i.grad_fn is not None} != {n for n, _ in grad_fn.next_functions}:
            message = ("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                       "deprecated and will be removed in future versions. This hook will be missing some "
                       "grad_input. Please use register_full_backward_hook to get the documented behavior.")
    if message is not None:
        warnings.warn(message, FutureWarning, stacklevel=4)


def zero_grads(params, set_to_none):
    """Clear the ``.grad`` of each parameter: to None (PyTorch's default), or to zeros.

    None frees the memory and lets the next backward store its gradient fresh;
    zeros keep the same gradient tensor, detached from any graph, filled with 0.
    """
    for param in params:
        grad = param._grad
        if grad is None:
            continue
        if set_to_none:
            param._grad = None
        else:
            grad.grad_fn, grad._requires_grad = None, False
            grad._array = np.zeros_like(grad._array)  # not in place: the array may be a read-only broadcast
            grad._bump_version()


def _check_name(module, name, kind, table):
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"")
    if name == "":
        raise KeyError(f"{kind} name can't be empty string \"\"")
    if hasattr(module, name) and name not in table:
        raise KeyError(f"attribute '{name}' already exists")


def _copy_into(key, target, value):
    """Copy ``value`` into ``target`` in place, or return the error messages that prevent it."""
    if not isinstance(value, Tensor):
        return [f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object from '
                f"checkpoint but received {type(value)}"]
    if value.shape != target.shape:
        return [f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                f"the shape in current model is {target.shape}."]
    with no_grad():
        target.copy_(value)
    return []


def _quoted(keys):
    return ", ".join(f'"{key}"' for key in keys)


def _indent(text, spaces):
    """Indent every line but the first (PyTorch's ``_addindent``), leaving blank lines empty."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line if line.strip() else "" for line in rest])
