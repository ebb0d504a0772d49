"""Hypothesis strategies for the operation tests, and the table of operations they cover.

Each ``Op`` is written once, as a function of a library with PyTorch's API and of its
input tensors (``fn(lib, *tensors)``), so the same lambda runs on minigrad and on
PyTorch (``test_ops_vs_torch.py``) or against finite differences
(``test_ops_numeric.py``). Inputs are drawn where the operation is smooth: away from
zero for ``abs`` and ``relu``, positive for ``log``, with no ties for ``max``; the
kinks and ties are tested with fixed examples instead.
"""
import os
from dataclasses import dataclass
from typing import Callable

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

DTYPES = (np.float32, np.float64)
# Per operation and dtype: 30 in the whole suite; ``make core`` draws fewer (MINIGRAD_EXAMPLES) to stay quick.
EXAMPLES = int(os.environ.get("MINIGRAD_EXAMPLES", "30"))


# ---------------------------------------------------------------- values


def floats(dtype, low=-3.0, high=3.0):
    """Finite floats in [low, high] (rounded to ``dtype``, which must hold them)."""
    low, high = (float(np.dtype(dtype).type(bound)) for bound in (low, high))
    return st.floats(low, high, width=np.dtype(dtype).itemsize * 8, allow_nan=False, allow_subnormal=False)


def away_from_zero(dtype, low=0.1, high=3.0):
    """Floats with ``low <= |x| <= high``: no kink of abs, relu, sign or 1/x nearby."""
    return st.one_of(floats(dtype, low, high), floats(dtype, -high, -low))


def on_grid(dtype, offset=0.0, step=0.5, count=6):
    """Multiples of ``step`` (up to ``count`` of them each side) plus ``offset``: values
    that never come closer than ``step`` (or tie with a grid of another offset)."""
    return st.integers(-count, count).map(lambda k: np.dtype(dtype).type(k * step + offset))


def spaced(dtype):
    """Values an eighth apart, for arrays whose elements must all differ clearly."""
    return on_grid(dtype, step=0.125, count=100)


# ---------------------------------------------------------------- shapes

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
shapes_with_empty = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
broadcastable_pairs = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=4)


def array(dtype, shape, elements):
    return hnp.arrays(dtype, shape, elements=elements)


# ---------------------------------------------------------------- inputs


def unary(elements=floats, shape=shapes):
    """One array: ``inputs(dtype)`` draws a tuple of one array."""
    return lambda dtype: shape.flatmap(lambda s: st.tuples(array(dtype, s, elements(dtype))))


def binary(first=floats, second=floats):
    """Two arrays of broadcastable shapes, including zero-dim ones and size-1 dimensions."""

    def inputs(dtype):
        return broadcastable_pairs.flatmap(
            lambda pair: st.tuples(
                array(dtype, pair.input_shapes[0], first(dtype)), array(dtype, pair.input_shapes[1], second(dtype))
            )
        )

    return inputs


def distinct(dtype):
    """One array whose elements all differ (for max and min, whose gradient picks one)."""
    return shapes.flatmap(lambda s: st.tuples(hnp.arrays(dtype, s, elements=spaced(dtype), unique=True)))


def reduced(unique=False):
    """An array with at least one dimension, and one of its dimensions (possibly negative);
    ``unique`` makes every element different (for max and min along a dimension)."""

    def inputs(dtype):
        return hnp.array_shapes(min_dims=1, max_dims=3, max_side=4).flatmap(
            lambda s: st.tuples(
                hnp.arrays(dtype, s, elements=spaced(dtype) if unique else floats(dtype), unique=unique),
                st.integers(-len(s), len(s) - 1),
            )
        )

    return inputs


def reduced_dims(dtype):
    """An array and a tuple of distinct dimensions to reduce over."""
    return hnp.array_shapes(min_dims=1, max_dims=3, max_side=4).flatmap(
        lambda s: st.tuples(
            array(dtype, s, floats(dtype)),
            st.lists(st.integers(0, len(s) - 1), min_size=1, max_size=len(s), unique=True).map(tuple),
            st.booleans(),
        )
    )


@st.composite
def matmul_pair(draw, dtype, matrices=False):
    """Operands for ``a @ b`` of 1 to 4 dimensions, with batch dimensions that broadcast
    (two matrices if ``matrices``)."""
    n, k, m = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    if matrices:
        return draw(array(dtype, (n, k), floats(dtype))), draw(array(dtype, (k, m), floats(dtype)))
    batch_a, batch_b = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3)).input_shapes
    dims_a, dims_b = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    shape_a = (k,) if dims_a == 1 else batch_a + (n, k)
    shape_b = (k,) if dims_b == 1 else batch_b + (k, m)
    return draw(array(dtype, shape_a, floats(dtype))), draw(array(dtype, shape_b, floats(dtype)))


@st.composite
def joinable(draw, dtype, new_dim):
    """2 or 3 arrays to ``cat`` along a dimension (or to ``stack``), and that dimension."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    ndim = len(shape) + (1 if new_dim else 0)
    dim = draw(st.integers(-ndim, ndim - 1))
    arrays = []
    for _ in range(draw(st.integers(2, 3))):
        own = list(shape)
        if not new_dim:
            own[dim] = draw(st.integers(1, 3))
        arrays.append(draw(array(dtype, tuple(own), floats(dtype))))
    return arrays, dim


@st.composite
def split_sizes(draw, dtype):
    """An array, a dimension and the sizes (one possibly 0) that cut it into pieces."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    sizes, left = [], shape[dim]
    while left:
        sizes.append(draw(st.integers(1, left)))
        left -= sizes[-1]
    if draw(st.booleans()):  # an empty piece somewhere
        sizes.insert(draw(st.integers(0, len(sizes))), 0)
    return draw(array(dtype, shape, floats(dtype))), dim, tuple(sizes)  # a tuple: a list would be taken for tensors


@st.composite
def gathered(draw, dtype):
    """An array, a dimension and an index (as nested tuples, so that it becomes an integer
    tensor that needs no gradient): no larger than the array except along the dimension,
    with repeats."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    index_shape = tuple(draw(st.integers(1, n + 2 if d == dim % len(shape) else n)) for d, n in enumerate(shape))
    index = draw(hnp.arrays(np.int64, index_shape, elements=st.integers(0, shape[dim] - 1)))
    return draw(array(dtype, shape, floats(dtype))), dim, _nested_tuples(index.tolist())


def _nested_tuples(value):
    return tuple(_nested_tuples(v) for v in value) if isinstance(value, list) else value


def spread_over(dtype):
    """An array whose elements all differ, and one dimension of it with at least two elements
    (a standard deviation of one element, or of equal ones, has no gradient)."""
    return hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4).flatmap(
        lambda s: st.tuples(hnp.arrays(dtype, s, elements=spaced(dtype), unique=True), st.integers(-len(s), len(s) - 1))
    )


def vectors(dtype):
    """Two vectors, for ``outer``."""
    return st.tuples(*[st.integers(1, 4).flatmap(lambda n: array(dtype, (n,), floats(dtype))) for _ in range(2)])


# ---------------------------------------------------------------- the operations


@dataclass(frozen=True)
class Op:
    """An operation to test: ``fn(lib, *tensors)`` on inputs drawn by ``inputs(dtype)``.

    ``inputs`` draws a tuple whose arrays become tensors that require grad; any other
    item (a dimension, a flag) is passed to ``fn`` as it is.
    """

    name: str
    fn: Callable
    inputs: Callable


def _pair(offset_a, offset_b):
    return binary(lambda d: on_grid(d, offset_a), lambda d: on_grid(d, offset_b))


OPS = [
    Op("add", lambda lib, a, b: a + b, binary()),
    Op("sub", lambda lib, a, b: a - b, binary()),
    Op("mul", lambda lib, a, b: a * b, binary()),
    Op("div", lambda lib, a, b: a / b, binary(floats, away_from_zero)),
    Op("pow_tensors", lambda lib, a, b: a**b, binary(lambda d: floats(d, 0.5, 2.0), lambda d: floats(d, -2.0, 2.0))),
    Op("add_alpha", lambda lib, a, b: lib.add(a, b, alpha=2.5), binary()),
    Op("sub_alpha", lambda lib, a, b: lib.sub(a, b, alpha=-0.5), binary()),
    Op("maximum", lambda lib, a, b: lib.maximum(a, b), _pair(0.0, 0.25)),
    Op("minimum", lambda lib, a, b: lib.minimum(a, b), _pair(0.25, 0.0)),
    Op("where", lambda lib, a, b: lib.where(a > b, a, b * 2), _pair(0.0, 0.25)),
    Op("add_number", lambda lib, a: a + 2.5, unary()),
    Op("number_sub", lambda lib, a: 1 - a, unary()),
    Op("number_mul", lambda lib, a: 3 * a, unary()),
    Op("div_number", lambda lib, a: a / 4, unary()),
    Op("number_div", lambda lib, a: 1 / a, unary(away_from_zero)),
    Op("pow_number", lambda lib, a: a**3, unary()),
    Op("pow_fraction", lambda lib, a: a.pow(0.5), unary(lambda d: floats(d, 0.1, 3.0))),
    Op("pow_zero", lambda lib, a: a**0, unary()),
    Op("number_pow", lambda lib, a: 2**a, unary()),
    Op("neg", lambda lib, a: -a, unary()),
    Op("exp", lambda lib, a: a.exp(), unary()),
    Op("log", lambda lib, a: lib.log(a), unary(lambda d: floats(d, 0.1, 3.0))),
    Op("sqrt", lambda lib, a: a.sqrt(), unary(lambda d: floats(d, 0.1, 3.0))),
    Op("abs", lambda lib, a: a.abs(), unary(away_from_zero)),
    Op("relu", lambda lib, a: a.relu(), unary(away_from_zero)),
    Op("sigmoid", lambda lib, a: lib.sigmoid(a), unary()),
    Op("tanh", lambda lib, a: a.tanh(), unary()),
    Op("sin", lambda lib, a: lib.sin(a), unary()),
    Op("cos", lambda lib, a: a.cos(), unary()),
    Op("reciprocal", lambda lib, a: a.reciprocal(), unary(away_from_zero)),
    Op("clamp", lambda lib, a: a.clamp(-1.05, 0.95), unary(lambda d: on_grid(d, 0.0))),
    Op("clamp_min", lambda lib, a: lib.clamp(a, min=0.05), unary(lambda d: on_grid(d, 0.0))),
    Op("sum", lambda lib, a: a.sum(), unary(shape=shapes_with_empty)),
    Op("sum_dim", lambda lib, a, dim: a.sum(dim), reduced()),
    Op("sum_dims", lambda lib, a, dims, keep: a.sum(dim=dims, keepdim=keep), reduced_dims),
    Op("mean", lambda lib, a: a.mean(), unary()),
    Op("mean_dim", lambda lib, a, dim: lib.mean(a, dim, keepdim=True), reduced()),
    Op("mean_dims", lambda lib, a, dims, keep: a.mean(dims, keep), reduced_dims),
    Op("max", lambda lib, a: a.max(), distinct),
    Op("min", lambda lib, a: lib.min(a), distinct),
    Op("max_dim", lambda lib, a, dim: a.max(dim), reduced(unique=True)),
    Op("min_dim", lambda lib, a, dim: lib.min(a, dim, keepdim=True), reduced(unique=True)),
    Op("argmax", lambda lib, a, dim: a.argmax(dim), reduced(unique=True)),
    Op("norm", lambda lib, a: a.norm(), unary(away_from_zero)),
    Op("matmul", lambda lib, a, b: a @ b, matmul_pair),
    Op("mm", lambda lib, a, b: lib.mm(a, b), lambda d: matmul_pair(d, matrices=True)),
    Op("cat", lambda lib, arrays, dim: lib.cat(arrays, dim), lambda d: joinable(d, False).map(_listed)),
    Op("stack", lambda lib, arrays, dim: lib.stack(arrays, dim=dim), lambda d: joinable(d, True).map(_listed)),
    Op("chain", lambda lib, a, b: ((a * b).sigmoid() - a.tanh() / 2).sum(-1), binary()),
    Op("prod", lambda lib, a: a.prod(), unary(lambda d: floats(d, -2.0, 2.0))),
    Op("prod_dim", lambda lib, a, dim: lib.prod(a, dim, keepdim=dim % 2 == 0), reduced()),
    Op("cumsum", lambda lib, a, dim: a.cumsum(dim), reduced()),
    Op("var", lambda lib, a: a.var(), unary(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))),
    Op("var_dims", lambda lib, a, dims, keep: lib.var(a, dims, keepdim=keep, correction=0), reduced_dims),
    Op("std", lambda lib, a, dim: a.std(), spread_over),
    Op("std_dim", lambda lib, a, dim: lib.std(a, dim, unbiased=True, keepdim=True), spread_over),
    Op("masked_fill", lambda lib, a, b: a.masked_fill(b > 0, 0.5), _pair(0.25, 0.25)),  # the masks: never at 0
    Op("masked_fill_tensor", lambda lib, a, b: lib.masked_fill(a, a > 0, b.sum()), _pair(0.25, 0.0)),
    Op("gather", lambda lib, a, dim, index: a.gather(dim, lib.tensor(index, dtype=lib.int64)), gathered),
    Op("split", lambda lib, a, dim: a.split(2, dim), reduced()),
    Op("split_sizes", lambda lib, a, dim, sizes: lib.split(a, sizes, dim=dim), split_sizes),
    Op("chunk", lambda lib, a, dim: lib.chunk(a, 3, dim), reduced()),
    Op("outer", lambda lib, a, b: lib.outer(a, b), vectors),
    Op("sinh", lambda lib, a: lib.sinh(a), unary()),
    Op("cosh", lambda lib, a: a.cosh(), unary()),
    Op("log10", lambda lib, a: a.log10(), unary(lambda d: floats(d, 0.1, 3.0))),
    Op("var_mean", lambda lib, a, dim: lib.var_mean(a, dim), spread_over),
    Op("std_mean", lambda lib, a, dim: lib.std_mean(a, dim, keepdim=True), spread_over),
    Op("unbind", lambda lib, a, dim: a.unbind(dim), reduced()),
    Op("narrow", lambda lib, a, dim: a.narrow(dim, a.shape[dim] - 1, 1), reduced()),
    Op("select", lambda lib, a, dim: a.select(dim, -1), reduced()),
    Op("view_as", lambda lib, a: a.view_as(lib.empty(a.numel())), unary()),
    Op("index_select", lambda lib, a, dim: a.index_select(dim, _last_first_last(lib, a, dim)), reduced()),
    Op("index_add", lambda lib, a, dim: lib.index_add(a, dim, _last_first_last(lib, a, dim),
                                                      (a * a).index_select(dim, _last_first_last(lib, a, dim)), alpha=2),
       reduced()),
    Op("sort", lambda lib, a, dim: a.sort(dim, descending=True), reduced(unique=True)),
    Op("erf", lambda lib, a: a.erf(), unary()),
    Op("gelu", lambda lib, a: lib.nn.functional.gelu(a), unary()),
    Op("gelu_tanh", lambda lib, a: lib.nn.functional.gelu(a, approximate="tanh"), unary()),
    Op("silu", lambda lib, a: lib.nn.functional.silu(a), unary()),
    Op("leaky_relu", lambda lib, a: lib.nn.functional.leaky_relu(a, 0.2), unary(away_from_zero)),
    Op("hardtanh", lambda lib, a: lib.nn.functional.hardtanh(a, -1.05, 0.95), unary(lambda d: on_grid(d, 0.0))),
    Op("layer_norm", lambda lib, a: lib.nn.functional.layer_norm(a, a.shape[-1:]),
       unary(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))),
    Op("smooth_l1_loss", lambda lib, a, b: lib.nn.functional.smooth_l1_loss(a + 0 * b, b + 0 * a, beta=0.5),
       _pair(0.0, 0.125)),  # both broadcast first: no warning of shapes that differ
    Op("pad", lambda lib, a: lib.nn.functional.pad(a, (1, 2) * min(a.dim(), 2), value=0.5),
       unary(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))),
    Op("tril", lambda lib, a: a.tril(), unary(shape=hnp.array_shapes(min_dims=2, max_dims=3, max_side=4))),
    Op("triu_diagonal", lambda lib, a: lib.triu(a, diagonal=-1), unary(shape=hnp.array_shapes(min_dims=2, max_dims=3, max_side=4))),
    Op("rsqrt", lambda lib, a: a.rsqrt(), unary(lambda d: floats(d, 0.1, 3.0))),
    Op("repeat", lambda lib, a: a.repeat(2, *([1] * a.dim())), unary()),
    Op("roll", lambda lib, a, dim: lib.roll(a, 1, dim), reduced()),
    Op("roll_flat", lambda lib, a: a.roll(-2), unary()),
    Op("topk", lambda lib, a, dim: a.topk(1, dim), reduced(unique=True)),
]


def _last_first_last(lib, a, dim):
    """An index along ``dim`` that picks the last slice twice, for index_select and index_add."""
    n = a.shape[dim] if a.dim() else 1
    return lib.tensor([n - 1, 0, n - 1])


class Listed(tuple):
    """Arrays that an operation takes as one list (``cat``, ``stack``)."""


def _listed(drawn):
    arrays, dim = drawn
    return Listed(arrays), dim


def as_arguments(lib, drawn):
    """The drawn inputs as ``lib`` leaf tensors that require grad (a ``Listed`` group as a
    list of them); any other item as it is."""

    def convert(item):
        if isinstance(item, np.ndarray):
            return lib.tensor(item, requires_grad=True)
        if isinstance(item, Listed):
            return [convert(a) for a in item]
        return item

    return [convert(item) for item in drawn]


def arrays_in(drawn):
    """The drawn arrays (a ``Listed`` group opened), in the order ``leaves`` gives their tensors."""
    found = []
    for item in drawn:
        found.extend(item if isinstance(item, Listed) else [item] if isinstance(item, np.ndarray) else [])
    return found


def leaves(arguments):
    """The tensors among the arguments, lists opened, in order."""
    found = []
    for item in arguments:
        found.extend(item if isinstance(item, list) else [item] if hasattr(item, "requires_grad") else [])
    return found


# ---------------------------------------------------------------- arrays to print

PRINTED_DTYPES = ("float32", "float64", "float16", "int64", "int32", "uint8", "bool")
VALUE_KINDS = ("normal", "scaled", "whole", "whole_scaled", "mixed_magnitudes", "specials", "rounded")


def _values(kind, count, rng):
    """``count`` values of one of the kinds of data whose printing differs."""
    if kind == "normal":
        return rng.standard_normal(count)
    if kind == "scaled":  # one magnitude, from tiny to huge: fixed or scientific notation
        return rng.standard_normal(count) * 10.0 ** rng.integers(-12, 12)
    if kind == "whole":  # integral floats print as ``4.``
        return rng.integers(-1000, 1000, count).astype(float)
    if kind == "whole_scaled":
        return rng.integers(-10, 10, count) * 10.0 ** rng.integers(-6, 10)
    if kind == "mixed_magnitudes":  # ratios past 1000 switch to scientific notation
        return rng.standard_normal(count) * 10.0 ** rng.integers(-6, 6, count)
    if kind == "specials":
        return rng.choice([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, 0.5, 1e-5, 1e5, 123.456], count)
    return np.round(rng.standard_normal(count) * 100, rng.integers(0, 4))  # "rounded": few digits


@st.composite
def printable_arrays(draw):
    """Arrays of every printed form: 0-dim, empty, nested, long rows, over 1000 elements."""
    sides = st.one_of(st.sampled_from([0, 1, 2, 3, 5, 8, 13, 40]), st.integers(1, 1200))
    shape = tuple(draw(st.lists(sides, max_size=4)))
    if np.prod(shape) > 20_000:
        shape = shape[:1]
    dtype = draw(st.sampled_from(PRINTED_DTYPES))
    kind = draw(st.sampled_from(VALUE_KINDS))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = _values(kind, int(np.prod(shape)), rng)
    if np.dtype(dtype).kind in "iub":
        info = np.iinfo(dtype) if dtype != "bool" else np.iinfo(np.int8)
        values = np.nan_to_num(values, posinf=7, neginf=-7).clip(info.min, info.max)
    with np.errstate(over="ignore"):
        return values.reshape(shape).astype(dtype)
