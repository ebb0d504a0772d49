"""In-place operations, views and the version counter, checked against PyTorch's behaviour.

The gradients of in-place code are compared with the same computation written out of
place (exact), and with PyTorch when it is installed.
"""
import re

import numpy as np
import pytest

import minigrad as mg
from support.helpers import leaf, names


# ---------------------------------------------------------------- the version counter


def test_each_in_place_operation_counts_one_version():
    t = mg.ones(3)
    assert t._version == 0
    for change in (lambda: t.add_(1), lambda: t.sub_(1), lambda: t.mul_(2), lambda: t.div_(2), lambda: t.zero_(),
                   lambda: t.fill_(3.0), lambda: t.copy_(mg.ones(3)), lambda: t.clamp_(0, 1),
                   lambda: t.__setitem__(0, 2.0), lambda: t.pow_(2), lambda: t.neg_(), lambda: t.exp_()):
        before = t._version
        change()
        assert t._version == before + 1


@pytest.mark.parametrize("operator", ["+=", "-=", "*=", "/="])
def test_augmented_assignment_changes_the_same_tensor(operator):
    t = mg.tensor([2.0, 4.0])
    same = t
    exec(f"t {operator} 2", {}, {"t": t})
    assert same._version == 1
    expected = {"+=": [4.0, 6.0], "-=": [0.0, 2.0], "*=": [4.0, 8.0], "/=": [1.0, 2.0]}[operator]
    assert same.tolist() == expected


def test_views_and_detached_copies_share_the_counter_and_the_memory():
    y = leaf(1.0, 2.0, 3.0) * 1
    v, d = y[1:], y.detach()
    assert v._base is y and v._is_view() and not d._is_view() and d._base is None
    assert not y._is_view() and y._base is None
    v.add_(1)
    d.mul_(2)
    assert y._version == v._version == d._version == 2
    assert y.tolist() == [2.0, 6.0, 8.0]
    assert v[0]._base is y  # a view of a view has the same base


def test_data_shares_memory_but_not_the_counter():
    x = leaf(1.0, 2.0)
    x.data.mul_(2)
    assert x._version == 0 and x.tolist() == [2.0, 4.0]


@pytest.mark.parametrize("make", [
    lambda t: t.view(6), lambda t: t.reshape(3, 2), lambda t: t[0], lambda t: t[:, 1:], lambda t: t.t(),
    lambda t: t.transpose(0, 1), lambda t: t.unsqueeze(0), lambda t: t.permute(1, 0), lambda t: t[0, 1],
    lambda t: t.unsqueeze(2).squeeze(2), lambda t: t[0:1].expand(4, 3), lambda t: t.flatten(),
])
def test_view_operations_make_views(make):
    t = mg.ones(2, 3)
    v = make(t)
    assert v._is_view() and v._base is t and v._version_counter is t._version_counter


def test_indexing_with_tensors_copies():
    t = mg.ones(2, 3)
    assert not t[mg.tensor([0, 1])]._is_view()
    assert not t[t > 0]._is_view()


def test_writing_into_a_view_writes_into_the_base():
    t = mg.zeros(2, 3)
    t[0][1] = 5.0
    t.t()[2].fill_(7.0)
    assert t.tolist() == [[0.0, 5.0, 7.0], [0.0, 0.0, 7.0]]


# ---------------------------------------------------------------- the graph of an in-place operation


def test_an_in_place_operation_on_a_non_leaf_replaces_its_grad_fn():
    a = leaf(1.0, 2.0)
    b = a + 0
    b.mul_(2)
    assert b.grad_fn.name() == "MulBackward0" and names(b.grad_fn) == ("AddBackward0", None)
    assert not b.is_leaf
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("change, name, edges", [
    (lambda y, w: y.add_(w, alpha=2), "AddBackward0", ("MulBackward0", "AccumulateGrad")),
    (lambda y, w: y.__isub__(w), "SubBackward0", ("MulBackward0", "AccumulateGrad")),
    (lambda y, w: y.__itruediv__(2), "DivBackward0", ("MulBackward0", None)),
    (lambda y, w: y.fill_(2.0), "FillBackward2", ("MulBackward0",)),
    (lambda y, w: y.fill_(w), "FillBackward3", ("MulBackward0", "AccumulateGrad")),
    (lambda y, w: y.zero_(), "ZeroBackward0", ("MulBackward0",)),
    (lambda y, w: y.copy_(w), "CopyBackwards", ("MulBackward0", "AccumulateGrad")),
    (lambda y, w: y.clamp_(0, 1), "ClampBackward1", ("MulBackward0",)),
    (lambda y, w: y.exp_(), "ExpBackward0", ("MulBackward0",)),
    (lambda y, w: y.pow_(2), "PowBackward0", ("MulBackward0",)),
    (lambda y, w: y.neg_(), "NegBackward0", ("MulBackward0",)),
    (lambda y, w: y.relu_(), "ReluBackward0", ("MulBackward0",)),
    (lambda y, w: y.sigmoid_(), "SigmoidBackward0", ("MulBackward0",)),
    (lambda y, w: y.__setitem__(y > 0, 0.0), "IndexPutBackward0", ("MulBackward0", None)),
    (lambda y, w: y.__setitem__(mg.tensor([0, 0]), w), "IndexPutBackward0", ("MulBackward0", "AccumulateGrad")),
    (lambda y, w: y.__setitem__(0, 5.0), "CopySlices", ("MulBackward0", None)),
    (lambda y, w: y.__setitem__(slice(1, None), w), "CopySlices", ("MulBackward0", "AccumulateGrad")),
])
def test_the_nodes_in_place_operations_record(change, name, edges):
    x, w = leaf(1.0, 2.0, 3.0), mg.tensor(2.0, requires_grad=True)
    y = x * 1
    change(y, w)
    assert (type(y.grad_fn).__name__, names(y.grad_fn)) == (name, edges)


def _gradients(program, lib, *values):
    """The gradients ``program`` gives its inputs, as one flat list of numbers."""
    xs = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in values]
    program(lib, *xs).backward()
    return np.concatenate([x.grad.numpy().ravel() for x in xs]).tolist()


def _weights(lib, n):
    return lib.arange(1.0, n + 1.0, dtype=lib.float64)


PROGRAMS = {  # each: (in place, the same written out of place)
    "mul_ by a tensor": (
        lambda t, x, w: (lambda y: (y.mul_(w), (y * y).sum())[1])(x * 2),
        lambda t, x, w: ((x * 2 * w) ** 2).sum(),
    ),
    "setitem a number": (
        lambda t, x: (lambda y: (y.__setitem__(0, 5.0), (y * _weights(t, 3)).sum())[1])(x * 1),
        lambda t, x: (x[1:] * _weights(t, 3)[1:]).sum(),
    ),
    "setitem a tensor": (
        lambda t, x, w: (lambda y: (y.__setitem__(slice(0, 2), w * w), (y * _weights(t, 3)).sum())[1])(x * 1),
        lambda t, x, w: (w * w * _weights(t, 3)[:2]).sum() + x[2] * 3,
    ),
    "in place on a view": (
        lambda t, x, w: (lambda y: (y[1:].mul_(w), (y * _weights(t, 3)).sum())[1])(x * 1),
        lambda t, x, w: x[0] + (x[1:] * w * _weights(t, 3)[1:]).sum(),
    ),
    "in place on a view of a view": (
        lambda t, x, w: (lambda y: (y.view(3, 1)[1:][0].add_(w), (y * y).sum())[1])(x * 1),
        lambda t, x, w: x[0] ** 2 + (x[1] + w) ** 2 + x[2] ** 2,
    ),
    "a transposed view": (
        lambda t, m: (lambda y: (y.t()[0].mul_(5), (y * _weights(t, 4).view(2, 2)).sum())[1])(m * 1),
        lambda t, m: (t.stack([m[:, 0] * 5, m[:, 1]], dim=1) * _weights(t, 4).view(2, 2)).sum(),
    ),
    "a view used after its base changed": (
        lambda t, x: (lambda y: (lambda a: (y.mul_(3), (a * a).sum())[1])(y[0:2]))(x * 1),
        lambda t, x: ((x[0:2] * 3) ** 2).sum(),
    ),
    "a leaf filled from tensors": (
        lambda t, w: (lambda y: (y.__setitem__(0, w), y.__setitem__(1, w * 3), (y * _weights(t, 3)).sum())[2])(
            t.zeros(3, dtype=t.float64)),
        lambda t, w: w + w * 3 * 2,
    ),
    "index_put with repeats": (
        lambda t, x, w: (lambda y: (y.__setitem__(t.tensor([2, 0]), w), (y * _weights(t, 3)).sum())[1])(x * 1),
        lambda t, x, w: x[1] * 2 + (w * t.tensor([3.0, 1.0], dtype=t.float64)).sum(),
    ),
    "saved output of exp_": (
        lambda t, x: (lambda y: (y.exp_(), (y * x).sum())[1])(x * 1),
        lambda t, x: (x.exp() * x).sum(),
    ),
}
VALUES = {
    "mul_ by a tensor": ([1.0, 2.0, 3.0], [0.5, -1.0, 2.0]),
    "setitem a number": ([1.0, 2.0, 3.0],),
    "setitem a tensor": ([1.0, 2.0, 3.0], [0.5, -1.0]),
    "in place on a view": ([1.0, 2.0, 3.0], [0.5, -1.0]),
    "in place on a view of a view": ([1.0, 2.0, 3.0], 0.5),
    "a transposed view": ([[1.0, 2.0], [3.0, 4.0]],),
    "a view used after its base changed": ([1.0, 2.0, 3.0],),
    "a leaf filled from tensors": (2.0,),
    "index_put with repeats": ([1.0, 2.0, 3.0], [0.5, -1.0]),
    "saved output of exp_": ([0.5, -1.0],),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_in_place_gradients_equal_the_out_of_place_ones(name):
    in_place, out_of_place = PROGRAMS[name]
    assert _gradients(in_place, mg, *VALUES[name]) == pytest.approx(_gradients(out_of_place, mg, *VALUES[name]))


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_in_place_gradients_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    assert _gradients(PROGRAMS[name][0], mg, *VALUES[name]) == pytest.approx(
        _gradients(PROGRAMS[name][0], torch, *VALUES[name]))


def test_the_common_case_y_0_equals_5():
    x = leaf(1.0, 2.0, 3.0)
    y = x * 1
    y[0] = 5.0
    y.sum().backward()
    assert y.tolist() == [5.0, 2.0, 3.0] and x.grad.tolist() == [0.0, 1.0, 1.0]


def test_the_view_written_to_and_its_siblings_follow_the_base():
    x, w = leaf(1.0, 2.0, 3.0), mg.tensor(2.0, requires_grad=True)
    y = x * 1
    first, rest = y[0], y[1:]
    rest.mul_(w)
    assert y.grad_fn.name() == "torch::autograd::CopySlices" and names(y.grad_fn) == ("MulBackward0", "AccumulateGrad")
    for view in (first, rest):
        assert view.grad_fn.name() == "AsStridedBackward0" and view.grad_fn.next_functions[0][0] is y.grad_fn
    (rest * mg.tensor([1.0, 2.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 4.0] and w.grad.item() == 8.0


def test_a_view_of_a_base_that_did_not_require_grad_follows_it():
    w = mg.tensor(2.0, requires_grad=True)
    y = mg.zeros(3)
    v = y[2]
    y[1] = w
    assert y.grad_fn.name() == "torch::autograd::CopySlices" and not y.is_leaf
    assert v.requires_grad and v.grad_fn.name() == "AsStridedBackward0"


def test_in_place_with_a_tensor_that_requires_grad_makes_a_leaf_a_non_leaf():
    x = leaf(1.0, 2.0)
    z = mg.zeros(2)
    z.add_(x)
    assert not z.is_leaf and z.requires_grad and z.grad_fn.name() == "AddBackward0"


def test_a_retained_gradient_follows_the_tensor_to_its_new_node():
    x = leaf(1.0, 2.0)
    y = x * 1
    y.retain_grad()
    y.mul_(3)
    (y * y).sum().backward()
    assert y.grad.tolist() == [6.0, 12.0] and x.grad.tolist() == [18.0, 36.0]


def test_no_grad_allows_in_place_changes_of_leaves():
    w = leaf(1.0, 2.0)
    (w * w).sum().backward()
    with mg.no_grad():
        w -= 0.1 * w.grad
        w[0] = 0.5
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    assert w.tolist() == pytest.approx([0.5, 1.6]) and w._version == 2
    w.grad.zero_()
    assert w.grad.tolist() == [0.0, 0.0]


def test_in_place_under_no_grad_records_nothing():
    y = leaf(1.0) * 2
    node = y.grad_fn
    with mg.no_grad():
        y.add_(leaf(1.0))
    assert y.grad_fn is node


def test_the_polynomial_tutorial_trains_its_weights_in_place():
    x = mg.linspace(-1, 1, 50, dtype=mg.float64)
    y = x.sin()
    weights = [mg.zeros((), dtype=mg.float64, requires_grad=True) for _ in range(4)]
    ids = [id(w) for w in weights]
    losses = []
    for _ in range(100):
        a, b, c, d = weights
        loss = (a + b * x + c * x ** 2 + d * x ** 3 - y).pow(2).sum()
        losses.append(loss.item())
        loss.backward()
        with mg.no_grad():
            for w in weights:
                w -= 5e-3 * w.grad
                w.grad = None
    assert [id(w) for w in weights] == ids and all(w.is_leaf and w.grad is None for w in weights)
    assert losses[-1] < losses[0] / 10


def test_a_saved_tensor_whose_view_changed_is_stale():
    b = leaf(1.0, 2.0) * 1
    c = b * b
    b[0] = 3.0
    with pytest.raises(RuntimeError, match=re.escape(
            "[torch.FloatTensor [2]], which is output 0 of torch::autograd::CopySlices, is at version 1; expected "
            "version 0 instead.")):
        c.sum().backward()


def test_a_saved_view_is_stale_once_its_base_changed():
    y = leaf(1.0, 2.0) * 1
    v = y[0]
    z = v * v
    y.add_(1)
    with pytest.raises(RuntimeError, match=re.escape(
            "[torch.FloatTensor []], which is output 0 of AsStrided, is at version 1; expected version 0 instead.")):
        z.backward()
