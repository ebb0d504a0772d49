"""``repr`` of tensors, character for character as PyTorch prints them.

The fixed cases need no PyTorch: they are texts PyTorch 2.13 printed (some quoted
in ``torch-autograd-facts.md``). The rest compare with PyTorch when it is installed, over
a fixed list and over Hypothesis-drawn arrays of every printed form.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from support.strategies import printable_arrays

PRINTED = [
    (lambda t: t.ones(2, 2, requires_grad=True), "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"),
    (lambda t: t.tensor(3.0, requires_grad=True), "tensor(3., requires_grad=True)"),
    (lambda t: t.tensor(0.4033, requires_grad=True), "tensor(0.4033, requires_grad=True)"),
    (lambda t: t.ones(2, requires_grad=True) + 2, "tensor([3., 3.], grad_fn=<AddBackward0>)"),
    (lambda t: (t.ones(2, 2, requires_grad=True) * 27).mean(), "tensor(27., grad_fn=<MeanBackward0>)"),
    (
        lambda t: t.ones(3, dtype=t.float64, requires_grad=True) * 2,
        "tensor([2., 2., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)",
    ),
    (lambda t: (t.ones(2, requires_grad=True) * 2).detach(), "tensor([2., 2.])"),
    (lambda t: t.tensor([0.5684, -1.0845]), "tensor([ 0.5684, -1.0845])"),
    (lambda t: t.tensor([102.4, 1024.0, 0.1024]), "tensor([1.0240e+02, 1.0240e+03, 1.0240e-01])"),
    (lambda t: t.tensor(-0.0), "tensor(-0.)"),
    (lambda t: t.tensor([True, False]), "tensor([ True, False])"),
    (lambda t: t.tensor([1, 1, 1]), "tensor([1, 1, 1])"),
    (lambda t: t.tensor([-1, 2]), "tensor([-1,  2])"),
    (lambda t: t.tensor([float("nan"), 1.5, float("inf")]), "tensor([   nan, 1.5000,    inf])"),
    (lambda t: t.ones(0, 3), "tensor([], size=(0, 3))"),
    (lambda t: t.ones(0, dtype=t.int64), "tensor([], dtype=torch.int64)"),
    (lambda t: t.arange(1001.0), "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"),
    (
        lambda t: t.arange(12.0) / 7 + 1000,
        "tensor([1000.0000, 1000.1429, 1000.2857, 1000.4286, 1000.5714, 1000.7143,\n"
        "        1000.8571, 1001.0000, 1001.1429, 1001.2857, 1001.4286, 1001.5714])",
    ),
    (
        lambda t: t.ones(2, 8, dtype=t.float64, requires_grad=True) / 3,
        "tensor([[0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333],\n"
        "        [0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333, 0.3333]],\n"
        "       dtype=torch.float64, grad_fn=<DivBackward0>)",
    ),
]


@pytest.mark.parametrize("make, text", PRINTED, ids=[text.split("\n")[0][:40] for _, text in PRINTED])
def test_repr_is_pytorchs(make, text):
    assert repr(make(minigrad)) == text


def test_print_puts_two_tensors_on_one_line(capsys):
    print(minigrad.tensor([1.0, 2.0]), minigrad.tensor(1.0))
    assert capsys.readouterr().out == "tensor([1., 2.]) tensor(1.)\n"


def test_a_zero_dim_tensor_takes_a_format_spec():
    assert f"{minigrad.tensor(2.5):.2f}" == "2.50"


# ---------------------------------------------------------------- against PyTorch


def _rng_arrays():
    rng = np.random.default_rng(0)
    for shape in [(5, 3), (3,), (2, 2), (4, 20), (7, 13), (1, 30)]:
        yield rng.standard_normal(shape), "float32", False
        yield rng.standard_normal(shape) * 1000, "float32", True
        yield rng.standard_normal(shape) * 1e-3, "float32", False
        yield rng.integers(-100, 100, shape), "int64", False
        yield rng.standard_normal(shape), "float64", True


CASES = [
    (4.0, "float32", False), (float("nan"), "float32", False), (-float("inf"), "float32", True),
    ([1e-5, 1.0], "float32", False), ([1e8, 1.0], "float32", False), ([1e9], "float32", False),
    ([1.5e9, 2], "float32", False), ([1e-4], "float32", False), ([0.0001, 0.001], "float32", False),
    ([float("inf"), -1.0], "float32", False), ([float("nan"), float("inf"), -float("inf")], "float32", False),
    ([1, 2], "int32", False), ([100000, -3], "int64", False), ([1, 2], "uint8", False), ([1.5, 2.25], "float16", True),
    (np.arange(2000.0), "float32", False), (np.arange(2000).reshape(40, 50), "int64", False),
    (np.arange(24.0).reshape(2, 3, 4) - 12, "float32", True), (np.ones((2, 0, 3)), "float32", False),
    (np.ones((3, 0)), "bool", False), (np.linspace(-math.pi, math.pi, 2000), "float32", False),
    (np.linspace(-3, 3, 30).reshape(2, 15), "float32", True), (np.arange(17.0) * 123456.789, "float64", False),
    (np.arange(3000.0).reshape(10, 300), "float32", False), (np.arange(3000.0).reshape(300, 10), "float32", False),
    ([[1e-10, 1.0], [2.0, 3.0]], "float32", False), ([999.9999], "float32", False), ([99999.5, 0.5], "float32", False),
    (np.arange(12.0) * 1000, "float32", True), (np.arange(1200.0).reshape(2, 600) / 3, "float64", True),
    (np.arange(40) * 1000000007, "int64", False), ([[True, False] * 30], "bool", False),
    ([-0.0, 0.0], "float32", False),
    ([np.iinfo(np.int64).min, 0], "int64", False), ([65504.0, 1e-3], "float16", False), ([0.5] * 81, "float32", True),
    *_rng_arrays(),
]


def _same_repr(torch, array, requires_grad, through_op):
    """Print the array as a leaf, or as the result of an operation (with ``grad_fn=``)."""
    def text(lib):
        t = lib.tensor(array, requires_grad=requires_grad)
        return repr(t * 1 if through_op else t)

    return text(minigrad), text(torch)


@pytest.mark.parametrize("values, dtype, requires_grad", CASES)
def test_repr_matches_torch(values, dtype, requires_grad):
    torch = pytest.importorskip("torch")
    array = np.asarray(values).astype(dtype)
    for through_op in (False, True) if requires_grad else (False,):
        actual, expected = _same_repr(torch, array, requires_grad, through_op)
        assert actual == expected, f"\nexpected:\n{expected}\nactual:\n{actual}"


@settings(derandomize=True, deadline=None, max_examples=500, database=None)
@given(printable_arrays(), st.booleans(), st.booleans())
def test_repr_of_any_array_matches_torch(array, requires_grad, through_op):
    torch = pytest.importorskip("torch")
    requires_grad = requires_grad and array.dtype.kind == "f"
    actual, expected = _same_repr(torch, array, requires_grad, through_op and requires_grad)
    assert actual == expected, f"\nexpected:\n{expected}\nactual:\n{actual}"


def test_repr_under_another_default_dtype_matches_torch():
    torch = pytest.importorskip("torch")
    for lib in (torch, minigrad):
        lib.set_default_dtype(lib.float64)
    try:
        for make in (lambda t: t.tensor([1.5, 2]), lambda t: t.tensor([1.5], dtype=t.float32), lambda t: t.ones(2, 0)):
            assert repr(make(minigrad)) == repr(make(torch))
    finally:
        for lib in (torch, minigrad):
            lib.set_default_dtype(lib.float32)
