"""Every operation against PyTorch: values, dtypes, node names and gradients.

One helper, ``compare``, runs the same lambda on PyTorch and on minigrad (the style of
tinygrad's first ``test_ops.py``) and fails with the inputs, the expected and the
actual values. Hypothesis draws the inputs (``strategies.py``) with fixed seeds; run
with ``--hypothesis-show-statistics`` to see how many examples each test ran.
Fixed examples cover what random inputs rarely hit: ties, dtype promotion, error
messages and the shape of the graph.
"""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from support.strategies import DTYPES, EXAMPLES, OPS, arrays_in, as_arguments, leaves

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:minigrad")  # log(0), 1/0: as silent as PyTorch

TOLERANCE = {np.float32: dict(rtol=1e-4, atol=1e-5), np.float64: dict(rtol=1e-9, atol=1e-12)}


def _outputs(result):
    """An operation's result as a list of tensors (``max(dim)`` gives values and indices)."""
    return list(result) if isinstance(result, tuple) else [result]


def _numpy(t):
    return None if t is None else t.detach().numpy()


def _describe(inputs, expected, actual):
    return f"\ninputs:   {inputs!r}\nexpected: {expected!r}\nactual:   {actual!r}"


def _seed(t):
    """A gradient to start backward with, the same in both libraries and never uniform."""
    return np.cos(np.arange(t.numel())).reshape(tuple(t.shape)).astype(_numpy(t).dtype)


def compare(fn, drawn):
    """Run ``fn(lib, *inputs)`` in both libraries; compare outputs, then gradients."""
    expected_args, actual_args = as_arguments(torch, drawn), as_arguments(minigrad, drawn)
    expected_out, actual_out = _outputs(fn(torch, *expected_args)), _outputs(fn(minigrad, *actual_args))
    tolerance = TOLERANCE[next((a.dtype.type for a in arrays_in(drawn)), np.float32)]
    show = lambda: _describe(drawn, expected_out, actual_out)  # noqa: E731
    assert len(expected_out) == len(actual_out), show()
    for e, a in zip(expected_out, actual_out):
        assert repr(a.dtype) == repr(e.dtype) and tuple(a.shape) == tuple(e.shape), show()
        assert _close(_numpy(a), _numpy(e), tolerance), show()
        assert (a.grad_fn and a.grad_fn.name()) == (e.grad_fn and e.grad_fn.name()), show()
    differentiable = [(e, a) for e, a in zip(expected_out, actual_out) if e.requires_grad]
    if not differentiable:
        return
    torch.autograd.backward([e for e, _ in differentiable], [torch.tensor(_seed(e)) for e, _ in differentiable])
    minigrad.autograd.backward([a for _, a in differentiable], [minigrad.tensor(_seed(e)) for e, _ in differentiable])
    for e, a in zip(leaves(expected_args), leaves(actual_args)):
        grads = lambda: "gradients:" + _describe(drawn, _numpy(e.grad), _numpy(a.grad))  # noqa: E731
        assert (a.grad is None) == (e.grad is None), grads()
        assert e.grad is None or _close(_numpy(a.grad), _numpy(e.grad), tolerance), grads()


def _close(actual, expected, tolerance):
    return actual.shape == expected.shape and np.allclose(actual, expected, equal_nan=True, **tolerance)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
@settings(derandomize=True, deadline=None, max_examples=EXAMPLES, database=None)
@given(data=st.data())
def test_op_matches_torch(op, dtype, data):
    compare(op.fn, data.draw(op.inputs(dtype), label="inputs"))


# ---------------------------------------------------------------- fixed examples


def _fixed(*values, dtype=np.float32):
    return tuple(np.array(v, dtype=dtype) for v in values)


FIXED = [
    ("max with ties shares the gradient", lambda lib, a: a.max(), _fixed([[1.0, 3.0, 3.0]])),
    ("min with ties", lambda lib, a: a.min(), _fixed([2.0, -1.0, -1.0, -1.0])),
    ("max(dim) with ties picks one index", lambda lib, a: a.max(1), _fixed([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])),
    ("maximum with ties splits", lambda lib, a, b: lib.maximum(a, b), _fixed([1.0, 2.0, 3.0], [1.0, 0.0, 3.0])),
    ("minimum with ties splits", lambda lib, a, b: lib.minimum(a, b), _fixed([1.0, 2.0, 3.0], [1.0, 0.0, 5.0])),
    ("clamp at its bounds", lambda lib, a: a.clamp(0.0, 1.0), _fixed([-1.0, 0.0, 0.5, 1.0, 2.0])),
    ("clamp max only", lambda lib, a: a.clamp(max=0.5), _fixed([-1.0, 0.5, 2.0])),
    ("relu at zero", lambda lib, a: a.relu(), _fixed([-1.0, 0.0, 1.0])),
    ("abs at zero", lambda lib, a: a.abs(), _fixed([-1.0, 0.0, 1.0])),
    ("sum of a zero-dim tensor over dim 0", lambda lib, a: a.sum(0), _fixed(2.5)),
    ("max of a zero-dim tensor over dim 0", lambda lib, a: a.max(0), _fixed(2.5)),
    ("mean over no elements is nan", lambda lib, a: a.mean(), _fixed(np.zeros((0, 3)))),
    ("sum over an empty dimension", lambda lib, a: a.sum(0), _fixed(np.zeros((0, 3)))),
    ("sum over dim=() is over every dimension", lambda lib, a: a.sum(()), _fixed(np.arange(6.0).reshape(2, 3))),
    ("sum over dim=() keeping them", lambda lib, a: a.sum(dim=(), keepdim=True), _fixed(np.arange(6.0).reshape(2, 3))),
    ("mean over dim=[] is over every dimension", lambda lib, a: a.mean([]), _fixed(np.arange(6.0).reshape(2, 3))),
    ("mean over dim=() keeping them", lambda lib, a: a.mean(axis=(), keepdims=True), _fixed(np.arange(6.0).reshape(2, 3))),
    ("cat skips empty 1-D tensors", lambda lib, a, b: lib.cat([a, b]), _fixed(np.ones((2, 3)), np.zeros(0))),
    ("stack of zero-dim tensors", lambda lib, a, b: lib.stack([a, b]), _fixed(1.0, 2.0)),
    ("1-D @ 2-D", lambda lib, a, b: a @ b, _fixed(np.arange(3.0), np.ones((3, 2)))),
    ("2-D @ 3-D folds through transposes", lambda lib, a, b: a @ b, _fixed(np.ones((2, 3)), np.ones((4, 3, 2)))),
    ("1-D @ 3-D folds", lambda lib, a, b: a @ b, _fixed(np.arange(3.0), np.ones((4, 3, 2)))),
    ("3-D @ 3-D is batched", lambda lib, a, b: a @ b, _fixed(np.ones((2, 2, 3)), np.ones((2, 3, 4)))),
    ("mv", lambda lib, a, b: lib.mv(a, b), _fixed(np.ones((2, 3)), np.arange(3.0))),
    ("dot", lambda lib, a, b: lib.dot(a, b), _fixed(np.arange(3.0), np.ones(3))),
    ("bmm", lambda lib, a, b: lib.bmm(a, b), _fixed(np.ones((2, 2, 3)), np.ones((2, 3, 4)))),
    ("argmax of everything", lambda lib, a: a.argmax(), _fixed([[1.0, 5.0], [7.0, 2.0]])),
    ("float64 zero-dim with float32", lambda lib, a, b: a * b.double(), _fixed([1.0, 2.0], 3.0)),
    ("rounded division", lambda lib, a, b: a.div(b, rounding_mode="floor"), _fixed([1.5, -2.5], [2.0, 2.0])),
    ("integer exponent tensor", lambda lib, a: a ** lib.tensor([1, 2, 3]), _fixed([[1.5], [2.0]])),
    ("norm over a dimension", lambda lib, a: a.norm(dim=1), _fixed([[3.0, 4.0], [1.0, 0.5]])),
    ("log of zero is -inf", lambda lib, a: a.log(), _fixed([0.0, 1.0])),
    ("division by zero is inf", lambda lib, a: 1.0 / a, _fixed([0.0, -2.0])),
]


@pytest.mark.parametrize("fn, drawn", [case[1:] for case in FIXED], ids=[case[0] for case in FIXED])
def test_fixed_example_matches_torch(fn, drawn):
    compare(fn, drawn)


# ---------------------------------------------------------------- dtype promotion


def _operand(lib, kind, dtype):
    """A tensor with dimensions, a zero-dim tensor, or a Python number of ``dtype``'s kind."""
    values = {"bool": [True, False], "int32": [3, 2], "int64": [5, 2], "float32": [1.5, -0.5], "float64": [2.25, 4.0]}
    if kind == "tensor":
        return lib.tensor(values[dtype], dtype=getattr(lib, dtype))
    if kind == "zero-dim":
        return lib.tensor(values[dtype][0], dtype=getattr(lib, dtype))
    return {"bool": True, "int64": 3, "float64": 2.5}[dtype]


OPERANDS = [("tensor", d) for d in ("bool", "int32", "int64", "float32", "float64")]
OPERANDS += [("zero-dim", d) for d in ("bool", "int32", "int64", "float32", "float64")]
OPERANDS += [("number", d) for d in ("bool", "int64", "float64")]
BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
    "pow": lambda a, b: a**b, "eq": lambda a, b: a == b, "lt": lambda a, b: a < b,
}


def _outcome(fn):
    """The result's dtype and values, or the error's type and text."""
    try:
        result = fn()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return repr(result.dtype), _numpy(result).tolist()


# bool tensor ** True is a bool tensor in PyTorch; minigrad, like numpy, says int8.
KNOWN_DIFFERENCES = {("pow", ("number", "bool"))}


def _same_outcome(expected, actual):
    if isinstance(expected, str) or isinstance(actual, str):
        return expected == actual
    return expected[0] == actual[0] and np.allclose(expected[1], actual[1], equal_nan=True)


@pytest.mark.parametrize("name", BINARY)
def test_binary_dtypes_match_torch(name):
    """Every pair of (tensor, zero-dim tensor, number) x (bool, int32, int64, float32, float64)."""
    op, mismatches = BINARY[name], []
    for left, right in itertools.product(OPERANDS[:10], OPERANDS):
        for a, b in ((left, right), (right, left)):
            if a[0] == "number" and b[0] == "number":
                continue
            if (name, b) in KNOWN_DIFFERENCES:
                continue
            expected = _outcome(lambda: op(_operand(torch, *a), _operand(torch, *b)))
            actual = _outcome(lambda: op(_operand(minigrad, *a), _operand(minigrad, *b)))
            if not _same_outcome(expected, actual):
                mismatches.append(f"{a} {name} {b}: torch {expected}, minigrad {actual}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("kind", ["where", "maximum", "cat", "clamp"])
def test_selection_dtypes_match_torch(kind):
    calls = {
        "where": lambda lib, a, b: lib.where(lib.tensor([True, False]), a, b),
        "maximum": lambda lib, a, b: lib.maximum(a, b),
        "cat": lambda lib, a, b: lib.cat([a, b]),
        "clamp": lambda lib, a, b: a.clamp(b.item() if hasattr(b, "item") else b),
    }
    mismatches = []
    for a, b in itertools.product(OPERANDS[:5], OPERANDS[:5] + OPERANDS[10:]):
        if kind in ("maximum", "cat") and b[0] == "number" or kind == "clamp" and "bool" in (a[1], b[1]):
            continue  # maximum and cat take tensors only; PyTorch has no clamp for bools
        expected = _outcome(lambda: calls[kind](torch, _operand(torch, *a), _operand(torch, *b)))
        actual = _outcome(lambda: calls[kind](minigrad, _operand(minigrad, *a), _operand(minigrad, *b)))
        if not _same_outcome(expected, actual):
            mismatches.append(f"{a} {kind} {b}: torch {expected}, minigrad {actual}")
    assert not mismatches, "\n".join(mismatches)


# ---------------------------------------------------------------- errors


def _error(fn):
    try:
        fn()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return "no error"


non_broadcastable = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=3, min_side=2, max_side=4).map(
    lambda pair: pair.input_shapes
).flatmap(lambda shapes: st.tuples(st.just(shapes[0]), st.integers(0, len(shapes[1]) - 1), st.just(shapes[1])))


@settings(derandomize=True, deadline=None, max_examples=40, database=None)
@given(non_broadcastable, st.sampled_from(["add", "mul", "div", "sub", "pow", "eq", "maximum", "where"]))
def test_broadcasting_errors_read_as_torch(shapes, name):
    first, dim, second = shapes
    second = second[:dim] + (second[dim] + 5,) + second[dim + 1 :]  # this dimension can no longer broadcast
    calls = dict(BINARY, maximum=lambda a, b: (a.maximum(b)), where=lambda a, b: minigrad_or_torch_where(a, b))

    def run(lib):
        a, b = lib.ones(first), lib.ones(second)
        if name == "where":
            return _error(lambda: lib.where(a > 0, a, b))
        return _error(lambda: calls[name](a, b))

    assert run(minigrad) == run(torch)


def minigrad_or_torch_where(a, b):  # only for the table above; the test calls lib.where itself
    raise AssertionError


ERRORS = [
    lambda lib: lib.ones(2, 3) @ lib.ones(4, 5),
    lambda lib: lib.ones(2, 3) @ lib.ones(4),
    lambda lib: lib.ones(3) @ lib.ones(4),
    lambda lib: lib.ones(2, 2, 3) @ lib.ones(2, 4, 5),
    lambda lib: lib.ones(2, 2, 3) @ lib.ones(3, 3, 5),
    lambda lib: lib.ones(2, 2) @ lib.ones(2, 2, dtype=lib.float64),
    lambda lib: lib.ones(2) @ lib.ones(2, dtype=lib.float64),
    lambda lib: lib.ones(2, 2) @ lib.ones(2, dtype=lib.int64),
    lambda lib: lib.ones(2, 2, 2) @ lib.ones(2, 2, 2, dtype=lib.float64),
    lambda lib: lib.mm(lib.ones(2, 2), lib.ones(2)),
    lambda lib: lib.mv(lib.ones(2), lib.ones(2)),
    lambda lib: lib.dot(lib.ones(2, 2), lib.ones(2, 2)),
    lambda lib: lib.tensor(2.0) @ lib.ones(2),
    lambda lib: lib.cat([lib.ones(2, 3), lib.ones(1, 2)]),
    lambda lib: lib.cat([lib.ones(2), lib.ones(2, 3)]),
    lambda lib: lib.cat([lib.ones(2), lib.tensor(1.0)]),
    lambda lib: lib.cat([]),
    lambda lib: lib.cat([lib.ones(2)], dim=1),
    lambda lib: lib.stack([lib.ones(3, 4), lib.ones(1, 4)]),
    lambda lib: lib.stack([lib.ones(2)], dim=2),
    lambda lib: lib.ones(2).sum(1),
    lambda lib: lib.ones(2, 3).max(-3),
    lambda lib: lib.ones(0, 3).max(),
    lambda lib: lib.ones(0, 3).max(0),
    lambda lib: lib.tensor([1, 2]).mean(),
    lambda lib: lib.ones(2, 3).sum(0, keepdim=1),
    lambda lib: lib.ones(2, 3).sum(axis=0, keepdims=1),
    lambda lib: lib.ones(2, 3).sum(0, keepdim=None),
    lambda lib: lib.ones(2, 3).mean(0, keepdim=np.True_),
    lambda lib: -lib.tensor([True]),
    lambda lib: ~lib.ones(2),
    lambda lib: lib.where(lib.ones(2), lib.ones(2), lib.ones(2)),
    lambda lib: lib.maximum(lib.ones(2), 2),
    lambda lib: lib.isclose(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.allclose(lib.ones(2), lib.ones(3)),
    lambda lib: lib.ones(2).clamp(),
    lambda lib: lib.ones(2).div(2, rounding_mode="round"),
]


@pytest.mark.parametrize("make_error", ERRORS)
def test_error_reads_as_torch(make_error):
    assert _error(lambda: make_error(minigrad)) == _error(lambda: make_error(torch))


# ---------------------------------------------------------------- graph shapes


def _graph(t):
    """The graph behind ``t`` as nested node names (``AccumulateGrad`` for leaves)."""
    def walk(node):
        if node is None:
            return None
        return node.name().replace("torch::autograd::", ""), tuple(walk(n) for n, _ in node.next_functions)

    return walk(t.grad_fn)


GRAPHS = [
    lambda lib, w, x: lib.matmul(x[0], w) + w[0],
    lambda lib, w, x: 1 - w,
    lambda lib, w, x: 1 / w,
    lambda lib, w, x: 2**w,
    lambda lib, w, x: w**w,
    lambda lib, w, x: (w * w).sum(1),
    lambda lib, w, x: w.max(0).values.mean(),
    lambda lib, w, x: lib.where(w > 0, w, x),
    lambda lib, w, x: lib.cat([w, x, w], 1),
    lambda lib, w, x: lib.stack([w, x]).sum((0, 2)),
    lambda lib, w, x: x.unsqueeze(0) @ w.unsqueeze(0),
    lambda lib, w, x: x.expand(2, 3, 3) @ w,  # a reshape that copies: CloneBackward0, UnsafeViewBackward0
    lambda lib, w, x: w @ x.expand(2, 3, 3),  # a reshape that copies: CloneBackward0, UnsafeViewBackward0
    lambda lib, w, x: x[0] @ lib.stack([w, w]),  # a reshape that copies: CloneBackward0, UnsafeViewBackward0
    lambda lib, w, x: lib.mv(w, x[1]) * lib.dot(x[0], x[1]),
    lambda lib, w, x: w.clamp(0, 1).sigmoid().tanh().relu().exp().log().abs().sqrt(),
    lambda lib, w, x: w.div(2, rounding_mode="floor") + x.reciprocal() - x.neg(),
]


@pytest.mark.parametrize("build", GRAPHS)
def test_graph_has_torchs_nodes(build):
    def make(lib):
        w = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [1.0, 2.0, 3.0]], requires_grad=True)
        x = lib.tensor([[1.0, 2.0, 0.5], [0.5, 1.0, 1.5], [2.0, 1.0, 0.1]], requires_grad=True)
        return _graph(build(lib, w, x))

    assert make(minigrad) == make(torch)


def test_a_float32_chain_with_python_numbers_has_pytorchs_gradient_bit_for_bit():
    """A Python number saved for backward is multiplied in the tensor's dtype, as in PyTorch."""

    def chain(lib):
        x = lib.tensor([0.3, -1.7, 2.2, 5.0], requires_grad=True)
        y = x
        for _ in range(200):
            y = y * 1.01 / 3.0 * 2.9
        y.sum().backward()
        return x.grad.numpy()

    np.testing.assert_array_equal(chain(minigrad), chain(torch))


@pytest.mark.parametrize("exponent", [2, 3, -1, -2, -0.5, 2.0, 3.0])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_small_powers_round_as_pytorchs_do(exponent, dtype):
    """PyTorch multiplies for x ** 2, x ** 3, x ** -2 (and divides for -1, -0.5): the same bits here."""
    data = (np.random.default_rng(1).random(2000) * 4 + 0.05).astype(dtype)
    results = {}
    for lib in (minigrad, torch):
        x = lib.tensor(data, requires_grad=True)
        y = x ** exponent
        y.sum().backward()
        results[lib.__name__] = (y.detach().numpy(), x.grad.numpy())
    np.testing.assert_array_equal(results["minigrad"][0], results["torch"][0])
    if exponent in (2, 3, -1, 2.0, 3.0):  # their gradients use a special power again; others a general one
        np.testing.assert_array_equal(results["minigrad"][1], results["torch"][1])
