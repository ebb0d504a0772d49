"""Making tensors: the dtypes PyTorch infers, its errors, and ``arange``/``linspace``
values equal to PyTorch's bit for bit (printed results depend on the last bit)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad

# ---------------------------------------------------------------- without PyTorch


@pytest.mark.parametrize(
    "data, dtype",
    [
        ([1, 2.5], minigrad.float32), ([True, 1], minigrad.int64), ([True, False], minigrad.bool),
        ([], minigrad.float32), (3, minigrad.int64), (np.float64(1.5), minigrad.float64),
        ([np.float32(1.5), 2], minigrad.float32), (np.ones(2, dtype=np.int32), minigrad.int32),
    ],
)
def test_tensor_infers_pytorchs_dtype(data, dtype):
    assert minigrad.tensor(data).dtype is dtype


def test_only_floats_can_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        minigrad.tensor([1, 2], requires_grad=True)


def test_linspace_keeps_both_ends_exact():
    values = minigrad.linspace(-math.pi, math.pi, 2000).numpy()
    assert values[0] == np.float32(-math.pi) and values[-1] == np.float32(math.pi)


# ---------------------------------------------------------------- against PyTorch

CREATIONS = [
    lambda t: t.tensor([1, 2.5]), lambda t: t.tensor([True, 1]), lambda t: t.tensor([[]]), lambda t: t.tensor(3.0),
    lambda t: t.tensor(True), lambda t: t.tensor(np.float64(1.5)), lambda t: t.tensor([np.float64(1.5), 2.5]),
    lambda t: t.tensor([np.float32(1.5), 2]), lambda t: t.tensor(np.int64(3)),
    lambda t: t.tensor([1.7, -2.7], dtype=t.int64),
    lambda t: t.tensor([1, 2], dtype=t.float64), lambda t: t.tensor([1.0, 2], requires_grad=True),
    lambda t: t.tensor([t.tensor(1.0), t.tensor(2.0)]), lambda t: t.tensor("a"),
    lambda t: t.ones(2, 3), lambda t: t.ones((2, 3)), lambda t: t.ones([2, 3], dtype=t.int64), lambda t: t.ones(()),
    lambda t: t.ones(0), lambda t: t.ones(2, dtype=t.long, requires_grad=True), lambda t: t.ones(-1),
    lambda t: t.zeros(3, dtype=t.bool), lambda t: t.full((2, 2), 7), lambda t: t.full((2,), True),
    lambda t: t.full((2,), 7, dtype=t.float64), lambda t: t.full((), 0.0, requires_grad=True), lambda t: t.full(2, 1.0),
    lambda t: t.arange(5), lambda t: t.arange(1, 4), lambda t: t.arange(0, 1, 0.25), lambda t: t.arange(5.0),
    lambda t: t.arange(10, 0, -3), lambda t: t.arange(0.5, 2), lambda t: t.arange(1, 2.5, 0.5, requires_grad=True),
    lambda t: t.arange(0, 1, 0.1), lambda t: t.arange(0, 5, 0), lambda t: t.arange(0, 5, -1),
    lambda t: t.linspace(-math.pi, math.pi, 5), lambda t: t.linspace(-1, 1, 7), lambda t: t.linspace(0, 10, 1),
    lambda t: t.linspace(0, 10, 0), lambda t: t.linspace(0, 10, 5, dtype=t.int64), lambda t: t.linspace(3, -3, 7),
    lambda t: t.linspace(-math.pi, math.pi, 2000), lambda t: t.eye(3), lambda t: t.eye(2, 3),
    lambda t: t.eye(3, dtype=t.int64), lambda t: t.eye(4, 5, requires_grad=True),
    lambda t: t.ones_like(t.ones(2, dtype=t.float64)), lambda t: t.zeros_like(t.ones(2, 3), dtype=t.int64),
    lambda t: t.full_like(t.ones(2, dtype=t.int64), 3.7), lambda t: t.ones_like(t.ones(2, requires_grad=True)),
    lambda t: t.as_tensor([1, 2]), lambda t: t.from_numpy(np.arange(3)),
]


def _outcome(make, lib):
    try:
        return repr(make(lib))
    except Exception as error:
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("make", CREATIONS)
def test_creation_matches_torch(make):
    torch = pytest.importorskip("torch")
    assert _outcome(make, minigrad) == _outcome(make, torch)


def _same_values(make):
    torch = pytest.importorskip("torch")
    expected, actual = make(torch).numpy(), make(minigrad).numpy()
    assert expected.dtype == actual.dtype and np.array_equal(expected, actual), f"\n{expected!r}\n{actual!r}"


# Numbers as people write them (a few decimals, or pi): the long double that stands in for
# a fused multiply-add is not exact for float64, and ties broken by a subnormal differ.
bounds = st.one_of(st.integers(-10**5, 10**5).map(lambda k: k / 100), st.sampled_from([math.pi, -math.pi]))
steps = st.integers(1, 10**4).map(lambda k: k / 1000)
dtype_names = st.sampled_from(["float32", "float64"])


@settings(derandomize=True, deadline=None, max_examples=200, database=None)
@given(bounds, bounds, st.integers(0, 300), st.sampled_from(["float32", "float64", "int64"]))
def test_linspace_matches_torch_bit_for_bit(start, end, steps, dtype):
    _same_values(lambda lib: lib.linspace(start, end, steps, dtype=getattr(lib, dtype)))


@settings(derandomize=True, deadline=None, max_examples=200, database=None)
@given(bounds, steps, st.integers(1, 300), st.booleans(), dtype_names)
def test_arange_matches_torch_bit_for_bit(start, step, count, downwards, dtype):
    step = -step if downwards else step
    end = start + step * (count - 0.5)
    _same_values(lambda lib: lib.arange(start, end, step, dtype=getattr(lib, dtype)))


@st.composite
def nested_numbers(draw):
    """Rectangular nested lists (or one number) of Python bools, ints and floats, mixed."""
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    count = int(np.prod(shape))
    numbers = st.one_of(st.booleans(), st.integers(-5, 5), st.floats(-5, 5))
    values = draw(st.lists(numbers, min_size=count, max_size=count))
    return np.array(values, dtype=object).reshape(shape).tolist()


@settings(derandomize=True, deadline=None, max_examples=200, database=None)
@given(nested_numbers())
def test_tensor_of_python_data_matches_torch(data):
    torch = pytest.importorskip("torch")
    assert _outcome(lambda lib: lib.tensor(data), minigrad) == _outcome(lambda lib: lib.tensor(data), torch)
