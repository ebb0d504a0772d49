"""``F.conv2d``, ``F.max_pool2d``, ``F.avg_pool2d``, ``F.adaptive_avg_pool2d`` and their layers.

Values and gradients against PyTorch in float32 and float64, over strides, paddings, dilations,
groups, kernel sizes, batches and channels; gradients against central differences in float64;
the layers' initialisation and reprs; PyTorch's error messages. Every input comes from a fixed seed.
"""
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from minigrad import nn
from minigrad.nn import functional as F
from support.helpers import central_differences

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="convolution needs a working autograd")

TOLERANCES = {np.float32: dict(rtol=1e-4, atol=1e-5), np.float64: dict(rtol=1e-10, atol=1e-12)}

# (input shape, weight shape, keyword arguments)
CONVOLUTIONS = [
    ((2, 1, 8, 8), (3, 1, 3, 3), {}),
    ((2, 3, 9, 7), (4, 3, 3, 2), dict(stride=2)),
    ((1, 2, 10, 10), (5, 2, 5, 5), dict(padding=2)),
    ((3, 2, 7, 9), (2, 2, 3, 3), dict(stride=(2, 1), padding=(1, 2))),
    ((2, 3, 11, 11), (4, 3, 3, 3), dict(dilation=2, padding=1)),
    ((2, 4, 8, 8), (6, 2, 3, 3), dict(groups=2, padding=1)),
    ((2, 6, 6, 6), (6, 1, 3, 3), dict(groups=6, stride=2, padding=1)),
    ((2, 2, 8, 8), (3, 2, 3, 3), dict(padding="same")),
    ((2, 2, 8, 8), (3, 2, 3, 3), dict(padding="valid")),
    ((1, 2, 7, 6), (3, 2, 4, 2), dict(padding="same", dilation=(1, 2))),
    ((2, 3, 5, 5), (2, 3, 1, 1), dict(stride=3)),
    ((3, 5, 5), (2, 3, 3, 3), dict(padding=1)),  # one image
]


def arrays(seed, *shapes, dtype=np.float64):
    rng = np.random.RandomState(seed)
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def run(lib, fn, values, needs_grad, seed=1):
    """``fn(lib, *tensors)``, then backward from a random upstream gradient: the output, its grad_fn's
    name and the gradients."""
    tensors = [None if v is None else lib.tensor(v, requires_grad=g) for v, g in zip(values, needs_grad)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(lib, *tensors)
    upstream = np.random.RandomState(seed).standard_normal(tuple(out.shape)).astype(out.detach().numpy().dtype)
    out.backward(lib.tensor(upstream))
    grads = [t.grad.detach().numpy() for t in tensors if t is not None and t.requires_grad]
    return out.detach().numpy(), out.grad_fn.name().replace("torch::autograd::", ""), grads


def assert_both_agree(torch, fn, values, needs_grad, dtype):
    mine, theirs = run(minigrad, fn, values, needs_grad), run(torch, fn, values, needs_grad)
    assert mine[1] == theirs[1]
    assert mine[0].dtype == theirs[0].dtype and mine[0].shape == theirs[0].shape
    np.testing.assert_allclose(mine[0], theirs[0], **TOLERANCES[dtype])
    assert len(mine[2]) == len(theirs[2])
    for grad, expected in zip(mine[2], theirs[2]):
        assert grad.shape == expected.shape and grad.dtype == expected.dtype
        np.testing.assert_allclose(grad, expected, **TOLERANCES[dtype])


def conv(kwargs):
    return lambda lib, x, w, b=None: lib.nn.functional.conv2d(x, w, b, **kwargs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("x_shape, w_shape, kwargs", CONVOLUTIONS, ids=lambda v: str(v).replace(" ", ""))
def test_conv2d_matches_pytorch(torch, x_shape, w_shape, kwargs, dtype):
    x, w, b = arrays(0, x_shape, w_shape, (w_shape[0],), dtype=dtype)
    assert_both_agree(torch, conv(kwargs), [x, w, b], [True, True, True], dtype)
    assert_both_agree(torch, conv(kwargs), [x, w], [False, True], dtype)
    assert_both_agree(torch, conv(kwargs), [x, w, None], [True, False, False], dtype)


@pytest.mark.parametrize("x_shape, w_shape, kwargs", CONVOLUTIONS[:8], ids=lambda v: str(v).replace(" ", ""))
def test_conv2d_gradients_are_central_differences(x_shape, w_shape, kwargs):
    x, w, b = arrays(2, x_shape, w_shape, (w_shape[0],))
    upstream = None

    def f(*values):
        nonlocal upstream
        out = F.conv2d(*(minigrad.tensor(v) for v in values), **kwargs).numpy()
        if upstream is None:
            upstream = np.random.RandomState(3).standard_normal(out.shape)
        return float((out * upstream).sum())

    f(x, w, b)
    tensors = [minigrad.tensor(v, requires_grad=True) for v in (x, w, b)]
    (F.conv2d(*tensors, **kwargs) * minigrad.tensor(upstream)).sum().backward()
    for tensor, numeric in zip(tensors, central_differences(f, x, w, b)):
        np.testing.assert_allclose(tensor.grad.numpy(), numeric, rtol=1e-6, atol=1e-7)


POOLS = [
    (2, {}), (2, dict(stride=1)), (3, dict(stride=2, padding=1)), ((3, 2), dict(stride=(2, 1), padding=(1, 0))),
    (3, dict(stride=2, ceil_mode=True)), (3, dict(stride=2, padding=1, ceil_mode=True)),
]
MAX_ONLY = [(3, dict(dilation=2)), (2, dict(stride=1, dilation=(2, 1), padding=1))]
AVG_ONLY = [(3, dict(stride=2, padding=1, count_include_pad=False)),
            (3, dict(stride=2, padding=1, ceil_mode=True, count_include_pad=False)), (2, dict(divisor_override=3))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 9, 8), (2, 7, 7)], ids=str)
@pytest.mark.parametrize("kernel, kwargs", POOLS + MAX_ONLY, ids=str)
def test_max_pool2d_matches_pytorch(torch, shape, kernel, kwargs, dtype):
    (x,) = arrays(4, shape, dtype=dtype)
    assert_both_agree(torch, lambda lib, x: lib.nn.functional.max_pool2d(x, kernel, **kwargs), [x], [True], dtype)
    indices = [lib.nn.functional.max_pool2d(lib.tensor(x), kernel, return_indices=True, **kwargs)[1].numpy()
               for lib in (minigrad, torch)]
    np.testing.assert_array_equal(*indices)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 9, 8), (2, 7, 7)], ids=str)
@pytest.mark.parametrize("kernel, kwargs", POOLS + AVG_ONLY, ids=str)
def test_avg_pool2d_matches_pytorch(torch, shape, kernel, kwargs, dtype):
    (x,) = arrays(5, shape, dtype=dtype)
    assert_both_agree(torch, lambda lib, x: lib.nn.functional.avg_pool2d(x, kernel, **kwargs), [x], [True], dtype)


def test_max_pool_ties_send_the_gradient_to_the_first_largest_element(torch):
    x = np.array([[[[1, 1, 2], [2, 0, 2], [1, 2, 2]]]], np.float32)
    grads = []
    for lib in (minigrad, torch):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.max_pool2d(t, 2, 1).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(*grads)
    np.testing.assert_array_equal(grads[0], [[[[0, 0, 1], [2, 0, 1], [0, 0, 0]]]])


@pytest.mark.parametrize("pool", ["max", "avg"])
def test_pool_gradients_are_central_differences(pool):
    (x,) = arrays(6, (2, 2, 7, 7))
    fn = F.max_pool2d if pool == "max" else F.avg_pool2d
    upstream = np.random.RandomState(7).standard_normal((2, 2, 4, 4))
    t = minigrad.tensor(x, requires_grad=True)
    (fn(t, 3, 2, 1) * minigrad.tensor(upstream)).sum().backward()
    (numeric,) = central_differences(lambda v: float((fn(minigrad.tensor(v), 3, 2, 1).numpy() * upstream).sum()), x)
    np.testing.assert_allclose(t.grad.numpy(), numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("output_size", [1, (2, 4), (3, 3), (None, 2), 5])
def test_adaptive_avg_pool2d_matches_pytorch(torch, output_size):
    (x,) = arrays(8, (2, 3, 8, 7), dtype=np.float32)
    fn = lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, output_size)  # noqa: E731
    assert_both_agree(torch, fn, [x], [True], np.float32)


def test_lenet_layers_start_from_pytorchs_weights_and_print_as_pytorch(torch):
    def build(lib):
        lib.manual_seed(0)
        return lib.nn.Sequential(
            lib.nn.Conv2d(1, 6, kernel_size=5, padding=2), lib.nn.Sigmoid(), lib.nn.AvgPool2d(kernel_size=2, stride=2),
            lib.nn.Conv2d(6, 16, kernel_size=5), lib.nn.Sigmoid(), lib.nn.MaxPool2d(kernel_size=2, stride=2),
            lib.nn.Conv2d(16, 8, 3, stride=2, padding=1, dilation=2, groups=8, bias=False),
            lib.nn.Conv2d(8, 4, (3, 1), padding="same"), lib.nn.AdaptiveAvgPool2d((1, 1)), lib.nn.Flatten())

    mine, theirs = build(minigrad), build(torch)
    assert repr(mine) == repr(theirs)
    for (name, p), (t_name, t_p) in zip(mine.named_parameters(), theirs.named_parameters()):
        assert name == t_name
        np.testing.assert_array_equal(p.detach().numpy(), t_p.detach().numpy())
    (x,) = arrays(9, (2, 1, 28, 28), dtype=np.float32)
    np.testing.assert_allclose(mine(minigrad.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(),
                               rtol=1e-4, atol=1e-5)


def test_layers_keep_pytorchs_attributes(torch):
    for lib in (minigrad, torch):
        conv_layer = lib.nn.Conv2d(2, 4, 3, stride=2)
        assert (conv_layer.kernel_size, conv_layer.stride, conv_layer.padding, conv_layer.dilation) == \
            ((3, 3), (2, 2), (0, 0), (1, 1))
        assert (conv_layer.groups, conv_layer.padding_mode, conv_layer.transposed) == (1, "zeros", False)
        assert lib.nn.MaxPool2d(3).stride == 3 and lib.nn.AvgPool2d(2, 1).stride == 1


ERRORS = [
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 3, 8, 8), lib.ones(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(8, 8), lib.ones(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 3, 3), lib.ones(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), stride=0),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), padding=-1),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), dilation=0),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), lib.ones(5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8).double(), lib.ones(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5).double()),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5, 5), lib.ones(6).double()),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 8, 8), lib.ones(6, 1, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 4, 8, 8), lib.ones(6, 2, 3, 3), groups=3),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 4, 8, 8), lib.ones(6, 2, 3, 3), groups=0),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 4, 8, 8), lib.ones(6, 4, 3, 3), padding="same", stride=2),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 4, 8, 8), lib.ones(6, 4, 3, 3), padding="full"),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 4, 8, 8), lib.ones(6, 4, 3, 3), padding=(1, 2, 3)),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 8, 8), 3, padding=2),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 8, 8), 0),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 8, 8), 2, dilation=0),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 2, 2), 3),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(8, 8), 3),
    lambda lib: lib.nn.functional.max_pool2d(lib.ones(1, 1, 8, 8), (2, 2, 2)),
    lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 1, 8, 8), 3, padding=2),
    lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 1, 2, 2), 3),
    lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 1, 8, 8), 2, divisor_override=0),
    lambda lib: lib.nn.Conv2d(3, 2, 3, groups=2),
    lambda lib: lib.nn.Conv2d(2, 3, 3, groups=2),
    lambda lib: lib.nn.Conv2d(2, 2, 3, padding="same", stride=2),
    lambda lib: lib.nn.Conv2d(2, 2, 3, groups=0),
]


@pytest.mark.parametrize("fn", ERRORS, ids=range(len(ERRORS)))
def test_errors_are_pytorchs(torch, fn):
    raised = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(), pytest.raises(Exception) as info:
            warnings.simplefilter("ignore")
            fn(lib)
        raised.append((type(info.value).__name__, str(info.value)))
    assert raised[0] == raised[1]


def test_double_backward_through_a_convolution_is_refused():
    x = minigrad.ones(1, 1, 4, 4, requires_grad=True)
    y = F.conv2d(x, minigrad.ones(1, 1, 3, 3, requires_grad=True))
    with pytest.raises(RuntimeError, match="create_graph=True"):
        minigrad.autograd.grad(y.sum(), x, create_graph=True)


def test_forward_mode_through_convolution_and_pooling_agrees_with_reverse_mode():
    x, w, b, tx = arrays(10, (2, 2, 6, 6), (3, 2, 3, 3), (3,), (2, 2, 6, 6))

    def f(x):
        y = F.conv2d(x, minigrad.tensor(w), minigrad.tensor(b), padding=1)
        return F.avg_pool2d(F.max_pool2d(y, 2, 1), 2)

    _, jvp = minigrad.func.jvp(f, (minigrad.tensor(x),), (minigrad.tensor(tx),))
    t = minigrad.tensor(x, requires_grad=True)
    out = f(t)
    u = np.random.RandomState(11).standard_normal(tuple(out.shape))
    out.backward(minigrad.tensor(u))
    np.testing.assert_allclose((jvp.numpy() * u).sum(), (t.grad.numpy() * tx).sum(), rtol=1e-10)
