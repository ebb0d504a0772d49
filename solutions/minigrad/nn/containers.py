"""``ModuleList``, ``ModuleDict``, ``ParameterList`` and ``ParameterDict``: Python containers that
register what they hold, so that ``parameters()``, ``state_dict()`` and the printed tree see it
(a plain list of layers is invisible to the module that keeps it).

A list registers its entries under the names "0", "1", ...; a dict under its keys.
"""
import operator
from collections import OrderedDict

from ..tensor import Tensor
from .module import Module, _indent
from .parameter import Parameter


def _checked_index(index, size):
    index = operator.index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


class ModuleList(Module):
    """A list of modules, registered as "0", "1", ...; it has no ``forward`` of its own."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_checked_index(index, len(self)))]

    def __setitem__(self, index, module):
        self.add_module(str(_checked_index(index, len(self))), module)

    def __delitem__(self, index):
        """Remove one module (or a slice of them); the rest are numbered again from 0."""
        modules = list(self._modules.values())
        if isinstance(index, slice):
            del modules[index]
        else:
            del modules[_checked_index(index, len(self))]
        self._modules.clear()
        self.extend(modules)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return type(self)([*self, *other])

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        self.extend(modules)

    def pop(self, index=-1):
        module = self[index]
        del self[index]
        return module

    def __repr__(self):
        """Runs of equal-looking modules are printed once, as PyTorch does: ``(0-2): 3 x ReLU()``."""
        if not self._modules:
            return self._get_name() + "()"
        runs = []  # [first index, last index, repr]
        for index, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        lines = [f"({first}): {_indent(text, 2)}" if first == last
                 else f"({first}-{last}): {last - first + 1} x {_indent(text, 2)}" for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """An ordered dict of modules, registered under their keys."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def update(self, modules):
        """Add (or replace) each (key, module) of a mapping or of an iterable of pairs."""
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module


def _as_parameter(value):
    """A tensor put into a parameter container becomes a Parameter, as in PyTorch."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _parameter_line(key, value, legacy_type):
    """One entry of a parameter container's printout: ``  (0): Parameter containing: [...]``.

    The two leading spaces are PyTorch's: with the module's own two, the entries stand four
    spaces in, and a container of one entry prints on one line, ``ParameterList(  (0): ...)``."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    kind = value.type() if legacy_type else str(value.dtype)
    size = "x".join(str(n) for n in value.shape)
    return f"  ({key}): Parameter containing: [{kind} of size {size}]"


class ParameterList(Module):
    """A list of parameters, registered as "0", "1", ... (a tensor given becomes a Parameter)."""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)([self[i] for i in range(len(self))[index]])
        return getattr(self, str(_checked_index(index, len(self))))

    def __setitem__(self, index, value):
        setattr(self, str(_checked_index(index, len(self))), _as_parameter(value))

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        object.__setattr__(self, "_size", self._size + 1)
        setattr(self, str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_parameter_line(i, value, False) for i, value in enumerate(self))



class ParameterDict(Module):
    """An ordered dict of parameters, registered under their keys (a tensor given becomes a Parameter)."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", OrderedDict())
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return getattr(self, key)

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, key)

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((key, self[key]) for key in self._keys)

    def values(self):
        return (self[key] for key in self._keys)

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def update(self, parameters):
        pairs = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(_parameter_line(key, value, True) for key, value in self.items())

