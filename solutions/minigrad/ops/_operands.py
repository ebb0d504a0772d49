"""What every operation on two operands shares: PyTorch's result dtype, PyTorch's error
for shapes that do not broadcast, and no floating-point warnings.

PyTorch computes ``log(0)``, ``1 / 0`` or ``exp(1000)`` silently (``-inf``, ``inf``),
where numpy warns. ``np.errstate`` would silence numpy, but entering it costs more
than a small operation itself; a warnings filter costs nothing until a warning is
raised, so minigrad's modules get one.
"""
import warnings

import numpy as np
from numpy import asarray, ndarray

from .. import dtypes
from ..tensor import Tensor

# numpy has a module ``__getattr__``, so Python 3.11 looks ``np.<name>`` up the slow way at
# every use: the code that runs for every operation uses names imported once instead.

warnings.filterwarnings(
    "ignore", r"(divide by zero|overflow|invalid value|underflow) encountered", RuntimeWarning, r"minigrad\."
)


def promoted(a, b, check_bools=None):
    """Numpy arrays for ``a op b`` whose numpy result has PyTorch's result dtype.

    A number becomes a zero-dim array. The common cases come first and cost little:
    two arrays of one dtype, and a float array with a Python number (which takes the
    array's dtype, as in PyTorch; numpy is faster with a zero-dim array than with the
    number itself).

    ``check_bools(a, b)``, if given, is called wherever a bool operand can be: two bool
    arrays, or the general path. The common float cases cannot hold one, and skip it.
    """
    x = a._array if isinstance(a, Tensor) else a
    y = b._array if isinstance(b, Tensor) else b
    if type(x) is ndarray:
        if type(y) is ndarray:
            if x.dtype is y.dtype or x.dtype == y.dtype:
                if check_bools is not None and x.dtype.kind == "b":
                    check_bools(a, b)
                return x, y
        elif type(y) is float or type(y) is int:
            dtype = x.dtype  # read once: a numpy attribute is a slow, generic lookup
            if dtype.kind == "f":
                return x, asarray(y, dtype)
    elif type(y) is ndarray and (type(x) is float or type(x) is int) and y.dtype.kind == "f":
        return asarray(x, y.dtype), y
    if check_bools is not None:
        check_bools(a, b)
    if not (isinstance(x, _VALUES) and isinstance(y, _VALUES)):
        raise TypeError(f"unsupported operand types: '{type(a).__name__}' and '{type(b).__name__}'")
    target = dtypes.result_type(x, y)
    return _cast(x, target), _cast(y, target)


_VALUES = (np.ndarray, int, float, np.number, np.bool_)  # Python bools are ints


def _cast(value, target):
    """``value`` as an array of ``target`` (a Python int wraps around, as in PyTorch)."""
    if isinstance(value, np.ndarray) and value.dtype == target:
        return value
    return np.asarray(value).astype(target)


def true_division_operands(a, b):
    """Promoted operands for ``a / b``: integers divide as the default float, as in PyTorch."""
    x, y = promoted(a, b)
    if x.dtype.kind == "f":
        return x, y
    target = dtypes.get_default_dtype().numpy
    return np.asarray(x).astype(target), np.asarray(y).astype(target)


def dispatch(x, numpy_fn, tensor_fn):
    """``numpy_fn(x)`` for an array, ``tensor_fn(x)`` for a tensor.

    Inside ``backward`` values are arrays, or tensors when ``create_graph=True`` asks
    for the backward itself to be recorded; formulas that need more than operators
    go through here.
    """
    return numpy_fn(x) if isinstance(x, _ARRAYS) else tensor_fn(x)


_ARRAYS = (np.ndarray, np.generic)


def compute(numpy_fn, x, y):
    """``numpy_fn(x, y)``, failing as PyTorch does: with a RuntimeError, whose message
    for shapes that do not broadcast is PyTorch's. The ``try`` costs nothing until numpy raises.

    Two operands, not ``*operands``: Python 3.11 calls a function with a fixed number of
    arguments the fast way (``where``, with three, catches numpy's error itself).
    """
    try:
        return numpy_fn(x, y)
    except ValueError as error:
        raise numpy_error(error, x, y) from None


def numpy_error(error, *operands):
    """The RuntimeError PyTorch raises where numpy raised ``error`` (a ValueError) on ``operands``."""
    return RuntimeError(broadcast_mismatch(*[np.shape(x) for x in operands]) or str(error))


def broadcast_mismatch(*shapes):
    """PyTorch's message for shapes that do not broadcast together (None if they do).

    Shapes are broadcast one after the other, as PyTorch does; within a pair the
    dimensions are compared from the last one, and the message counts them from the
    left of the broadcast result.
    """
    a = shapes[0]
    for b in shapes[1:]:
        ndim = max(len(a), len(b))
        a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
        for dim in reversed(range(ndim)):
            if a[dim] != b[dim] and a[dim] != 1 and b[dim] != 1:
                return (
                    f"The size of tensor a ({a[dim]}) must match the size of tensor b ({b[dim]}) "
                    f"at non-singleton dimension {dim}"
                )
        a = tuple(n if n != 1 else m for n, m in zip(a, b))
    return None


def is_bool(x):
    return type(x) is bool or (isinstance(x, Tensor) and x._array.dtype.kind == "b")


def refuse_bool_subtraction(input, other):
    """PyTorch has no subtraction for bools: it asks for ``^`` or ``~`` instead. ``promoted``
    calls this only where a bool operand can be, not for a float tensor and a number."""
    bools = is_bool(input) + is_bool(other)
    if bools == 2:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if bools:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )
