"""The names added for PyTorch 2.13 code: tril/triu, rsqrt, repeat, topk, roll, einsum, torch.linalg,
result_type, Tensor.type and Tensor.bernoulli, each against PyTorch (values, node names, gradients) and,
for gradients, against central differences. Fixed seeds throughout."""
import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def _run(lib, fn, arrays):
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *leaves)
    seed = np.cos(np.arange(out.numel())).reshape(tuple(out.shape))
    out.backward(lib.tensor(seed))
    return out, [x.grad for x in leaves]


def _central(fn, arrays, eps=1e-6):
    """d(sum(seed * fn))/d(each array) by central differences, in float64."""
    def loss(values):
        out = fn(minigrad, *[minigrad.tensor(v) for v in values])._array
        return float((np.cos(np.arange(out.size)).reshape(out.shape) * out).sum())
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            up, down = [v.copy() for v in arrays], [v.copy() for v in arrays]
            up[i][index] += eps
            down[i][index] -= eps
            g[index] = (loss(up) - loss(down)) / (2 * eps)
        grads.append(g)
    return grads


def check(fn, *shapes, arrays=None, node=True, seed=0):
    """``fn`` in both libraries: the same values, node name and gradients, and gradients that are central differences."""
    rng = np.random.default_rng(seed)
    arrays = arrays or [rng.standard_normal(s) for s in shapes]
    expected, expected_grads = _run(torch, fn, arrays)
    actual, actual_grads = _run(minigrad, fn, arrays)
    assert tuple(actual.shape) == tuple(expected.shape) and repr(actual.dtype) == repr(expected.dtype)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=1e-9, atol=1e-12)
    if node:
        assert actual.grad_fn.name() == expected.grad_fn.name()
    for a, e, c in zip(actual_grads, expected_grads, _central(fn, arrays)):
        np.testing.assert_allclose(a.numpy(), e.numpy(), rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(a.numpy(), c, rtol=1e-5, atol=1e-6)


def errors(fn):
    """The type and text of the error ``fn(lib)`` raises, in each library."""
    found = []
    for lib in (torch, minigrad):
        with pytest.raises(Exception) as info:
            fn(lib)
        found.append(str(info.value))
    assert found[0] == found[1], found


# ---------------------------------------------------------------- tril, triu, masked_fill


@pytest.mark.parametrize("diagonal", [-2, -1, 0, 1, 3])
def test_tril_and_triu_keep_their_triangle_and_its_gradient(diagonal):
    check(lambda lib, a: lib.tril(a, diagonal) * 1.5 + a.triu(diagonal=diagonal), (2, 3, 4))


def test_tril_needs_a_matrix():
    errors(lambda lib: lib.tril(lib.ones(3)))
    errors(lambda lib: lib.ones(3).triu())


def test_a_causal_mask_built_with_triu_and_masked_fill():
    check(lambda lib, a: a.masked_fill(lib.ones(3, 3).triu(1) > 0, -2.0), (3, 3))


# ---------------------------------------------------------------- rsqrt, repeat, topk, roll


def test_rsqrt():
    check(lambda lib, a: lib.rsqrt(a) + a.rsqrt() * 2, arrays=[np.linspace(0.2, 3, 6).reshape(2, 3)])


@pytest.mark.parametrize("sizes", [(2, 1), (1, 3), (2, 2, 3), (3, 1, 1, 2)])
def test_repeat_sums_the_tiles_back(sizes):
    check(lambda lib, a: a.repeat(*sizes), (2, 3))
    check(lambda lib, a: a.repeat(sizes), (2, 3))


def test_repeat_needs_a_size_per_dimension():
    errors(lambda lib: lib.ones(2, 3).repeat(2))


@pytest.mark.parametrize("k, dim, largest", [(1, -1, True), (2, 0, False), (3, 1, True), (0, 1, True)])
def test_topk_returns_named_values_and_indices(k, dim, largest):
    rng = np.random.default_rng(1)
    array = rng.permutation(12).reshape(3, 4).astype(float)
    check(lambda lib, a: lib.topk(a, k, dim=dim, largest=largest).values * 2, arrays=[array])
    expected, actual = torch.topk(torch.tensor(array), k, dim, largest), minigrad.topk(minigrad.tensor(array), k, dim, largest)
    assert repr(actual) == repr(expected)
    assert actual.indices.tolist() == expected.indices.tolist()


def test_topk_refuses_k_beyond_the_dimension():
    errors(lambda lib: lib.ones(3).topk(4))


@pytest.mark.parametrize("shifts, dims", [(1, 0), (-2, 1), ((1, 2), (0, 1)), (5, None), ((1, -1), (1, 0))])
def test_roll(shifts, dims):
    check(lambda lib, a: lib.roll(a, shifts, dims), (3, 4))
    assert (minigrad.arange(12).reshape(3, 4).roll(shifts, dims).tolist()
            == torch.arange(12).reshape(3, 4).roll(shifts, dims).tolist())


def test_roll_needs_one_shift_per_dimension():
    errors(lambda lib: lib.roll(lib.ones(2, 3), (1, 2), (0,)))
    errors(lambda lib: lib.roll(lib.ones(2, 3), (1, 2)))


# ---------------------------------------------------------------- einsum

EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("ii", [(3, 3)]), ("ii->i", [(3, 3)]),
    ("ij->ji", [(2, 3)]), ("i,i", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]), ("...ij->...", [(2, 3, 4)]), ("ij->", [(2, 3)]), ("ij->i", [(2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("iij->j", [(3, 3, 2)]), ("i,i,i->", [(4,), (4,), (4,)]),
    ("ij,ij->ij", [(2, 1), (2, 3)]), ("...i,i", [(2, 3), (3,)]), ("ba,ac", [(2, 3), (3, 2)]), ("iji->j", [(2, 3, 2)]),
]


@pytest.mark.parametrize("equation, shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_values_and_gradients(equation, shapes):
    check(lambda lib, *xs: lib.einsum(equation, *xs), *shapes, node=False)  # PyTorch records its decomposition


def test_einsum_takes_a_list_and_records_its_own_backward_for_second_order():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 2))
    grads = []
    for lib in (torch, minigrad):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        (gx,) = lib.autograd.grad(lib.einsum("ij,jk->", [x * x, y]), x, create_graph=True)
        (gx * gx).sum().backward()
        grads.append((x.grad.numpy(), y.grad.numpy()))
    for e, m in zip(*grads):
        np.testing.assert_allclose(m, e, rtol=1e-10)


def test_einsum_errors():
    errors(lambda lib: lib.einsum("ij,jk", lib.ones(2, 3), lib.ones(2, 3)))
    errors(lambda lib: lib.einsum("ij", lib.ones(2, 3), lib.ones(2, 3)))
    errors(lambda lib: lib.einsum("ijk", lib.ones(2, 3)))


# ---------------------------------------------------------------- torch.linalg

NORMS = {
    "default": lambda lib, a: lib.linalg.norm(a),
    "dim_keepdim": lambda lib, a: lib.linalg.norm(a, dim=1, keepdim=True),
    "ord3": lambda lib, a: lib.linalg.norm(a[0], 3),
    "ord1_dim": lambda lib, a: lib.linalg.norm(a, 1, dim=0),
    "inf": lambda lib, a: lib.linalg.norm(a, float("inf"), dim=-1),
    "minus_inf": lambda lib, a: lib.linalg.vector_norm(a, -float("inf")),
    "half": lambda lib, a: lib.linalg.vector_norm(a, 0.5, dim=(0, 1)),
    "fro": lambda lib, a: lib.linalg.norm(a, "fro"),
    "fro_dims": lambda lib, a: lib.linalg.norm(a, dim=(0, 1), keepdim=True),
    "matrix_norm": lambda lib, a: lib.linalg.matrix_norm(a),
}


@pytest.mark.parametrize("name", NORMS)
def test_norms(name):
    check(NORMS[name], (3, 4))


def test_an_ord_0_norm_counts_and_leaves_no_gradient():
    for lib in (torch, minigrad):
        x = lib.tensor([[0.0, 1.0], [2.0, 0.0]], requires_grad=True)
        out = lib.linalg.vector_norm(x, 0, dim=1)
        out.sum().backward()
        assert out.tolist() == [1.0, 1.0] and x.grad is None


LINALG = {
    "inv": (lambda lib, a: lib.linalg.inv(a), [(3, 3)]),
    "inv_batch": (lambda lib, a: lib.linalg.inv(a), [(2, 3, 3)]),
    "inverse": (lambda lib, a: a.inverse(), [(3, 3)]),
    "det": (lambda lib, a: lib.linalg.det(a), [(3, 3)]),
    "det_batch": (lambda lib, a: lib.det(a), [(2, 3, 3)]),
    "solve_vector": (lambda lib, a, b: lib.linalg.solve(a, b), [(3, 3), (3,)]),
    "solve_matrix": (lambda lib, a, b: lib.linalg.solve(a, b), [(3, 3), (3, 2)]),
    "solve_batch_of_vectors": (lambda lib, a, b: lib.linalg.solve(a, b), [(2, 3, 3), (2, 3)]),
    "solve_broadcast": (lambda lib, a, b: lib.linalg.solve(a, b), [(3, 3), (2, 3, 2)]),
}


@pytest.mark.parametrize("name", LINALG)
def test_inverses(name):
    fn, shapes = LINALG[name]
    check(fn, *shapes, seed=3)


def test_linalg_second_order_matches_pytorch():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal(3)
    grads = []
    for lib in (torch, minigrad):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = lib.linalg.det(x) * lib.linalg.solve(x, y).sum() + lib.linalg.inv(x).sum() + lib.linalg.vector_norm(x, 3)
        (gx,) = lib.autograd.grad(out, x, create_graph=True)
        (gx * gx).sum().backward()
        grads.append((x.grad.numpy(), y.grad.numpy()))
    for e, m in zip(*grads):
        np.testing.assert_allclose(m, e, rtol=1e-8, atol=1e-10)


def test_the_determinant_of_a_singular_matrix_has_the_cofactors_as_gradient():
    """PyTorch 2.13 answers 0 here; the cofactor matrix is the true derivative (central differences)."""
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])
    x = minigrad.tensor(a, requires_grad=True)
    minigrad.linalg.det(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), _central(lambda lib, m: lib.linalg.det(m), [a])[0], atol=1e-6)


def test_linalg_errors_are_pytorchs():
    errors(lambda lib: lib.linalg.inv(lib.tensor([[1.0, 2.0], [2.0, 4.0]])))
    errors(lambda lib: lib.linalg.inv(lib.zeros(2, 2, 2)))
    errors(lambda lib: lib.linalg.inv(lib.ones(2, 3)))
    errors(lambda lib: lib.linalg.det(lib.ones(3)))
    errors(lambda lib: lib.linalg.solve(lib.zeros(2, 2, 2), lib.ones(2, 2)))
    errors(lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3)))
    errors(lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), 2))
    errors(lambda lib: lib.linalg.norm(lib.ones(3), "fro"))
    errors(lambda lib: lib.linalg.vector_norm(lib.ones(2, dtype=lib.long)))
    with pytest.raises(minigrad.linalg.LinAlgError):
        minigrad.linalg.inv(minigrad.zeros(2, 2))
    assert issubclass(minigrad.linalg.LinAlgError, RuntimeError)


# ---------------------------------------------------------------- result_type, type, bernoulli


@pytest.mark.parametrize("make", [
    lambda lib: (lib.ones(2), lib.ones(2).long()), lambda lib: (1, lib.ones(2)), lambda lib: (True, 2),
    lambda lib: (lib.tensor(1), 2.5), lambda lib: (1, 2), lambda lib: (lib.ones(2, dtype=lib.int32), lib.tensor(2.5, dtype=lib.float64)),
    lambda lib: (lib.ones(2, dtype=lib.uint8), lib.ones(2, dtype=lib.int8)),
])
def test_result_type(make):
    assert repr(minigrad.result_type(*make(minigrad))) == repr(torch.result_type(*make(torch)))


def test_type_names_and_converts():
    for lib in (torch, minigrad):
        x = lib.ones(2)
        assert x.type() == "torch.FloatTensor" and x.type(x.type()) is x and x.type(lib.float32) is x
        assert x.type(lib.IntTensor).type() == "torch.IntTensor"
        assert x.type("torch.DoubleTensor").dtype == lib.float64 and x.type(lib.float16).type() == "torch.HalfTensor"
        assert x.type(dtype=lib.float64).type() == "torch.DoubleTensor"
        assert lib.LongTensor([1, 2]).type() == "torch.LongTensor"
    errors(lambda lib: lib.ones(2).type("float"))


def test_bernoulli_as_a_method_draws_what_pytorch_draws():
    drawn = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        p = lib.rand(3, 5)
        drawn.append([p.bernoulli().tolist(), lib.bernoulli(p).tolist(), p.bernoulli(0.3).tolist()])
    assert drawn[0] == drawn[1]
