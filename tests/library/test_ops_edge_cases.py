"""prod, cumsum, var, std, masked_fill, gather, split, chunk, outer, Variable and new_*:
the fixed examples random inputs rarely hit (zeros in a product, pieces without a
gradient, PyTorch's argument forms and errors).

Each test states PyTorch's output (recorded from PyTorch 2.13), so it runs without
PyTorch; where PyTorch is installed, the same code also runs there (the ``lib`` fixture).
Random inputs against PyTorch and finite differences: the ``OPS`` table in strategies.py.
"""
import contextlib
import warnings

import numpy as np
import pytest

import minigrad as mg
from conftest import EDITION, error_of
from test_ops_numeric import check_gradients

pytestmark = [
    pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning:minigrad"),  # 0/0 and nan: as silent as PyTorch
]


def grad_of(lib, values, fn):
    x = lib.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


def saved(node, *names):
    return tuple(getattr(node, "_saved_" + name) for name in names)


# ---------------------------------------------------------------- prod


@pytest.mark.parametrize("values, expected", [
    ([2.0, 0.0, 3.0], [0.0, 6.0, 0.0]),  # one zero: only it has a gradient, the product of the others
    ([0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
    ([2.0, 4.0, 3.0], [12.0, 6.0, 8.0]),
    ([[2.0, 0.0], [1.0, 3.0]], [[0.0, 6.0], [0.0, 0.0]]),
])
def test_the_gradient_of_a_product_is_right_with_zeros(lib, values, expected):
    assert grad_of(lib, values, lambda x: x.prod()) == expected


def test_prod_along_a_dimension_with_zeros(lib):
    rows = [[2.0, 0.0, 3.0], [0.0, 0.0, 3.0], [1.0, 2.0, 3.0], [0.0, 4.0, 5.0]]
    assert grad_of(lib, rows, lambda x: x.prod(1)) == [
        [0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [6.0, 3.0, 2.0], [20.0, 0.0, 0.0]]
    assert grad_of(lib, rows, lambda x: lib.prod(x, 0, keepdim=True)) == [
        [0.0, 0.0, 45.0], [0.0, 0.0, 45.0], [0.0, 0.0, 45.0], [0.0, 0.0, 27.0]]


def test_prod_with_inf_and_nan_follows_pytorch(lib):
    nan = float("nan")
    grad = lambda values: np.array(grad_of(lib, values, lambda x: x.prod()))  # noqa: E731
    np.testing.assert_array_equal(grad([nan, 0.0, 2.0]), [0.0, nan, nan])
    np.testing.assert_array_equal(grad([float("inf"), 0.0, 2.0]), [0.0, float("inf"), nan])


def test_prod_nodes_dtypes_and_errors(lib):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert x.prod().grad_fn.name() == "ProdBackward0"
    y = x.prod(-1, keepdim=True)
    assert y.grad_fn.name() == "ProdBackward1" and y.tolist() == [[2.0], [12.0]]
    assert saved(y.grad_fn, "keepdim") == (True,) and y.grad_fn._saved_result.tolist() == [[2.0], [12.0]]
    assert lib.tensor([1, 2, 3], dtype=lib.int32).prod().dtype == lib.int64
    assert lib.tensor([True, False]).prod().item() == 0
    assert lib.tensor([1, 2, 3]).prod(dtype=lib.float32).dtype == lib.float32
    assert lib.ones(0, requires_grad=True).prod().item() == 1.0
    assert lib.tensor(2.0, requires_grad=True).prod(0).grad_fn.name() == "ProdBackward1"
    assert error_of(lambda: x.prod(2)) == (
        "IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got 2)")


# ---------------------------------------------------------------- cumsum


def test_cumsum_values_gradient_and_node(lib):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x.cumsum(1)
    assert y.tolist() == [[1.0, 3.0, 6.0], [4.0, 9.0, 15.0]]
    assert y.grad_fn.name() == "CumsumBackward0" and saved(y.grad_fn, "dim") == (1,)
    (y * lib.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [[111.0, 110.0, 100.0], [111.0, 110.0, 100.0]]
    assert lib.tensor([True, True]).cumsum(0).tolist() == [1, 2]
    assert lib.tensor([1, 2], dtype=lib.int32).cumsum(0).dtype == lib.int64
    assert lib.tensor([1, 2]).cumsum(0, dtype=lib.float64).dtype == lib.float64
    assert lib.cumsum(lib.tensor(2.0, requires_grad=True), 0).grad_fn.name() == "CumsumBackward0"


# ---------------------------------------------------------------- var and std


@pytest.mark.parametrize("call, correction, dim, shape", [
    (lambda x: x.var(), None, None, ()),
    (lambda x: x.var(False), 0, None, ()),
    (lambda x: x.var(unbiased=True), 1, None, ()),
    (lambda x: x.var(correction=2), 2, None, ()),
    (lambda x: x.var(1), 1, (1,), (2,)),
    (lambda x: x.var(1, False, True), 0, (1,), (2, 1)),
    (lambda x: x.var(dim=None, keepdim=True), 1, None, (1, 1)),
    (lambda x: x.var([0, 1]), 1, (0, 1), ()),
    (lambda x: x.var([]), 1, (), ()),
])
def test_var_reads_its_arguments_as_pytorch_does(lib, call, correction, dim, shape):
    x = lib.tensor([[1.0, 2.0, 4.0], [0.0, 3.0, 9.0]], requires_grad=True)
    y = call(x)
    assert y.grad_fn.name() == "VarBackward0" and tuple(y.shape) == shape
    assert saved(y.grad_fn, "correction", "dim") == (correction, dim)


def test_var_and_std_values_and_gradients(lib):
    x = lib.tensor([[1.0, 2.0, 4.0], [0.0, 3.0, 9.0]], dtype=lib.float64, requires_grad=True)
    np.testing.assert_allclose(x.var(1).tolist(), [7 / 3, 21.0])
    np.testing.assert_allclose(lib.std(x, 1, correction=0).tolist(), [np.std([1, 2, 4]), np.std([0, 3, 9])])
    x.var(1).sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [[-4 / 3, -1 / 3, 5 / 3], [-4.0, -1.0, 5.0]])
    y = x.std()
    assert y.grad_fn.name() == "StdBackward0" and saved(y.grad_fn, "correction", "dim") == (None, None)
    assert y.grad_fn._saved_result.item() == y.item()


def test_std_of_equal_values_has_zero_gradient_and_no_dof_gives_nan(lib):
    assert grad_of(lib, [1.0, 1.0, 1.0], lambda x: x.std()) == [0.0, 0.0, 0.0]
    with pytest.warns(UserWarning, match=r"var\(\): degrees of freedom is <= 0"), _silent_nan():
        assert np.isnan(grad_of(lib, [1.0], lambda x: x.var())).all()
    with pytest.warns(UserWarning, match=r"std\(\): degrees of freedom is <= 0"), _silent_nan():
        assert np.isnan(lib.ones(0).std().item())


@contextlib.contextmanager
def _silent_nan():
    """``pytest.warns`` shows every other warning again: numpy's 0/0 ones are expected here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=RuntimeWarning)
        yield


def test_var_errors(lib):
    x = lib.ones(2, 3)
    assert error_of(lambda: lib.tensor([1, 2]).var()) == (
        "RuntimeError", "std and var only support floating point and complex dtypes")
    assert error_of(lambda: x.var([1, -1])) == ("RuntimeError", "dim 1 appears multiple times in the list of dims")
    assert error_of(lambda: x.std(2)) == (
        "IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got 2)")


# ---------------------------------------------------------------- masked_fill


def test_masked_fill_with_a_number_and_with_a_tensor(lib):
    x = lib.tensor([[1.0, -2.0], [-3.0, 4.0]], requires_grad=True)
    y = x.masked_fill(x < 0, 0.5)
    assert y.tolist() == [[1.0, 0.5], [0.5, 4.0]] and y.grad_fn.name() == "MaskedFillBackward0"
    assert y.grad_fn._saved_mask.tolist() == [[False, True], [True, False]]
    value = lib.tensor(2.0, requires_grad=True)
    z = lib.masked_fill(x, lib.tensor([True, False]), value)  # the mask broadcasts
    assert z.grad_fn.name() == "MaskedFillBackward1" and len(z.grad_fn.next_functions) == 2
    (y.sum() + (z * 3).sum()).backward()
    assert x.grad.tolist() == [[1.0, 3.0], [0.0, 4.0]] and value.grad.item() == 6.0


def test_masked_fill_broadcasts_the_input_and_casts_the_value(lib):
    x = lib.ones(3, requires_grad=True)
    y = x.masked_fill(lib.tensor([[True, False, False], [False, False, True]]), 0.0)
    assert tuple(y.shape) == (2, 3)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 1.0]
    assert lib.ones(2, dtype=lib.int64).masked_fill(lib.tensor([True, False]), 2.7).tolist() == [2, 1]


def test_masked_fill_errors(lib):
    x = lib.ones(2, 3)
    assert error_of(lambda: x.masked_fill(lib.ones(2, 3, dtype=lib.int64), 1.0)) == (
        "RuntimeError", "masked_fill_ only supports boolean masks, but got mask with dtype long int")
    assert error_of(lambda: x.masked_fill(x > 0, lib.tensor([1.0]))) == (
        "RuntimeError",
        "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).")
    assert error_of(lambda: x.masked_fill(lib.tensor([True, False]), 1.0)) == (
        "RuntimeError", "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1")


# ---------------------------------------------------------------- gather


def test_gather_repeats_add_up_in_the_gradient(lib):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    index = lib.tensor([[0, 0, 2, 0], [1, 2, 2, 2]])
    y = x.gather(1, index)
    assert y.tolist() == [[1.0, 1.0, 3.0, 1.0], [5.0, 6.0, 6.0, 6.0]]
    assert y.grad_fn.name() == "GatherBackward0"
    assert saved(y.grad_fn, "dim", "sparse_grad") == (1, False) and y.grad_fn._saved_index.tolist() == index.tolist()
    y.sum().backward()
    assert x.grad.tolist() == [[3.0, 0.0, 1.0], [0.0, 1.0, 3.0]]
    small = lib.gather(x, 0, lib.tensor([[1]], dtype=lib.int32))  # smaller than the input; int32 is accepted
    assert small.tolist() == [[4.0]]
    assert lib.tensor(3.0).gather(0, lib.tensor([0, 0])).tolist() == [3.0, 3.0]


def test_gather_errors(lib):
    x = lib.ones(4, 5)
    index = lib.zeros(4, 2, dtype=lib.int64)
    assert error_of(lambda: x.gather(1, index.float())) == (
        "RuntimeError", "gather(): Expected dtype int32/int64 for index")
    assert error_of(lambda: x.gather(1, index[0])) == (
        "RuntimeError", "Index tensor must have the same number of dimensions as input tensor")
    assert error_of(lambda: x.gather(1, index + 5)) == (
        "RuntimeError", "index 5 is out of bounds for dimension 1 with size 5")
    assert error_of(lambda: x.gather(1, lib.zeros(5, 2, dtype=lib.int64))) == (
        "RuntimeError",
        "Size does not match at dimension 0 expected index [5, 2] to be no larger than self [4, 5] "
        "apart from dimension 1")


# ---------------------------------------------------------------- split and chunk


def test_split_pieces_share_one_node(lib):
    x = lib.tensor([[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0]], requires_grad=True)
    pieces = x.split(2, 1)
    assert [tuple(p.shape) for p in pieces] == [(2, 2), (2, 2), (2, 1)]
    assert all(p.grad_fn is pieces[0].grad_fn for p in pieces) and [p.output_nr for p in pieces] == [0, 1, 2]
    assert pieces[0].grad_fn.name() == "SplitBackward0" and pieces[0]._base is x
    assert saved(pieces[0].grad_fn, "dim", "self_sym_sizes", "split_size") == (1, (2, 5), 2)
    sized = lib.split(x, [1, 4], dim=1)
    assert sized[0].grad_fn.name() == "SplitWithSizesBackward0"
    assert saved(sized[0].grad_fn, "split_sizes") == ((1, 4),)
    assert x.chunk(2, 1)[0].grad_fn.name() == "SplitBackward0"


def test_pieces_without_a_gradient_get_zeros(lib):
    x = lib.ones(2, 5, requires_grad=True)
    first, middle, last = x.split(2, 1)
    (last * 3).sum().backward()  # the last, shorter piece alone
    assert x.grad.tolist() == [[0.0, 0.0, 0.0, 0.0, 3.0]] * 2
    x.grad = None
    first, middle, last = x.split(2, 1)
    middle.retain_grad()
    (first.sum() + (middle * 2).sum()).backward()
    assert x.grad.tolist() == [[1.0, 1.0, 2.0, 2.0, 0.0]] * 2 and middle.grad.tolist() == [[2.0, 2.0]] * 2


def test_chunk_sizes(lib):
    shapes = lambda pieces: [tuple(p.shape) for p in pieces]  # noqa: E731
    assert shapes(lib.ones(5).chunk(4)) == [(2,), (2,), (1,)]
    assert shapes(lib.ones(5).chunk(10)) == [(1,)] * 5
    assert shapes(lib.ones(0).chunk(3)) == [(0,)] * 3
    assert shapes(lib.ones(4, 0).split(0, 1)) == [(4, 0)]


def test_split_and_chunk_errors(lib):
    x = lib.ones(4, 5)
    assert error_of(lambda: x.split(0, 1)) == (
        "RuntimeError", "split_size can only be 0 if dimension size is 0, but got dimension size of 5")
    assert error_of(lambda: x.split(-1, 1)) == (
        "RuntimeError", "split expects split_size be non-negative, but got split_size=-1")
    assert error_of(lambda: x.split([2, 2], 1)) == (
        "RuntimeError",
        "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 1), "
        "but got split_sizes=[2, 2]")
    assert error_of(lambda: x.split([6, -1], 1)) == (
        "RuntimeError",
        "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[6, -1]")
    assert error_of(lambda: lib.tensor(1.0).split(1)) == (
        "RuntimeError", "split expects at least a 1-dimensional tensor")
    assert error_of(lambda: x.chunk(0)) == ("RuntimeError", "chunk expects `chunks` to be greater than 0, got: 0")
    assert error_of(lambda: lib.tensor(1.0).chunk(1)) == (
        "RuntimeError", "chunk expects at least a 1-dimensional tensor")


def test_a_piece_of_a_split_cannot_change_in_place(lib):
    x = lib.ones(4, 5, requires_grad=True)
    pieces = (x * 1).split([2, 3], 1)
    assert error_of(lambda: pieces[1].mul_(2)) == (
        "RuntimeError",
        "Output 1 of SplitWithSizes is a view and is being modified inplace. This view is the output of a function "
        "that returns multiple views. Such functions do not allow the output views to be modified inplace. You "
        "should replace the inplace operation by an out-of-place one.")
    plain = lib.ones(4).split(2)  # nothing requires grad: allowed
    plain[0].add_(1)
    with lib.no_grad():
        made_without_grad = (x * 1).split(2, 1)
    made_without_grad[0].add_(1)


# ---------------------------------------------------------------- outer


def test_outer_is_a_column_times_a_row(lib):
    a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0, 5.0], requires_grad=True)
    y = lib.outer(a, b)
    assert y.tolist() == [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]] and y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "ViewBackward0" and a.outer(b).tolist() == y.tolist()
    y.sum().backward()
    assert a.grad.tolist() == [12.0, 12.0] and b.grad.tolist() == [3.0, 3.0, 3.0]
    assert lib.outer(lib.tensor([1, 2]), lib.tensor([1.0, 2.0])).dtype == lib.float32
    assert error_of(lambda: lib.outer(lib.ones(2, 2), b)) == (
        "RuntimeError", "outer: Expected 1-D argument self, but got 2-D")
    assert error_of(lambda: lib.outer(b, lib.tensor(1.0))) == (
        "RuntimeError", "outer: Expected 1-D argument vec2, but got 0-D")


# ---------------------------------------------------------------- second derivatives


@pytest.mark.parametrize("fn", [
    lambda x: x.prod(), lambda x: x.prod(1), lambda x: x.cumsum(0) ** 2, lambda x: x.var(1), lambda x: x.std(),
    lambda x: x.masked_fill(x > 1.5, 0.5) ** 2, lambda x: x.gather(1, _index(x)) ** 2,
    lambda x: x.split([1, 2], 1)[1] ** 3,
], ids=["prod", "prod_dim", "cumsum", "var", "std", "masked_fill", "gather", "split"])
def test_second_derivatives_match_pytorch(fn):
    torch = pytest.importorskip("torch")
    values = [[2.0, 0.0, 3.0], [1.0, 2.0, 3.0]]

    def hessian_row(lib):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(fn(x).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad((g * lib.arange(6.0, dtype=lib.float64).reshape(2, 3)).sum(), x)
        return g.detach().numpy(), h.numpy()

    for expected, actual in zip(hessian_row(torch), hessian_row(mg)):
        np.testing.assert_allclose(actual, expected, rtol=1e-12)


def _index(x):
    return (mg if isinstance(x, mg.Tensor) else __import__("torch")).tensor([[0, 0], [2, 1]])


@pytest.mark.parametrize("fn, values", [
    (lambda lib, x: x.prod(1), [[2.0, 0.0, 3.0], [0.0, 0.0, 1.5], [1.0, -2.0, 0.5]]),
    (lambda lib, x: x.std(0, correction=0), [[2.0, 0.0, 3.0], [1.0, -2.0, 0.5]]),
    (lambda lib, x: x.split([1, 2], 1)[1] * 2, [[2.0, 0.0, 3.0], [1.0, -2.0, 0.5]]),
])
def test_fixed_examples_against_finite_differences(fn, values):
    check_gradients(fn, (np.array(values),))


# ---------------------------------------------------------------- is_tensor, Variable, new_*


def test_is_tensor_and_variable(lib):
    x = lib.ones(2)
    assert lib.is_tensor(x) and not lib.is_tensor([1.0]) and isinstance(x, lib.autograd.Variable)
    v = lib.autograd.Variable(x, requires_grad=True)
    assert v.requires_grad and v.is_leaf and v is not x and repr(v) == "tensor([1., 1.], requires_grad=True)"
    detached = lib.autograd.Variable(lib.ones(1, requires_grad=True) * 2)
    assert detached.grad_fn is None and not detached.requires_grad
    assert lib.autograd.Variable().tolist() == []
    assert error_of(lambda: lib.autograd.Variable([1.0])) == (
        "TypeError", "Variable data has to be a tensor, but got list")
    assert error_of(lambda: lib.autograd.Variable(lib.ones(1, dtype=lib.int64), requires_grad=True)) == (
        "RuntimeError", "Only Tensors of floating point and complex dtype can require gradients")


def test_new_tensors_take_the_dtype_of_self(lib):
    y = lib.tensor([1, 2], dtype=lib.int32)
    assert repr(y.new_ones(2, 3)) == "tensor([[1, 1, 1],\n        [1, 1, 1]], dtype=torch.int32)"
    assert repr(y.new_zeros((2,))) == "tensor([0, 0], dtype=torch.int32)"
    assert repr(y.new_full((2,), 3.5)) == "tensor([3, 3], dtype=torch.int32)"
    assert repr(y.new_tensor([1.5, 2])) == "tensor([1, 2], dtype=torch.int32)"
    assert tuple(y.new_empty(2).shape) == (2,) and tuple(y.new_ones(size=(2, 3)).shape) == (2, 3)
    x = lib.ones(2)
    assert repr(x.new_ones(2, requires_grad=True)) == "tensor([1., 1.], requires_grad=True)"
    assert repr(x.new_tensor([1, 2], dtype=lib.int64)) == "tensor([1, 2])"
    assert repr(lib.tensor([True]).new_full((2,), 3)) == "tensor([True, True])"
    with pytest.warns(UserWarning, match=r"rather than tensor\.new_tensor\(sourceTensor\)"):
        copy = x.new_tensor(lib.ones(2, requires_grad=True))
    assert copy.grad_fn is None and not copy.requires_grad
    assert error_of(lambda: y.new_ones(2, requires_grad=True)) == (
        "RuntimeError", "Only Tensors of floating point and complex dtype can require gradients")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.new_zeros(2)
