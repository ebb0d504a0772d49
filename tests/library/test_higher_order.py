"""Differentiating twice (``create_graph=True``), ``autograd.functional`` and ``gradcheck``.

Every operation's backward formula must also work on tensors, so that backward can
be recorded and differentiated again. Each case computes, for float64 leaves x,
g = d(Σ w·f(x))/dx with the graph of the backward, then d(Σ g²)/dx; both are compared
with central differences (of the function, and of minigrad's first-order gradient) and
with PyTorch when it is installed.
"""
import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp
from minigrad.autograd.gradcheck import GradcheckError

from support.helpers import central_differences


def _bce(t, a, b):
    return t.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid())


def _bce_weighted(t, a, b):
    weight, pos_weight = t.tensor([0.5, 2.0, 1.0], dtype=a.dtype), t.tensor([2.0, 1.0, 3.0], dtype=a.dtype)
    return t.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid(), weight, pos_weight=pos_weight,
                                                            reduction="none")


def _cross_entropy(t, a, b=None, **options):
    weight = t.tensor([0.5, 2.0, 1.0], dtype=a.dtype)
    target = t.tensor([0, 2]) if b is None else t.nn.functional.softmax(b, dim=1)
    return t.nn.functional.cross_entropy(a, target, weight=weight, **options)


def _setitem(t, a):
    y = a * 1
    y[0] = a[1] * 2
    return y ** 2


def _view_mul_(t, a, b):
    y = a * 1
    y[1:].mul_(b)
    return y ** 2


POSITIVE = "positive"
CASES = {  # name: (f(lib, *inputs), input shapes; POSITIVE first for inputs that must be > 0)
    "add": (lambda t, a, b: t.add(a, b, alpha=2), [(3, 4), (4,)]),
    "sub": (lambda t, a, b: a - b, [(3, 4), (3, 1)]),
    "rsub": (lambda t, a: 2 - a, [(3,)]),
    "mul": (lambda t, a, b: a * b, [(3, 4), (4,)]),
    "mul by a number": (lambda t, a: a * 3, [(3,)]),
    "div": (lambda t, a, b: a / b, [(3, 4), (POSITIVE, 4)]),
    "number / tensor": (lambda t, a: 2 / a, [(POSITIVE, 3)]),
    "neg": (lambda t, a: -a, [(3,)]),
    "reciprocal": (lambda t, a: a.reciprocal(), [(POSITIVE, 3)]),
    "pow by a number": (lambda t, a: a ** 3, [(3,)]),
    "pow by a tensor": (lambda t, a, b: a ** b, [(POSITIVE, 3), (3,)]),
    "number ** tensor": (lambda t, a: 2 ** a, [(3,)]),
    "exp": (lambda t, a: a.exp(), [(3,)]),
    "log": (lambda t, a: a.log(), [(POSITIVE, 3)]),
    "sqrt": (lambda t, a: a.sqrt(), [(POSITIVE, 3)]),
    "abs": (lambda t, a: a.abs() * a, [(3,)]),
    "relu": (lambda t, a: a.relu() * a, [(3,)]),
    "sigmoid": (lambda t, a: a.sigmoid(), [(3,)]),
    "tanh": (lambda t, a: a.tanh(), [(3,)]),
    "sin": (lambda t, a: a.sin(), [(3,)]),
    "cos": (lambda t, a: a.cos(), [(3,)]),
    "clone": (lambda t, a: a.clone() * a, [(3,)]),
    "clamp": (lambda t, a: a.clamp(-0.5, 0.5) * a, [(5,)]),
    "dtype change": (lambda t, a: a.to(t.float32).to(t.float64) * a, [(3,)]),
    "sum": (lambda t, a: a.sum() * a, [(3,)]),
    "sum over a dim": (lambda t, a: a.sum(dim=1) ** 2, [(3, 4)]),
    "sum keepdim": (lambda t, a: a.sum(1, keepdim=True) * a, [(3, 4)]),
    "mean": (lambda t, a: a.mean() * a, [(3,)]),
    "mean over a dim": (lambda t, a: a.mean(0) ** 2, [(3, 4)]),
    "max": (lambda t, a: a.max() * a, [(5,)]),
    "min": (lambda t, a: a.min() * a, [(5,)]),
    "max over a dim": (lambda t, a: a.max(dim=1)[0] ** 2, [(3, 4)]),
    "min over a dim, keepdim": (lambda t, a: a.min(dim=0, keepdim=True)[0] * a, [(3, 4)]),
    "norm": (lambda t, a: a.norm(), [(3, 4)]),
    "norm over a dim": (lambda t, a: a.norm(dim=1), [(3, 4)]),
    "mm": (lambda t, a, b: (a @ b) ** 2, [(2, 3), (3, 4)]),
    "mv": (lambda t, a, b: (a @ b) ** 2, [(2, 3), (3,)]),
    "dot": (lambda t, a, b: (a @ b) ** 2, [(3,), (3,)]),
    "vector @ matrix": (lambda t, a, b: (a @ b) ** 2, [(3,), (3, 4)]),
    "bmm": (lambda t, a, b: t.bmm(a, b) ** 2, [(2, 2, 3), (2, 3, 4)]),
    "batched matmul": (lambda t, a, b: (a @ b) ** 2, [(2, 2, 3), (3, 4)]),
    "broadcast matmul": (lambda t, a, b: (a @ b) ** 2, [(2, 1, 2, 3), (3, 3, 2)]),
    "where": (lambda t, a, b: t.where(a > 0, a * a, b * b), [(3, 4), (4,)]),
    "maximum": (lambda t, a, b: t.maximum(a, b) ** 2, [(3,), (3,)]),
    "minimum": (lambda t, a, b: t.minimum(a, b) ** 2, [(3,), (3,)]),
    "cat": (lambda t, a, b: t.cat([a, b]) ** 2, [(2, 3), (1, 3)]),
    "stack": (lambda t, a, b: t.stack([a, b], dim=1) ** 2, [(2, 3), (2, 3)]),
    "view": (lambda t, a: a.view(6) ** 2, [(2, 3)]),
    "reshape of a transpose": (lambda t, a: a.t().reshape(6) ** 2, [(2, 3)]),
    "unsqueeze": (lambda t, a: a.unsqueeze(1) ** 2, [(3,)]),
    "squeeze": (lambda t, a: a.squeeze() ** 2, [(3, 1)]),
    "squeeze a dim": (lambda t, a: a.squeeze(1) ** 2, [(3, 1)]),
    "expand": (lambda t, a: a.expand(2, 3) ** 2, [(1, 3)]),
    "permute": (lambda t, a: a.permute(2, 0, 1) ** 2, [(2, 3, 4)]),
    "transpose": (lambda t, a: a.transpose(0, 1) ** 2, [(2, 3)]),
    "t": (lambda t, a: a.t() ** 2, [(2, 3)]),
    "T": (lambda t, a: a.T ** 2, [(2, 3)]),
    "flatten": (lambda t, a: a.flatten() ** 2, [(2, 3)]),
    "select": (lambda t, a: a[1] ** 2, [(2, 3)]),
    "slice": (lambda t, a: a[:, 1:] ** 2, [(2, 3)]),
    "index with a list": (lambda t, a: a[[0, 0, 1]] ** 2, [(2, 3)]),
    "mask": (lambda t, a: a[a > 0] ** 2, [(2, 3)]),
    "setitem": (_setitem, [(2, 3)]),
    "mul_": (lambda t, a, b: (a * 1).mul_(b) ** 2, [(3,), (3,)]),
    "exp_": (lambda t, a: (a * 1).exp_() * a, [(3,)]),
    "in place on a view": (_view_mul_, [(3,), (2,)]),
    "mse_loss": (lambda t, a, b: t.nn.functional.mse_loss(a, b), [(3,), (3,)]),
    "cross_entropy": (lambda t, a: t.nn.functional.cross_entropy(a, t.tensor([0, 2])), [(2, 3)]),
    "softmax": (lambda t, a: t.nn.functional.softmax(a, dim=1) ** 2, [(2, 3)]),
    "log_softmax": (lambda t, a: t.nn.functional.log_softmax(a, dim=1) ** 2, [(2, 3)]),
    "linear": (lambda t, a, b: t.nn.functional.linear(a, b) ** 2, [(2, 3), (4, 3)]),
    "bce_with_logits, input only": (
        lambda t, a: t.nn.functional.binary_cross_entropy_with_logits(a, t.tensor([0.0, 1.0, 1.0], dtype=a.dtype)),
        [(3,)]),
    "bce_with_logits, target too": (_bce, [(3,), (3,)]),
    "bce_with_logits, weights, target too": (_bce_weighted, [(2, 3), (2, 3)]),
    "cross_entropy, label smoothing": (lambda t, a: _cross_entropy(t, a, label_smoothing=0.3), [(2, 3)]),
    "cross_entropy, probabilities": (lambda t, a, b: _cross_entropy(t, a, b, label_smoothing=0.1), [(2, 3), (2, 3)]),
    "cross_entropy, probabilities, none": (lambda t, a, b: _cross_entropy(t, a, b, reduction="none"),
                                           [(2, 3), (2, 3)]),
}
ROUNDED = {"dtype change"}  # float32 rounding is larger than what central differences can resolve
BROKEN = {}  # name: why minigrad gets it wrong (each one a strict xfail until fixed)


def _arrays(shapes, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for shape in shapes:
        positive = shape[0] == POSITIVE
        values = rng.standard_normal(shape[1:] if positive else shape)
        arrays.append(np.abs(values) + 0.5 if positive else values)
    return arrays


def _weights(lib, out):
    return lib.tensor(np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)), dtype=lib.float64)


def _first(lib, f, arrays, create_graph):
    xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
    out = f(lib, *xs)
    grads = lib.autograd.grad((out * _weights(lib, out)).sum(), xs, create_graph=create_graph, materialize_grads=True)
    return xs, grads


def _second(lib, f, arrays):
    """The first gradients and the gradient of the sum of their squares (zeros when the
    first gradients are constants, as for a linear function)."""
    xs, grads = _first(lib, f, arrays, create_graph=True)
    total = sum((g * g).sum() for g in grads)
    if total.requires_grad:
        seconds = [s.numpy() for s in lib.autograd.grad(total, xs, materialize_grads=True)]
    else:
        seconds = [np.zeros(x.shape) for x in xs]
    return [g.detach().numpy() for g in grads], seconds


def _differences(f, arrays, eps=1e-6):
    """Central differences of the function (first order) and of minigrad's first gradient (second order)."""
    def value(*a):
        xs = [mg.tensor(v, dtype=mg.float64) for v in a]
        out = f(mg, *xs)
        return (out * _weights(mg, out)).sum().item()

    def squares(*a):
        return sum(float((g.numpy() ** 2).sum()) for g in _first(mg, f, a, create_graph=False)[1])

    return (central_differences(value, *[a.copy() for a in arrays], eps=eps),
            central_differences(squares, *[a.copy() for a in arrays], eps=eps))


def _params(names):
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=BROKEN[name])) if name in BROKEN
            else name for name in names]


@pytest.mark.parametrize("name", _params([name for name in CASES if name not in ROUNDED]))
def test_twice_against_central_differences(name):
    f, shapes = CASES[name]
    arrays = _arrays(shapes, seed=len(name))
    firsts, seconds = _second(mg, f, arrays)
    want_firsts, want_seconds = _differences(f, arrays)
    for got, want in zip(firsts + seconds, want_firsts + want_seconds):
        assert np.allclose(got, want, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("name", _params(CASES))
def test_twice_against_pytorch(name):
    torch = pytest.importorskip("torch")
    f, shapes = CASES[name]
    arrays = _arrays(shapes, seed=len(name))
    for got, want in zip(*(sum(_second(lib, f, arrays), []) for lib in (mg, torch))):
        assert np.allclose(got, want, atol=1e-8)


def test_the_gradient_of_a_gradient_is_recorded():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = mg.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert repr(g) == "tensor([ 3., 12.], grad_fn=<MulBackward0>)"
    (h,) = mg.autograd.grad(g.sum(), x, create_graph=True)
    (third,) = mg.autograd.grad(h.sum(), x)
    assert h.tolist() == [6.0, 12.0] and third.tolist() == [6.0, 6.0]


def test_backward_with_create_graph_accumulates_a_differentiable_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.tolist() == [3.0, 12.0]
    (gg,) = mg.autograd.grad(x.grad.sum(), x)
    assert gg.tolist() == [6.0, 12.0]


# ---------------------------------------------------------------- autograd.functional


def _exp_rows(a):
    return a.exp().sum(dim=1)


def _two_outputs(a, b):
    return 2 * a.exp().sum(1) + 3 * b, (a * a).sum()


def _scalar(a, b):
    return a.pow(3).sum() + (b * b).sum() * a.sum()


def _inputs(lib):
    return (lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64),
            lib.tensor([0.5, -1.0], dtype=lib.float64))


FUNCTIONAL = {
    "jacobian of one input": lambda lib, x, y: jacobian(_exp_rows, x) if lib is mg else
    lib.autograd.functional.jacobian(_exp_rows, x),
    "jacobian of two inputs and outputs": lambda lib, x, y: _functional(lib, "jacobian")(_two_outputs, (x, y)),
    "jacobian of a tuple of one": lambda lib, x, y: _functional(lib, "jacobian")(_exp_rows, (x,)),
    "hessian of two inputs": lambda lib, x, y: _functional(lib, "hessian")(_scalar, (x, y)),
    "hessian of one input": lambda lib, x, y: _functional(lib, "hessian")(lambda a: (a ** 3).sum(), y),
    "vjp": lambda lib, x, y: _functional(lib, "vjp")(_exp_rows, x, lib.ones(2, dtype=lib.float64)),
    "vjp of two": lambda lib, x, y: _functional(lib, "vjp")(
        _two_outputs, (x, y), (lib.ones(2, dtype=lib.float64), lib.tensor(2.0, dtype=lib.float64))),
    "vjp of a scalar, no v": lambda lib, x, y: _functional(lib, "vjp")(lambda a: a.sum(), x),
    "jvp": lambda lib, x, y: _functional(lib, "jvp")(_exp_rows, x, lib.ones(2, 2, dtype=lib.float64)),
    "jvp of two": lambda lib, x, y: _functional(lib, "jvp")(
        _two_outputs, (x, y), (lib.ones(2, 2, dtype=lib.float64), lib.ones(2, dtype=lib.float64))),
    "hvp": lambda lib, x, y: _functional(lib, "hvp")(
        _scalar, (x, y), (lib.ones(2, 2, dtype=lib.float64), lib.ones(2, dtype=lib.float64))),
    "vhp": lambda lib, x, y: _functional(lib, "vhp")(
        _scalar, (x, y), (lib.ones(2, 2, dtype=lib.float64), lib.ones(2, dtype=lib.float64))),
    "an input not used": lambda lib, x, y: _functional(lib, "jacobian")(lambda a, b: a * 2, (x, y)),
    "an output without history": lambda lib, x, y: _functional(lib, "vjp")(
        lambda a: lib.ones(2, dtype=lib.float64), x, lib.ones(2, dtype=lib.float64)),
    "a linear function's hessian": lambda lib, x, y: _functional(lib, "hessian")(lambda a: a.sum(), y),
}


def _functional(lib, name):
    return getattr(mg.autograd.functional if lib is mg else lib.autograd.functional, name)


def _structure(result):
    """Nested tuples of tensors as nested tuples of (requires_grad, values) pairs."""
    if isinstance(result, tuple):
        return tuple(_structure(r) for r in result)
    return result.requires_grad, np.round(result.detach().numpy(), 10).tolist()


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_as_pytorch(name):
    torch = pytest.importorskip("torch")
    assert _structure(FUNCTIONAL[name](mg, *_inputs(mg))) == _structure(FUNCTIONAL[name](torch, *_inputs(torch)))


def test_jacobian_against_central_differences():
    x = np.array([[1.0, 2.0], [3.0, -4.0]])

    def f(a):
        return (a.sin() * a.sum()).view(4)

    jac = jacobian(f, mg.tensor(x, dtype=mg.float64)).numpy()
    for i in range(4):
        row = central_differences(lambda a: f(mg.tensor(a, dtype=mg.float64))[i].item(), x.copy())[0]
        assert np.allclose(jac[i], row, atol=1e-6)
    assert jac.shape == (4, 2, 2)


def test_hessian_jvp_and_hvp_agree_with_central_differences():
    y = np.array([0.5, -1.0, 2.0])

    def f(a):
        return (a.exp() * a.sum()).sum()

    def gradient(a):
        t = mg.tensor(a, dtype=mg.float64, requires_grad=True)
        return mg.autograd.grad(f(t), t)[0].numpy()

    h = hessian(f, mg.tensor(y, dtype=mg.float64)).numpy()
    numeric = np.stack([central_differences(lambda a: gradient(a)[i], y.copy())[0] for i in range(3)])
    assert np.allclose(h, numeric, atol=1e-5)
    v = mg.tensor([1.0, 0.0, -1.0], dtype=mg.float64)
    assert np.allclose(hvp(f, mg.tensor(y, dtype=mg.float64), v)[1].numpy(), h @ v.numpy())
    assert np.allclose(vhp(f, mg.tensor(y, dtype=mg.float64), v)[1].numpy(), v.numpy() @ h)
    output, product = jvp(lambda a: a.exp() * a.sum(), mg.tensor(y, dtype=mg.float64), v)
    full = jacobian(lambda a: a.exp() * a.sum(), mg.tensor(y, dtype=mg.float64)).numpy()
    assert np.allclose(product.numpy(), full @ v.numpy()) and not output.requires_grad
    _, back = vjp(lambda a: a.exp() * a.sum(), mg.tensor(y, dtype=mg.float64), v)
    assert np.allclose(back.numpy(), v.numpy() @ full)


def test_functional_results_carry_history_only_with_create_graph():
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    assert not jacobian(lambda a: a ** 2, x).requires_grad
    jac = jacobian(lambda a: a ** 3, x, create_graph=True)
    assert jac.requires_grad
    (second,) = mg.autograd.grad(jac.sum(), x)
    assert second.tolist() == [6.0, 12.0]
    out, product = vjp(lambda a: a ** 2, x, mg.ones(2, dtype=mg.float64), create_graph=True)
    assert out.requires_grad and product.requires_grad and x.grad is None


@pytest.mark.parametrize("call, error, text", [
    (lambda x: jacobian(lambda a, b: a * 2, (x, x * 0), strict=True), RuntimeError,
     "Output 0 of the user-provided function is independent of input 1. This is not allowed in strict mode."),
    (lambda x: vjp(lambda a: mg.ones(2), x, mg.ones(2), strict=True), RuntimeError,
     "Output 0 of the user-provided function does not require gradients. The outputs must be computed in a "
     "differentiable manner from the input when running in strict mode."),
    (lambda x: jacobian(lambda a: 3.0, x), TypeError,
     "The outputs of the user-provided function given to jacobian must be either a Tensor or a tuple of Tensors but "
     "the given outputs of the user-provided function has type <class 'float'>."),
    (lambda x: jacobian(lambda a: a, [x]), TypeError,
     "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the given inputs has type "
     "<class 'list'>."),
    (lambda x: hessian(lambda a: a * 2, x), RuntimeError,
     "The Tensor returned by the function given to hessian should contain a single element"),
    (lambda x: jvp(lambda a: a * 2, x, mg.ones(3)), RuntimeError,
     "v has invalid size: should be torch.Size([2]) but got torch.Size([3])."),
    (lambda x: vjp(lambda a: a * 2, x), RuntimeError,
     "The vector v can only be None if the user-provided function returns a single Tensor with a single element."),
    (lambda x: hessian(lambda a: a.sum(), x, strict=True), RuntimeError,
     "While computing the hessian, found that the jacobian of the user-provided function with respect to input 0 is "
     "independent of the input. This is not allowed in strict mode. You should ensure that your function is twice "
     "differentiable and that the jacobian depends on the inputs (this would be violated by a linear function for "
     "example)."),
])
def test_functional_errors(call, error, text):
    with pytest.raises(error) as caught:
        call(mg.tensor([1.0, 2.0]))
    assert str(caught.value) == text


# ---------------------------------------------------------------- gradcheck


class _WrongExp(mg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        result = a.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result * 2


def test_gradcheck_passes_right_gradients():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=mg.float64, requires_grad=True)
    w = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradcheck(lambda a, b: (a @ b).exp(), (x, w))
    assert mg.autograd.gradcheck(lambda a: (a.sin(), a.cos() * 2), w)
    assert mg.autograd.gradgradcheck(lambda a, b: (a @ b).exp(), (x, w))


def test_gradcheck_names_the_mismatch():
    w = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    with pytest.raises(GradcheckError) as caught:
        mg.autograd.gradcheck(_WrongExp.apply, (w,))
    assert str(caught.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[1.6487, 0.0000],\n        [0.0000, 0.3679]], dtype=torch.float64)\n"
        "analytical:tensor([[3.2974, 0.0000],\n        [0.0000, 0.7358]], dtype=torch.float64)\n"
    )
    assert mg.autograd.gradcheck(_WrongExp.apply, (w,), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to input 0,"):
        mg.autograd.gradgradcheck(_WrongExp.apply, (w,), grad_outputs=(mg.ones(2, dtype=mg.float64),))


def test_gradcheck_warns_about_float32_and_needs_an_input_that_requires_grad():
    with pytest.warns(UserWarning, match=r"^Input #0 requires gradient and is not a double precision floating point"):
        with pytest.raises(GradcheckError, match=r"numerical:tensor\(\[\[1\.9670"):  # float32 is too coarse
            mg.autograd.gradcheck(lambda a: a * 2, (mg.ones(2, requires_grad=True),))
    with pytest.raises(ValueError, match=r"^gradcheck expects at least one input tensor to require gradient, but none "
                                         r"of them have requires_grad=True\.$"):
        mg.autograd.gradcheck(lambda a: a * 2, (mg.ones(2, dtype=mg.float64),))


def test_gradcheck_as_pytorch():
    torch = pytest.importorskip("torch")

    class TorchWrongExp(torch.autograd.Function):
        forward = staticmethod(_WrongExp.forward)
        backward = staticmethod(_WrongExp.backward)

    def message(lib, function):
        try:
            lib.autograd.gradcheck(function, (lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True),))
        except RuntimeError as error:
            return str(error)

    assert message(mg, _WrongExp.apply) == message(torch, TorchWrongExp.apply)
    assert message(mg, lambda a: a.sigmoid() * a) is None is message(torch, lambda a: a.sigmoid() * a)
