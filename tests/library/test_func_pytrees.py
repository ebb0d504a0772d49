"""``torch.func`` on pytrees: dicts, lists and tuples of tensors (nested) in and out of every transform.

Each case runs the same program on minigrad and on PyTorch, from the same numpy values, and
the two results must have the same structure (dict keys in order, list or tuple) and the same
values. Then ``stack_module_state``, the "meta" device of ``Module.to('meta')``, the batched
``diagonal`` and ``nn.init.eye_`` that the corpus programs func_ensembling, func_ntk and
nn_init use.
"""
import copy

import numpy as np
import pytest

import minigrad
from conftest import EDITION, error_of

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="the transforms need the engine the learner writes")

RNG = np.random.default_rng(33)
W1, B1, W2 = (RNG.standard_normal(s).astype(np.float32) for s in ((4, 3), (4,), (2, 4)))
X, XS = RNG.standard_normal(3).astype(np.float32), RNG.standard_normal((5, 3)).astype(np.float32)


def _params(lib):
    """A nested pytree of parameters: a dict holding a tensor, a list and a tuple."""
    return {"w1": lib.tensor(W1), "rest": [lib.tensor(B1), (lib.tensor(W2),)]}


def _net(params, x):
    w1, (b1, (w2,)) = params["w1"], params["rest"]
    return w2 @ (w1 @ x + b1).tanh()


def _loss(params, x):
    return _net(params, x).pow(2).sum()


def _plain(tree):
    """``tree`` with numpy arrays for tensors, its dicts, lists and tuples kept."""
    if isinstance(tree, dict):
        return {k: _plain(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_plain(v) for v in tree)
    return tree.detach().numpy() if hasattr(tree, "detach") else tree


def _assert_same(got, want, where="result"):
    assert type(got) is type(want), f"{where}: {type(got).__name__} where PyTorch has {type(want).__name__}"
    if isinstance(want, dict):
        assert list(got) == list(want), where
        for k in want:
            _assert_same(got[k], want[k], f"{where}[{k!r}]")
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want), where
        for k, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{k}]")
    elif isinstance(want, np.ndarray):
        assert got.shape == want.shape and got.dtype == want.dtype, where
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=where)
    else:
        assert got == want, where


def _grad(lib):
    return lib.func.grad(_loss)(_params(lib), lib.tensor(X))


def _grad_and_value_two_args_with_aux(lib):
    def loss(params, xs):
        out = _net(params, xs[0]) * xs[1].sum()
        return out.sum(), {"out": out, "sq": [out * out]}

    return lib.func.grad_and_value(loss, argnums=(0, 1), has_aux=True)(_params(lib), [lib.tensor(X), lib.tensor(X)])


def _vjp(lib):
    def f(params, x):
        return {"y": _net(params, x), "pair": (x.sin(), params["w1"].sum())}

    out, vjp_fn = lib.func.vjp(f, _params(lib), lib.tensor(X))
    cotangent = {"y": lib.ones(2), "pair": (lib.tensor(X), lib.tensor(2.0))}
    return out, vjp_fn(cotangent)


def _jacrev_dict(lib):
    return lib.func.jacrev(_net)(_params(lib), lib.tensor(X))


def _jacfwd_dict(lib):
    return lib.func.jacfwd(_net)(_params(lib), lib.tensor(X))


def _tree_valued(a, b):
    return (a * b["x"].sum(), {"s": b["y"][0] * a.sum()})


def _tree_args():
    return RNG.standard_normal(2).astype(np.float32), RNG.standard_normal(3).astype(np.float32)


A, BX = _tree_args()


def _jacrev_tree_out(lib):
    b = {"x": lib.tensor(BX), "y": [lib.tensor(A[:1])]}
    return lib.func.jacrev(_tree_valued, argnums=(0, 1))(lib.tensor(A), b)


def _jacfwd_tree_out(lib):
    b = {"x": lib.tensor(BX), "y": [lib.tensor(A[:1])]}
    return lib.func.jacfwd(_tree_valued, argnums=1)(lib.tensor(A), b)


def _jvp_tree(lib):
    b = {"x": lib.tensor(BX), "y": [lib.tensor(A[:1])]}
    return lib.func.jvp(_tree_valued, (lib.tensor(A), b), (lib.ones(2), {"x": lib.ones(3), "y": [lib.ones(1)]}))


def _stacked_params(lib):
    weights = {"w": lib.tensor(W1), "b": lib.tensor(B1)}
    return {k: lib.stack([v * (i + 1) for i in range(5)]) for k, v in weights.items()}


def _vmap_prefix_in_dims(lib):
    """Stacked dicts mapped at 0, a shared input (None), a dict output stacked at 1."""

    def f(params, buffers, x):
        return {"h": params["w"] @ x + params["b"], "scaled": [x * buffers["s"]]}

    buffers = {"s": lib.arange(5.0)}
    return lib.vmap(f, in_dims=(0, 0, None), out_dims=1)(_stacked_params(lib), buffers, lib.tensor(X))


def _vmap_per_key_in_dims(lib):
    params = {"w": lib.tensor(W1), "b": lib.stack([lib.tensor(B1)] * 5, dim=1)}
    return lib.vmap(lambda p, x: p["w"] @ x + p["b"], in_dims=({"w": None, "b": 1}, 0))(params, lib.tensor(XS))


def _per_sample_grads(lib):
    return lib.vmap(lib.func.grad(_loss), in_dims=(None, 0))(_params(lib), lib.tensor(XS))


def _ntk_jacobians(lib):
    return lib.vmap(lib.func.jacrev(_net), (None, 0))(_params(lib), lib.tensor(XS))


CASES = [_grad, _grad_and_value_two_args_with_aux, _vjp, _jacrev_dict, _jacfwd_dict, _jacrev_tree_out,
         _jacfwd_tree_out, _jvp_tree, _vmap_prefix_in_dims, _vmap_per_key_in_dims, _per_sample_grads, _ntk_jacobians]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__.strip("_") for c in CASES])
def test_a_transform_of_a_pytree_gives_pytorchs_structure_and_values(case, torch):
    _assert_same(_plain(case(minigrad)), _plain(case(torch)))


def test_jacrev_of_a_dict_is_shaped_output_then_parameter():
    jac = minigrad.func.jacrev(_net)(_params(minigrad), minigrad.tensor(X))
    assert tuple(jac["w1"].shape) == (2, 4, 3) and tuple(jac["rest"][1][0].shape) == (2, 2, 4)


def test_the_errors_name_the_structures(torch):
    def cotangent_mismatch(lib):
        _, vjp_fn = lib.func.vjp(_tree_valued, lib.tensor(A), {"x": lib.tensor(BX), "y": [lib.tensor(A[:1])]})
        return lambda: vjp_fn((lib.ones(2),))

    def sizes_mismatch(lib):
        return lambda: lib.vmap(lambda x, y: x + y)(lib.ones(2), lib.ones(3))

    for make in (cotangent_mismatch, sizes_mismatch):
        assert error_of(make(minigrad)) == error_of(make(torch))


def _ensemble(lib):
    lib.manual_seed(0)
    return [lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4)) for _ in range(3)]


def test_stack_module_state_stacks_new_leaves_and_plain_buffers(torch):
    results = {}
    for lib in (minigrad, torch):
        models = _ensemble(lib)
        params, buffers = lib.func.stack_module_state(models)
        weight = params["0.weight"]
        results[lib.__name__] = (
            list(params), list(buffers), {k: tuple(v.shape) for k, v in {**params, **buffers}.items()},
            weight.requires_grad, weight.is_leaf, weight.grad_fn, type(weight).__name__,
            buffers["1.running_mean"].requires_grad, buffers["1.num_batches_tracked"].tolist(),
        )
        weight.sum().backward()
        assert models[0][0].weight.grad is None and weight.grad.shape == (3, 4, 3)
    assert results["minigrad"] == results["torch"]


def test_a_model_on_meta_keeps_shapes_and_dtypes_without_data(torch):
    printed = {}
    for lib in (minigrad, torch):
        models = _ensemble(lib)
        meta = copy.deepcopy(models[0]).to("meta")
        weight = meta[0].weight
        printed[lib.__name__] = (
            repr(weight), str(weight.device), weight.is_meta, type(weight).__name__, repr(meta[1].num_batches_tracked),
            repr(lib.tensor([1, 2]).to("meta")), repr(lib.ones(2, requires_grad=True).to("meta")),
            str(models[0][0].weight.device), models[0][0].weight.is_meta, repr(weight.T.shape), weight.T.is_meta,
        )
    assert printed["minigrad"] == printed["torch"]


def test_functional_call_on_the_meta_model_computes_with_the_stacked_parameters(torch):
    outs = {}
    for lib in (minigrad, torch):
        models = [m.eval() for m in _ensemble(lib)]
        params, buffers = lib.func.stack_module_state(models)
        base = copy.deepcopy(models[0]).to("meta")
        x = lib.tensor(XS)
        out = lib.vmap(lambda p, b, x: lib.func.functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(
            params, buffers, x)
        np.testing.assert_allclose(out.detach().numpy(), np.stack([m(x).detach().numpy() for m in models]), atol=1e-6)
        outs[lib.__name__] = out.detach().numpy()
    np.testing.assert_allclose(outs["minigrad"], outs["torch"], atol=1e-6)


@pytest.mark.parametrize("shape, offset, dim1, dim2", [((2, 3, 4, 5), 0, 2, 3), ((2, 3, 4, 5), 1, 1, 3),
                                                       ((2, 3, 4, 5), -2, 3, 1), ((2, 3, 3), 0, -1, -2),
                                                       ((2, 2, 3), 5, 1, 2), ((3, 4), 1, 1, 0)])
def test_diagonal_of_a_batch_of_matrices_and_its_gradient(torch, shape, offset, dim1, dim2):
    values = RNG.standard_normal(shape).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(values, requires_grad=True)
        out = lib.diagonal(x, offset, dim1, dim2)
        out.backward(lib.arange(float(out.numel())).reshape(out.shape))
        results.append((out.detach().numpy(), x.grad.numpy()))
    for got, want in zip(*results):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want)


def test_eye_init(torch):
    for rows, cols in ((2, 3), (3, 2), (3, 3)):
        assert minigrad.nn.init.eye_(minigrad.empty(rows, cols)).tolist() == torch.eye(rows, cols).tolist()
    assert error_of(lambda: minigrad.nn.init.eye_(minigrad.empty(2))) == error_of(
        lambda: torch.nn.init.eye_(torch.empty(2)))
