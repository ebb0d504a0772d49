"""Hooks for saved tensors (``torch.autograd.graph.saved_tensors_hooks`` and its kin).

Each test runs under minigrad and, when it is installed, PyTorch, and states what
PyTorch 2.13 does: when the hooks are called, what the unpacked tensors are, the
gradients (also of second order) and the errors.
"""
import gc
import weakref

import pytest

import minigrad


class Recorder:
    """Pack and unpack hooks that keep a copy and note each call."""

    def __init__(self):
        self.calls = []

    def pack(self, tensor):
        self.calls.append(("pack", tuple(tensor.shape)))
        return ("packed", tensor.detach().clone())

    def unpack(self, packed):
        self.calls.append("unpack")
        return packed[1]


def test_tensors_saved_inside_the_block_are_packed_and_unpacked_by_backward(lib):
    hooks = Recorder()
    x = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        y = x.pow(2)  # saves x
        z = y.exp()  # saves its result
        x * 2  # a Python number is never packed, and x is not saved: 2 needs no gradient
    assert hooks.calls == [("pack", (3,)), ("pack", (3,))]
    z.sum().backward()
    assert hooks.calls[2:] == ["unpack", "unpack"]
    expected = [2 * v * float(lib.tensor(v * v).exp()) for v in (1.0, -2.0, 0.5)]
    assert x.grad.tolist() == pytest.approx(expected, rel=1e-6)


def test_reading_a_saved_tensor_unpacks_a_tensor_in_the_original_place(lib):
    hooks = Recorder()
    x = lib.ones(3, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        y = x.pow(2)
        z = y.exp()
    saved_self = y.grad_fn._saved_self
    assert saved_self is not x and saved_self.requires_grad and saved_self.is_leaf
    saved_result = z.grad_fn._saved_result
    assert type(saved_result.grad_fn).__name__ == "ExpBackward0" and saved_result.equal(z)
    assert hooks.calls[2:] == ["unpack", "unpack"]  # each read unpacks again
    z.sum().backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        y.grad_fn._saved_self


def test_a_second_backward_through_packed_tensors(lib):
    x = lib.tensor([1.0, 2.0, -1.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = x.pow(3)
    (first,) = lib.autograd.grad(y.sum(), x, create_graph=True)
    first.sum().backward()  # through the unpacked x: d/dx 3x^2 = 6x reaches the original leaf
    assert x.grad.tolist() == [6.0, 12.0, -6.0]


def test_register_hooks_on_one_saved_tensor(lib):
    hooks = Recorder()
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a.pow(2)
    raw = b.grad_fn._raw_saved_self
    raw.register_hooks(hooks.pack, hooks.unpack)
    assert hooks.calls == [("pack", (2,))]
    with pytest.raises(RuntimeError) as twice:
        raw.register_hooks(hooks.pack, hooks.unpack)
    assert str(twice.value) == (
        "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of "
        "hooks is allowed at a time.")
    b.sum().backward()
    assert hooks.calls[1:] == ["unpack"] and a.grad.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor after it has been freed"):
        raw.register_hooks(hooks.pack, hooks.unpack)


def test_a_packed_tensor_is_not_checked_for_in_place_changes(lib):
    """No error, and backward uses the value the hooks hand back: the tensor as changed in place."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    d = x * 1
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        e = d.pow(2)
    d.add_(1)  # the hooks own the value now: PyTorch checks no version
    e.sum().backward()
    assert x.grad.tolist() == [4.0, 6.0]


def test_an_unpack_hook_must_give_a_tensor(lib):
    x = lib.ones(2, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = x.pow(2)
    with pytest.raises(TypeError) as caught:
        y.sum().backward()
    assert str(caught.value) == "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int"


def test_hooks_can_be_forbidden(lib):
    graph = lib.autograd.graph
    with pytest.raises(RuntimeError, match="^no hooks here$"):
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with pytest.raises(RuntimeError, match="^no hooks here$"):
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            with graph.disable_saved_tensors_hooks("no hooks here"):
                pass
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # the blocks closed cleanly
        pass


def test_save_on_cpu(lib):
    x = lib.tensor([1.0, 3.0], requires_grad=True)
    with lib.autograd.graph.save_on_cpu():
        y = x.pow(2)
    assert y.grad_fn._saved_self is not x and y.grad_fn._saved_self.equal(x)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 6.0]


def test_backward_frees_what_the_pack_hook_returned():
    class Box:
        def __init__(self, tensor):
            self.tensor = tensor

    boxes = []

    def pack(tensor):
        boxes.append(weakref.ref(box := Box(tensor.detach().clone())))
        return box

    x = minigrad.ones(3, requires_grad=True)
    with minigrad.autograd.graph.saved_tensors_hooks(pack, lambda box: box.tensor):
        y = x.pow(2)
    y.sum().backward()
    gc.collect()
    assert [ref() for ref in boxes] == [None]
