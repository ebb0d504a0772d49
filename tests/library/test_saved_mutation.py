"""``torch.autograd.graph.allow_mutation_on_saved_tensors`` and the version counter of inference tensors,
each run in minigrad and in PyTorch (when installed): same values, same errors, word for word."""
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
LIBRARIES = [mg, torch]


def _error(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the type and text are what is compared
        return type(error).__name__, str(error)
    return None


def _mutated_after_saving(lib):
    """Save y for sin's backward, change y in place, then backward, all inside the block."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        y = x.clone()
        a = y.sin()
        y.mul_(2)
        cloned = len(ctx.cloned)
        a.sum().backward()
    return [round(v, 5) for v in x.grad.tolist()], y.tolist(), y._version, cloned, type(ctx).__name__, len(ctx.original)


def _cases(lib):
    amst = lib.autograd.graph.allow_mutation_on_saved_tensors
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []

    def grad_of(body):
        x.grad = None
        with amst():
            out = body()
            out.backward()
        return [round(v, 4) for v in x.grad.tolist()]

    def saved_output():  # exp saves its result; the result is then changed in place
        a = x.clone().exp()
        a.mul_(3)
        return a.sum()

    def twice():  # the saved value is cloned once, then changed again
        y = x.clone()
        a = (y * y).sum()
        y.add_(1)
        y.add_(1)
        return a

    def base_changed_view_saved():  # a view at the base's address is cloned; one elsewhere is not (as in PyTorch)
        y = x.clone()
        a = (y[:2] ** 2).sum() + (y[1:] ** 2).sum()
        y.zero_()
        return a

    def setitem():
        y = x.clone()
        a = (y ** 3).sum()
        y[0] = 10.0
        return a

    seen += [grad_of(saved_output), grad_of(twice), grad_of(base_changed_view_saved), grad_of(setitem)]

    w = lib.tensor([1.0, 2.0], requires_grad=True)
    with amst():  # a leaf changed under no_grad, as an optimizer does
        a = (w * w).sum()
        with lib.no_grad():
            w.mul_(10)
        a.backward()
    seen.append(w.grad.tolist())

    x.grad = None
    with amst():  # double backward through the clone
        y = x.clone()
        a = (y ** 3).sum()
        y.mul_(2)
        (g,) = lib.autograd.grad(a, x, create_graph=True)
        g.sum().backward()
    seen += [g.tolist(), x.grad.tolist()]
    return seen


def _errors(lib):
    amst = lib.autograd.graph.allow_mutation_on_saved_tensors
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    with amst():  # the clone is freed when the block ends
        y = x.clone()
        a = (y * y).sum()
        y.add_(1)
    seen.append(_error(a.backward))
    with amst():  # even without a change, backward must run inside the block
        b = (x.clone() * x).sum()
    seen.append(_error(b.backward))

    def nested():
        with amst(), amst():
            pass

    seen.append(_error(nested))
    with amst():  # the block that refused to nest was closed by the inner one: PyTorch's behaviour
        pass
    y = x.clone()  # outside any block, the usual error
    c = y.sin()
    y.mul_(2)
    seen.append(_error(c.sum().backward)[1][:90])
    return seen


def test_a_saved_tensor_changed_in_place_is_cloned_first():
    assert _mutated_after_saving(mg) == _mutated_after_saving(torch)
    assert _mutated_after_saving(mg)[3] == 1


def test_gradients_match_torch():
    assert _cases(mg) == _cases(torch)


def test_errors_match_torch():
    ours = _errors(mg)
    assert ours == _errors(torch)
    assert ours[0] == (
        "AssertionError",
        "Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which the graph was "
        "originally recorded.",
    )
    assert ours[2] == ("RuntimeError", "allow_mutation_on_saved_tensors contexts cannot be nested")


def test_only_a_name_of_torch_autograd_graph():
    assert hasattr(mg.autograd.graph, "allow_mutation_on_saved_tensors")
    assert hasattr(mg.autograd, "allow_mutation_on_saved_tensors") == hasattr(
        torch.autograd, "allow_mutation_on_saved_tensors"
    )


def _versions(lib):
    seen = []
    with lib.inference_mode():
        t = lib.ones(2)
        view = t[:1]
        seen.append(_error(lambda: t._version))
    seen += [_error(lambda: t._version), _error(lambda: view._version)]
    u = lib.ones(2)
    with lib.inference_mode():
        v = u[:1]
        u.add_(1)
    seen += [u._version, v._version, v.is_inference()]
    return seen


def test_inference_tensors_have_no_version_counter():
    ours = _versions(mg)
    assert ours == _versions(torch)
    assert ours[0] == ("RuntimeError", "Inference tensors do not track version counter.")
