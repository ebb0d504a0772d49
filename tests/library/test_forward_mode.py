"""Forward mode: dual tensors, ``Function.jvp`` and the ``torch.func`` transforms.

Tangents are checked three ways: against PyTorch (the ``lib`` fixture), against reverse
mode (J·t from rows of the Jacobian that backward computes) and against central
differences. Every operation of the ``OPS`` table goes through a dual level, so each
operator's forward-mode rule is tested where its backward rule is.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from conftest import EDITION
from support.strategies import OPS, as_arguments, leaves

pytestmark = [
    pytest.mark.skipif(EDITION == "learner", reason="forward mode walks a graph the learner's stubs cannot build"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning:minigrad"),
]


def _tensors(result):
    return list(result) if isinstance(result, tuple) else [result]


def _reverse_jvp(fn, args, tangents):
    """J·t from reverse mode: one backward per output element, each row dotted with the tangents."""
    inputs = leaves(args)
    columns = []
    for out in _tensors(fn(minigrad, *args)):
        if out.grad_fn is None:
            columns.append(None)
            continue
        flat = out.reshape(-1)
        values = []
        for k in range(flat.numel()):
            row = minigrad.autograd.grad(flat[k], inputs, retain_graph=True, allow_unused=True)
            values.append(sum(float((g * t).sum()) for g, t in zip(row, tangents) if g is not None))
        columns.append(np.array(values).reshape(tuple(out.shape)))
    return columns


def _forward_jvp(fn, args, tangents):
    with minigrad.autograd.forward_ad.dual_level():
        duals = iter([minigrad.autograd.forward_ad.make_dual(x.detach(), t) for x, t in zip(leaves(args), tangents)])
        dual_args = [[next(duals) for _ in a] if isinstance(a, list) else next(duals) if hasattr(a, "grad_fn") else a
                     for a in args]
        outs = _tensors(fn(minigrad, *dual_args))
        return [minigrad.autograd.forward_ad.unpack_dual(o).tangent for o in outs]


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
@settings(derandomize=True, deadline=None, max_examples=4, database=None)
@given(data=st.data())
def test_every_operation_has_a_forward_rule_that_matches_reverse_mode(op, data):
    drawn = data.draw(op.inputs(np.float64), label="inputs")
    args = as_arguments(minigrad, drawn)
    rng = np.random.default_rng(0)
    tangents = [minigrad.tensor(rng.standard_normal(tuple(x.shape))) for x in leaves(args)]
    expected = _reverse_jvp(op.fn, args, tangents)
    actual = _forward_jvp(op.fn, as_arguments(minigrad, drawn), tangents)
    for e, a in zip(expected, actual):
        if e is None:
            continue
        a = np.zeros_like(e) if a is None else a.numpy()
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-9, err_msg=op.name)


def _chain(lib, x, y):
    return (lib.sin(x) * y.exp() + x**2 / (1 + y * y)).sum(0) * x.tanh().mean()


def test_a_dual_tangent_is_pytorchs_and_the_central_difference(lib):
    fwAD = lib.autograd.forward_ad
    rng = np.random.default_rng(1)
    x, y, tx, ty = (lib.tensor(rng.standard_normal((3, 2))) for _ in range(4))
    with fwAD.dual_level():
        out = _chain(lib, fwAD.make_dual(x, tx), fwAD.make_dual(y, ty))
        primal, tangent = fwAD.unpack_dual(out)
    eps = 1e-6
    central = (_chain(lib, x + eps * tx, y + eps * ty) - _chain(lib, x - eps * tx, y - eps * ty)) / (2 * eps)
    np.testing.assert_allclose(tangent.numpy(), central.numpy(), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(primal.numpy(), _chain(lib, x, y).numpy())
    assert primal.grad_fn is None and not primal.requires_grad


def test_dual_tensors_follow_pytorchs_rules(lib):
    fwAD = lib.autograd.forward_ad
    x, t = lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        assert fwAD.unpack_dual(dual).tangent is t
        assert fwAD.unpack_dual(x).tangent is None
        assert type(fwAD.unpack_dual(dual)).__name__ == "UnpackedDualTensor"
        assert fwAD.unpack_dual(lib.tensor([1.0, 2.0]) * 1).tangent is None
        out = dual * 3
    assert fwAD.unpack_dual(out).tangent is None  # the level has ended
    assert str(fwAD.unpack_dual(dual * 1).primal) == "tensor([1., 2.])"


def test_make_dual_refuses_what_pytorch_refuses(lib):
    from conftest import error_of

    fwAD = lib.autograd.forward_ad
    x = lib.tensor([1.0, 2.0])
    assert error_of(lambda: fwAD.make_dual(x, x)) == (
        "RuntimeError",
        "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first.",
    )
    with fwAD.dual_level():
        assert error_of(lambda: fwAD.make_dual(x, lib.ones(3))) == (
            "RuntimeError",
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            "not supported. Tensor is of size [2] while the given forward gradient is of size [3].",
        )


def test_a_dual_of_a_tensor_that_requires_grad_still_gets_its_gradient(lib):
    fwAD = lib.autograd.forward_ad
    w = lib.tensor([1.0, -2.0], requires_grad=True)
    with fwAD.dual_level():
        dual = fwAD.make_dual(w, lib.tensor([1.0, 1.0]))
        assert dual.grad_fn.name() == "ViewBackward0" and dual.requires_grad
        out = (dual**3).sum()
        tangent = fwAD.unpack_dual(out).tangent
    out.backward()
    assert tangent.item() == pytest.approx(3 * 1 + 3 * 4)
    assert w.grad.tolist() == [3.0, 12.0]


class _MulWithJvp:
    """The notes' example: a Function with a forward-mode rule that reads ``ctx.save_for_forward``."""

    @staticmethod
    def make(lib):
        class MyMul(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                ctx.save_for_forward(x, y)
                return x * y

            @staticmethod
            def backward(ctx, grad_output):
                x, y = ctx.saved_tensors
                return grad_output * y, grad_output * x

            @staticmethod
            def jvp(ctx, x_t, y_t):
                x, y = ctx.saved_tensors
                return x_t * y + x * y_t

        return MyMul


def test_a_function_jvp_gives_the_tangent_and_passes_gradcheck(lib):
    fwAD, MyMul = lib.autograd.forward_ad, _MulWithJvp.make(lib)
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
    with fwAD.dual_level():
        out = MyMul.apply(fwAD.make_dual(x.detach(), lib.ones_like(x)), y.detach())
        assert fwAD.unpack_dual(out).tangent.tolist() == [3.0, 4.0]
    assert lib.autograd.gradcheck(MyMul.apply, (x, y), check_forward_ad=True)


def test_a_function_without_jvp_is_refused_in_forward_mode(lib):
    from conftest import error_of

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

    fwAD = lib.autograd.forward_ad
    with fwAD.dual_level():
        def run():
            return fwAD.unpack_dual(Square.apply(fwAD.make_dual(lib.ones(2), lib.ones(2)))).tangent * 1
        assert error_of(run) == (
            "NotImplementedError",
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD.",
        )


def _f(lib, x, y):
    return (x.sin() * y + x * x * y.cos()).sum()


def test_func_transforms_match_pytorch(lib):
    rng = np.random.default_rng(2)
    x, y = lib.tensor(rng.standard_normal(3)), lib.tensor(rng.standard_normal(3))
    f = lambda a, b: _f(lib, a, b)  # noqa: E731
    results = {
        "grad": lib.func.grad(f)(x, y),
        "grad_both": lib.func.grad(f, argnums=(0, 1))(x, y),
        "jvp": lib.func.jvp(f, (x, y), (lib.ones(3), lib.zeros(3)))[1],
        "vjp": lib.func.vjp(lambda a: a.sin() * y, x)[1](lib.ones(3))[0],
        "jacrev": lib.func.jacrev(lambda a: a.sin() * y)(x),
        "jacfwd": lib.func.jacfwd(lambda a: a.sin() * y)(x),
        "hessian": lib.func.hessian(f)(x, y),
        "vmap": lib.vmap(lambda a, b: (a * b).sum())(x.view(3, 1), y.view(3, 1)),
        "per_sample": lib.vmap(lib.func.grad(f), in_dims=(0, None))(lib.stack([x, y]), y),
    }
    expected = _REFERENCE(x.numpy(), y.numpy())
    for name, value in results.items():
        got = np.stack([v.numpy() for v in value]) if isinstance(value, tuple) else value.numpy()
        np.testing.assert_allclose(got, expected[name], rtol=1e-6, atol=1e-7, err_msg=name)
        assert (value[0] if isinstance(value, tuple) else value).grad_fn is None


def _REFERENCE(x, y):  # noqa: N802 - the derivatives of _f written out by hand
    gx = np.cos(x) * y + 2 * x * np.cos(y)
    gy = np.sin(x) - x * x * np.sin(y)
    return {
        "grad": gx,
        "grad_both": np.stack([gx, gy]),
        "jvp": gx.sum(),
        "vjp": np.cos(x) * y,
        "jacrev": np.diag(np.cos(x) * y),
        "jacfwd": np.diag(np.cos(x) * y),
        "hessian": np.diag(-np.sin(x) * y + 2 * np.cos(y)),
        "vmap": x * y,
        "per_sample": np.stack([np.cos(x) * y + 2 * x * np.cos(y), np.cos(y) * y + 2 * y * np.cos(y)]),
    }


def test_the_hessian_from_forward_over_reverse_is_the_central_difference_of_the_gradient():
    rng = np.random.default_rng(3)
    x, y = minigrad.tensor(rng.standard_normal(3)), minigrad.tensor(rng.standard_normal(3))
    hessian = minigrad.func.hessian(lambda a: _f(minigrad, a, y))(x).numpy()
    grad = minigrad.func.grad(lambda a: _f(minigrad, a, y))
    eps = 1e-6
    for k in range(3):
        step = minigrad.tensor(np.eye(3)[k] * eps)
        np.testing.assert_allclose(hessian[:, k], ((grad(x + step) - grad(x - step)) / (2 * eps)).numpy(), atol=1e-7)


def test_functional_call_swaps_parameters_for_one_call(lib):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    weight = lib.ones(2, 3)
    out = lib.func.functional_call(model, {"weight": weight, "bias": lib.zeros(2)}, (lib.ones(1, 3),))
    assert out.tolist() == [[3.0, 3.0]]
    assert model.weight.shape == (2, 3) and model.weight is not weight
    assert isinstance(model.weight, lib.nn.Parameter)


def test_forward_mode_jacobian_is_reverse_modes(lib):
    functional = lib.autograd.functional
    rng = np.random.default_rng(4)
    x = lib.tensor(rng.standard_normal((2, 2)))
    forward = functional.jacobian(lambda a: a.exp().sum(1), x, vectorize=True, strategy="forward-mode")
    np.testing.assert_allclose(forward.numpy(), functional.jacobian(lambda a: a.exp().sum(1), x).numpy())


def test_jacobian_in_forward_mode_needs_vectorize(lib):
    from conftest import error_of

    assert error_of(lambda: lib.autograd.functional.jacobian(lib.sin, lib.ones(2), strategy="forward-mode")) == (
        "NotImplementedError",
        "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for `vectorize=True`.",
    )
