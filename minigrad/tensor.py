"""The Tensor: a numpy array plus what autograd needs to know about it.

``_array`` holds the numbers. ``grad_fn`` is the node that made the tensor (None for
a leaf), ``_output_nr`` which of that node's outputs it is, ``_requires_grad`` whether
gradients should flow to it, ``_grad`` where a leaf's gradient accumulates. The
version counter (a one-element list shared with views and ``detach()``) counts
in-place changes, so backward can refuse to use a value that changed after it was saved.

Shape, dtype, printing and the rest of what Python asks of a tensor live in
``tensor_data.py``; the operations (``+``, ``exp``, ``sum``...) are attached from ``ops/``.
"""
import operator
import warnings
import weakref

import numpy as np
from numpy import ndarray  # ``np.ndarray`` costs a slow lookup each time (numpy has a module __getattr__)

from . import dtypes
from .hooks import add_hook, hooks_of
from .tensor_data import NON_LEAF_GRAD_WARNING, NOT_LEAF_FLAG, NOT_LEAF_SETTER, TensorData, check_grad_assignment
from .torch_texts import DETACH_VIEW_IN_PLACE

_new = object.__new__  # bound once: ``_wrap`` makes every tensor, and the lookup is not free


class Tensor(TensorData):
    """A multi-dimensional array that can record how it was computed."""

    __slots__ = ("_array", "_requires_grad", "grad_fn", "_output_nr", "_versions", "__weakref__", "__dict__")
    __array_ufunc__ = None  # numpy defers to our operators: ndarray * Tensor -> Tensor

    # What few tensors set (leaves, views, hooked tensors) defaults at the class level; an
    # instance gets its own value in its ``__dict__`` when set. Every operation makes a
    # tensor: each attribute it need not set makes that cheaper.
    _grad = _base = _hooks = _accumulator = _post_accumulate_hooks = None
    _retains_grad = False

    # ------------------------------------------------------------ the exercises

    def detach(self):
        """The same data (and version counter), cut off from the graph.

        数据相同（版本计数器也相同），但与计算图断开。
        """
        raise NotImplementedError("step 3.2: your code goes here (see the chapter's exercise) / 第 3.2 步：在这里写你的代码（见本章的练习）")

    def requires_grad_(self, requires_grad=True):
        """Switch gradient tracking of a leaf on (or off), in place; returns the tensor.

        原地打开（或关闭）叶子节点的梯度跟踪；返回该张量。
        """
        raise NotImplementedError("step 3.3: your code goes here (see the chapter's exercise) / 第 3.3 步：在这里写你的代码（见本章的练习）")

    def retain_grad(self):
        """Keep the gradient of this non-leaf in ``.grad`` during backward.

        在反向传播时把这个非叶子节点的梯度保留在 ``.grad`` 中。
        """
        raise NotImplementedError("step 6.1: your code goes here (see the chapter's exercise) / 第 6.1 步：在这里写你的代码（见本章的练习）")

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one.

        在算出这个张量的梯度时调用 ``hook(grad)``；钩子可以返回一个新的梯度来代替它。
        """
        raise NotImplementedError("step 6.2: your code goes here (see the chapter's exercise) / 第 6.2 步：在这里写你的代码（见本章的练习）")

    # ------------------------------------------------------------ making tensors

    def __new__(cls, *args):
        """``torch.Tensor([1, 2])`` or ``torch.Tensor(2, 3)``: the legacy float constructor."""
        return legacy_tensor(dtypes.get_default_dtype().numpy, args)

    @classmethod
    def _wrap(cls, array, requires_grad=False):
        """A tensor around ``array`` (no copy): how every operation makes its result."""
        t = _new(cls)
        t._array = array if type(array) is ndarray else np.asarray(array)
        t._requires_grad = requires_grad
        t.grad_fn = t._versions = None
        t._output_nr = 0
        return t

    # ------------------------------------------------------------ autograd state

    def _set_requires_grad(self, flag):
        # Unlike ``requires_grad_(True)``, the setter refuses a non-leaf whatever the flag, as in PyTorch.
        if self.grad_fn is not None:
            raise RuntimeError(NOT_LEAF_FLAG if not flag else NOT_LEAF_SETTER)
        if flag and not self._array.dtype.kind == "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(flag)

    # Read by every operation (``should_record``, ``gradient_edge``): a C getter (attrgetter)
    # spares the Python call a ``def`` getter would cost.
    requires_grad = property(operator.attrgetter("_requires_grad"), _set_requires_grad)
    del _set_requires_grad

    @property
    def is_leaf(self):
        """A leaf was made by the user, not by an operation that recorded a node."""
        return self.grad_fn is None

    @property
    def grad(self):
        if self._grad is None and self.grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            check_grad_assignment(self, value)
        self._grad = value

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def _version_counter(self):
        """A one-element list, shared with views and ``detach()``, that counts in-place changes.
        Made on first use: most results are never saved, viewed or changed in place."""
        counter = self._versions
        if counter is None:
            counter = self._versions = [0]
        return counter

    @_version_counter.setter
    def _version_counter(self, counter):
        self._versions = counter

    @property
    def _version(self):
        return self._version_counter[0]

    def _bump_version(self):
        """Record an in-place change, so saved copies of this tensor can tell."""
        self._version_counter[0] += 1

    def _is_view(self):
        return self._base is not None

    @property
    def retains_grad(self):
        return self._retains_grad

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` on this leaf once its ``.grad`` has been updated by backward
        (an optimizer step can run there, gradient by gradient). It must return None."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = {}
        return add_hook(self._post_accumulate_hooks, hook)

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(DETACH_VIEW_IN_PLACE)
        self.grad_fn = None
        self._requires_grad = False
        self._output_nr = 0
        return self

    @property
    def data(self):
        """The values without the history (a new tensor sharing memory, not the counter)."""
        return Tensor._wrap(self._array)

    @data.setter
    def data(self, value):
        self._array = value._array if isinstance(value, Tensor) else np.asarray(value)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._array, self._requires_grad))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment."
            )
        out = type(self)._wrap(self._array.copy(), self._requires_grad)
        if self._grad is not None:
            out._grad = Tensor._wrap(self._grad._array.copy())
        memo[id(self)] = out
        return out


def _rebuild(array, requires_grad):
    return Tensor._wrap(array, requires_grad)


def legacy_tensor(numpy_dtype, args):
    """What the legacy constructors (``Tensor``, ``LongTensor``, ...) make: a tensor of the data
    in ``args[0]``, or of the shape ``args`` (zeros here; PyTorch leaves them uninitialised)."""
    if len(args) == 1 and not isinstance(args[0], int):
        return Tensor._wrap(np.array(_plain(args[0]), dtype=numpy_dtype))
    return Tensor._wrap(np.zeros(args or (0,), dtype=numpy_dtype))  # no arguments: an empty tensor


def _plain(data):
    """Nested lists of tensors and numbers as plain Python values, for numpy."""
    if isinstance(data, Tensor):
        return data._array
    if isinstance(data, (list, tuple)):
        return [_plain(x) for x in data]
    return data
