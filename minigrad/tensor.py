"""The Tensor: a numpy array plus what autograd needs to know about it.

``_array`` holds the numbers. ``grad_fn`` is the node that made the tensor (None for
a leaf), ``_output_nr`` which of that node's outputs it is, ``_requires_grad`` whether
gradients should flow to it, ``_grad`` where a leaf's gradient accumulates. The
version counter (a one-element list shared with views and ``detach()``) counts
in-place changes, so backward can refuse to use a value that changed after it was saved.
"""
import operator
import warnings
import weakref

import numpy as np
from numpy import ndarray  # ``np.ndarray`` costs a slow lookup each time (numpy has a module __getattr__)

from . import device as _device
from . import dtypes
from .autograd.graph import RemovableHandle, hooks_of
from .shape import Size

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/"
    "TensorBody.h:493.)"
)
NOT_LEAF_FLAG = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
NOT_LEAF_SETTER = "you can only change requires_grad flags of leaf variables."  # the setter, asked for True


_new = object.__new__  # bound once: ``_wrap`` makes every tensor, and the lookup is not free


def legacy_tensor(numpy_dtype, args):
    """What the legacy constructors (``Tensor``, ``LongTensor``, ...) make: a tensor of the data
    in ``args[0]``, or of the shape ``args`` (zeros here; PyTorch leaves them uninitialised)."""
    if len(args) == 1 and not isinstance(args[0], int):
        return Tensor._wrap(np.array(_plain(args[0]), dtype=numpy_dtype))
    return Tensor._wrap(np.zeros(args, dtype=numpy_dtype))


class Tensor:
    """A multi-dimensional array that can record how it was computed."""

    __slots__ = ("_array", "_requires_grad", "grad_fn", "_output_nr", "_versions", "__weakref__", "__dict__")
    __array_ufunc__ = None  # numpy defers to our operators: ndarray * Tensor -> Tensor

    # What few tensors set (leaves, views, hooked tensors) defaults at the class level; an
    # instance gets its own value in its ``__dict__`` when set. Every operation makes a
    # tensor: each attribute it need not set makes that cheaper.
    _grad = _base = _hooks = _accumulator = _post_accumulate_hooks = None
    _retains_grad = False

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

    def requires_grad_(self, requires_grad=True):
        """Switch gradient tracking of a leaf on (or off), in place; returns the tensor."""
        raise NotImplementedError("step 3.3: your code goes here (see the chapter's exercise)")

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
            if not isinstance(value, Tensor):
                kind = type(value)
                name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {name}")
            if value._array.dtype != self._array.dtype:
                from .ops.linalg import _C_TYPE_NAMES

                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_TYPE_NAMES[value._array.dtype.name]}' to a "
                    f"tensor with grad_dtype '{dtypes.scalar_type_name(self._array.dtype)}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                    "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
                    "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that "
                    "assume they match."
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                    f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
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

    def retain_grad(self):
        """Keep the gradient of this non-leaf in ``.grad`` during backward."""
        raise NotImplementedError("step 6.1: your code goes here (see the chapter's exercise)")

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        raise NotImplementedError("step 6.2: your code goes here (see the chapter's exercise)")

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` on this leaf once its ``.grad`` has been updated by backward
        (an optimizer step can run there, gradient by gradient). It must return None."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = {}
        handle = RemovableHandle(self._post_accumulate_hooks)
        self._post_accumulate_hooks[handle.id] = hook
        return handle

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the graph's leaves."""
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """The same data (and version counter), cut off from the graph."""
        raise NotImplementedError("step 3.2: your code goes here (see the chapter's exercise)")

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn = None
        self._requires_grad = False
        self._output_nr = 0
        return self

    # ------------------------------------------------------------ shape and type

    @property
    def data(self):
        """The values without the history (a new tensor sharing memory, not the counter)."""
        return Tensor._wrap(self._array)

    @data.setter
    def data(self, value):
        self._array = value._array if isinstance(value, Tensor) else np.asarray(value)

    @property
    def shape(self):
        return Size(self._array.shape)

    def size(self, dim=None):
        return Size(self._array.shape) if dim is None else self._array.shape[dim]

    @property
    def dtype(self):
        return dtypes.from_numpy(self._array.dtype)

    @property
    def device(self):
        return _device.CPU

    is_cuda = False

    @property
    def ndim(self):
        return self._array.ndim

    def dim(self):
        return self._array.ndim

    def numel(self):
        return self._array.size

    nelement = numel

    def element_size(self):
        return self._array.itemsize

    def is_floating_point(self):
        return self._array.dtype.kind == "f"

    def is_contiguous(self):
        return self._array.flags.c_contiguous

    def item(self):
        if self._array.size != 1:
            raise RuntimeError(f"a Tensor with {self._array.size} elements cannot be converted to Scalar")
        return self._array.reshape(()).item()

    def tolist(self):
        return self._array.tolist()

    def numpy(self, force=False):
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._array

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def to(self, *args, **kwargs):
        """Change dtype (and accept the CPU as device): ``to(torch.float64)``, ``to("cpu")``, ``to(other)``."""
        target = kwargs.get("dtype")
        for arg in args + tuple(v for k, v in kwargs.items() if k == "device"):
            if isinstance(arg, dtypes.dtype):
                target = arg
            elif isinstance(arg, Tensor):
                target = arg.dtype
            elif arg is not None:
                _device.check(arg)
        if target is None or target.numpy == self._array.dtype:
            return self
        from .ops.pointwise import to_dtype

        return to_dtype(self, target)

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{tensor_type_name(self._array.dtype)}"
        return self.to(dtype)

    def float(self):
        return self.to(dtypes.float32)

    def double(self):
        return self.to(dtypes.float64)

    def half(self):
        return self.to(dtypes.float16)

    def long(self):
        return self.to(dtypes.int64)

    def int(self):
        return self.to(dtypes.int32)

    def bool(self):
        return self.to(dtypes.bool)

    def cpu(self):
        return self

    def cuda(self, *args, **kwargs):
        return self.to("cuda")

    # ------------------------------------------------------------ Python protocol

    def __repr__(self, *, tensor_contents=None):
        from .printing import tensor_repr

        return tensor_repr(self)

    def __format__(self, spec):
        """A 0-dim tensor formats as its number (``f"{loss}"`` prints ``2.0``), as in PyTorch;
        any other tensor as its repr, which takes no format spec."""
        if self._array.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __len__(self):
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._array.shape[0]

    def __iter__(self):
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._array.shape[0]))

    def __bool__(self):
        if self._array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._array)

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def _scalar(self):
        """The one number of the tensor, for ``float()`` and ``int()`` (whose error differs from ``item()``'s)."""
        if self._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self):
        if self._array.dtype.kind not in "iub" or self._array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    __hash__ = object.__hash__

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


def _plain(data):
    """Nested lists of tensors and numbers as plain Python values, for numpy."""
    if isinstance(data, Tensor):
        return data._array
    if isinstance(data, (list, tuple)):
        return [_plain(x) for x in data]
    return data


def tensor_type_name(numpy_dtype):
    """PyTorch's legacy name of a tensor type: ``FloatTensor``, ``LongTensor``, ..."""
    return dtypes.scalar_type_name(numpy_dtype) + "Tensor"
