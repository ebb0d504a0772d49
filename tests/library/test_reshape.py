"""``reshape`` records what PyTorch records: ``ViewBackward0`` for a contiguous input, ``ReshapeAliasBackward0``
for a non-contiguous one it can view, and for one it cannot, a copy (``CloneBackward0``, then
``UnsafeViewBackward0``) that is no view. ``flatten`` and ``contiguous`` follow.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from conftest import EDITION
from minigrad.ops import views
from support.parity import assert_same, graph, upstream

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


def _grid(lib):
    return lib.tensor(np.arange(24.0).reshape(2, 3, 4) / 7, requires_grad=True)


RESHAPES = {  # name: (the input, made from a (2, 3, 4) leaf; the new shape)
    "contiguous": (lambda x: x, (6, 4)),
    "contiguous, same shape": (lambda x: x, (2, 3, 4)),
    "a transpose, flattened": (lambda x: x.transpose(0, 2), (24,)),
    "a transpose, same shape": (lambda x: x.transpose(0, 2), (4, 3, 2)),
    "a transpose, viewable": (lambda x: x.transpose(0, 1), (3, 2, 2, 2)),
    "a permute": (lambda x: x.permute(1, 2, 0), (12, 2)),
    "a slice, copied": (lambda x: x[:, 1:], (-1,)),
    "a slice, viewable": (lambda x: x[:, 1:], (4, 4)),
    "rows of a slice": (lambda x: x[1:], (3, 4)),
    "a strided slice": (lambda x: x[:, :, ::2], (12,)),
    "an expand": (lambda x: x[:1].expand(3, 3, 4), (9, 4)),
    "an expand, viewable": (lambda x: x[:1].expand(3, 3, 4), (3, 3, 2, 2)),
    "one element": (lambda x: x[1][2][3], (1, 1)),
    "an unsqueezed transpose": (lambda x: x[0].t().unsqueeze(0), (4, 3)),
}


def _is_view_of(y, x):
    """(is y a view, of x's base): what PyTorch and minigrad must agree on."""
    base = x._base if x._base is not None else x
    return y._is_view(), y._base is base


@pytest.mark.parametrize("name", RESHAPES)
def test_reshape_records_pytorchs_nodes(torch, name):
    make, shape = RESHAPES[name]

    def check(lib):
        x = make(_grid(lib))
        y = x.reshape(shape)
        return graph(y.grad_fn), _is_view_of(y, x)

    assert check(mg) == check(torch)
    assert_same(lambda lib, g: make(g).reshape(shape) * 2, [np.arange(24.0).reshape(2, 3, 4)], [True], torch)


def test_a_copying_reshape_is_not_a_view():
    x = _grid(mg)
    t = x.transpose(0, 2)
    y = t.reshape(24)
    assert graph(y.grad_fn) == ("UnsafeViewBackward0", [("CloneBackward0", [graph(t.grad_fn)])])
    assert not y._is_view() and y._base is None
    before = y.tolist()
    with mg.no_grad():
        y.mul_(2)
    assert x._version == 0 and y._version == 1 and t.reshape(24).tolist() == before
    (y * mg.tensor(upstream(24))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), upstream(24).reshape(4, 3, 2).transpose(2, 1, 0))


def test_a_viewable_reshape_of_a_non_contiguous_tensor_is_an_alias():
    t = _grid(mg).transpose(0, 1)
    y = t.reshape(3, 2, 2, 2)
    assert graph(y.grad_fn) == ("ReshapeAliasBackward0", [graph(t.grad_fn)])
    assert y._is_view() and y.grad_fn._saved_self_sym_sizes == (3, 2, 4)


@st.composite
def strided(draw):
    """A shape, a way to make a (maybe non-contiguous) tensor of it, and a shape to reshape to."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    dims = draw(st.permutations(range(len(shape))))
    steps = draw(st.lists(st.sampled_from([1, 1, 2]), min_size=len(shape), max_size=len(shape)))
    expand = draw(st.booleans())
    made = tuple(-(-shape[d] // steps[d]) for d in dims)  # the shape after slicing and permuting
    if expand:
        made = (2,) + made
    numel = int(np.prod(made))
    target = []
    while numel > 1 and len(target) < 4:
        divisor = draw(st.sampled_from([d for d in range(1, numel + 1) if numel % d == 0]))
        target.append(divisor)
        numel //= divisor
    target.append(numel)
    return shape, dims, steps, expand, tuple(draw(st.permutations(target)))


def _strided(x, dims, steps, expand):
    for dim, step in enumerate(steps):  # one dim at a time: PyTorch records a slice per dim
        if step > 1:
            x = x[(slice(None),) * dim + (slice(None, None, step),)]
    x = x.permute(dims)
    return x.unsqueeze(0).expand((2,) + tuple(x.shape)) if expand else x


@settings(derandomize=True, deadline=None, max_examples=150, database=None)
@given(case=strided())
def test_reshape_of_any_strided_tensor_matches_pytorch(torch, case):
    shape, dims, steps, expand, target = case
    start = np.arange(float(np.prod(shape))).reshape(shape)

    def check(lib):
        leaf = lib.tensor(start, requires_grad=True)
        x = _strided(leaf, dims, steps, expand)
        y = x.reshape(target)
        (y * lib.tensor(upstream(target))).sum().backward()
        return graph(y.grad_fn), _is_view_of(y, x), y.detach().numpy().tolist(), leaf.grad.numpy().tolist()

    assert check(mg) == check(torch)


FLATTENS = {
    "a vector": lambda x: x[0][0].flatten(),
    "a number": lambda x: x[0][0][0].flatten(),
    "nothing to merge": lambda x: x.flatten(2),
    "one dim, negative": lambda x: x.flatten(-2, 1),
    "contiguous": lambda x: x.flatten(),
    "the first two": lambda x: x.flatten(0, 1),
    "a transpose": lambda x: x.transpose(0, 2).flatten(),
    "a transpose, nothing to merge": lambda x: x.transpose(0, 2).flatten(1, 1),
    "a transpose, viewable": lambda x: x.transpose(0, 1).flatten(1),
}


@pytest.mark.parametrize("name", FLATTENS)
def test_flatten_matches_pytorch(torch, name):
    def check(lib):
        x = _grid(lib) * 1
        y = FLATTENS[name](x)
        return graph(y.grad_fn), tuple(y.shape), y._is_view(), y is x

    assert check(mg) == check(torch)


def test_flatten_with_nothing_to_merge_returns_its_input():
    x = _grid(mg)
    vector = x[0][0]
    assert x.flatten(1, 1) is x and x.flatten(-1) is x and vector.flatten() is vector
    assert vector[0].flatten().shape == (1,)


@pytest.mark.parametrize("make", [lambda x: x, lambda x: x.transpose(1, 2), lambda x: x.permute(2, 0, 1)],
                         ids=["contiguous", "a transpose", "a permute"])
def test_linear_of_a_non_contiguous_batch_matches_pytorch(torch, make):
    """PyTorch fuses the bias into one product only for a contiguous input."""
    def fn(lib, x, w, b):
        out = lib.nn.functional.linear(make(x), w, b)
        assert out._version == (0 if make(x).is_contiguous() else 1)  # the bias added in place
        return out

    arrays = [np.arange(27.0).reshape(3, 3, 3) / 9, np.arange(6.0).reshape(2, 3) - 2, np.array([0.5, -1.0])]
    assert_same(fn, arrays, [True, True, True], torch)


CONTIGUOUS = {
    "contiguous": lambda x: x,
    "a transpose": lambda x: x.transpose(0, 2),
    "a slice": lambda x: x[:, 1:],
    "rows": lambda x: x[1:],
    "an expand": lambda x: x[:1].expand(3, 3, 4),
}


@pytest.mark.parametrize("name", CONTIGUOUS)
def test_contiguous_matches_pytorch(torch, name):
    def check(lib, contiguous):
        x = CONTIGUOUS[name](_grid(lib))
        y = contiguous(x)
        return y is x, graph(y.grad_fn), y.is_contiguous(), y._is_view() and y._base is not x._base

    assert check(mg, views.contiguous) == check(torch, lambda t: t.contiguous())


def test_contiguous_copies_only_when_it_must():
    x = _grid(mg)
    assert views.contiguous(x) is x
    y = views.contiguous(x.transpose(0, 2))
    assert y.is_contiguous() and not y._is_view() and y.grad_fn.name() == "CloneBackward0"
    y.sum().backward()
    assert x.grad.tolist() == np.ones((2, 3, 4)).tolist()


def test_tensor_contiguous_method_copies_a_non_contiguous_tensor():
    x = _grid(mg)
    assert x.transpose(0, 2).contiguous().grad_fn.name() == "CloneBackward0"
