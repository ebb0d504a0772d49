"""What a tensor is apart from autograd: its numbers, shape and dtype, and what Python asks of it.

``Tensor`` (in ``tensor.py``) adds the autograd state on top of this class; everything
here is plain bookkeeping around the numpy array ``_array``, kept apart so that the
learner's ``tensor.py`` holds what the course teaches.
"""
import numpy as np

from . import device as _device
from . import dtypes
from .printing import tensor_repr
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


class TensorData:
    """The array behind a tensor and the Python protocol around it (shape, dtype, printing...)."""

    __slots__ = ()
    _inference = False  # True in the ``__dict__`` of an inference tensor (autograd/inference_mode.py)

    # ------------------------------------------------------------ shape and type

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
        return _device.of(self._array)

    @property
    def is_meta(self):
        """True for a tensor on the "meta" device: a shape and a dtype, no data."""
        return _device.of(self._array) is _device.META

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

    def data_ptr(self):
        """The address of the first element: views and saved tensors share their base's memory."""
        return self._array.__array_interface__["data"][0]

    def untyped_storage(self):
        return Storage(self._array)

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


class Storage:
    """The memory under a tensor and all its views: the numpy array that owns it."""

    def __init__(self, array):
        while isinstance(array.base, np.ndarray):
            array = array.base
        self._array = array

    def data_ptr(self):
        return self._array.__array_interface__["data"][0]

    def nbytes(self):
        return self._array.nbytes


def tensor_type_name(numpy_dtype):
    """PyTorch's legacy name of a tensor type: ``FloatTensor``, ``LongTensor``, ..."""
    return dtypes.scalar_type_name(numpy_dtype) + "Tensor"


def check_grad_assignment(tensor, value):
    """``tensor.grad = value`` takes only a tensor of the tensor's dtype and shape (PyTorch's errors)."""
    if not isinstance(value, TensorData):
        kind = type(value)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {name}")
    if value._array.dtype != tensor._array.dtype:
        raise RuntimeError(
            f"attempting to assign a gradient with dtype '{dtypes.c_type_name(value._array.dtype)}' to a "
            f"tensor with grad_dtype '{dtypes.scalar_type_name(tensor._array.dtype)}'. The gradient must "
            "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
            "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
            "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that "
            "assume they match."
        )
    if value.shape != tensor.shape:
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
            f"'{list(tensor.shape)}'. Please ensure that the gradient and the tensor are the same size"
        )
