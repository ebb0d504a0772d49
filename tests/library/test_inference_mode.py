"""Inference tensors as PyTorch makes them: what ``inference_mode`` makes, and PyTorch's refusals outside it.
Each scenario runs on both libraries, and what it reports (values, reprs, error texts) must be equal.
"""
import pytest

import minigrad as mg
from conftest import EDITION
from support.parity import attempt, same

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


def made_inside(lib):
    x = lib.ones(2, requires_grad=True)
    with lib.inference_mode():
        c = lib.ones(2)
        d = x * 2
        v = x[0:1]  # a view of a normal tensor: normal
        inside = lib.is_inference_mode_enabled()
        with lib.inference_mode(False):
            normal = lib.ones(1).is_inference()
    return [c.is_inference(), d.is_inference(), d.requires_grad, v.is_inference(), c[0].is_inference(),
            c.clone().is_inference(), lib.is_inference(d), inside, normal,
            lib.is_inference_mode_enabled(), x.is_inference()]


def refused_outside(lib):
    """(PyTorch writes before it refuses an in-place change, minigrad refuses before writing:
    the values of a refused tensor are not compared.)"""
    x = lib.ones(2, requires_grad=True)
    with lib.inference_mode():
        c = lib.ones(2)
        inside = c.add_(1).tolist()  # in place inside the mode is fine
    report = [inside, attempt(lambda: c.requires_grad_()), attempt(lambda: setattr(c, "requires_grad", True)),
              attempt(lambda: c.requires_grad_(False).requires_grad), (x * c.clone()).tolist()]
    for change in (lambda: c.mul_(2), lambda: c.zero_(), lambda: c.__setitem__(0, 5.0), lambda: c[0:1].add_(1)):
        report.append(attempt(change))
    with lib.no_grad():
        report.append(attempt(lambda: c.add_(1)))
        report.append(attempt(lambda: (x * c).requires_grad))
    report.append(attempt(lambda: (x * c).sum()))  # mul saves c
    report.append(attempt(lambda: (x + c).sum().requires_grad))  # add saves nothing
    report.append(attempt(lambda: (x * c.clone()).sum().requires_grad))
    return report


@pytest.mark.parametrize("scenario", [made_inside, refused_outside])
def test_inference_tensors_are_pytorchs(torch, scenario):
    same(torch, scenario)


def test_inference_mode_as_a_decorator_and_its_module(torch):
    @mg.inference_mode()
    def doubled(x):
        return x * 2

    out = doubled(mg.ones(1, requires_grad=True))
    assert (out.requires_grad, out.is_inference(), mg.is_inference_mode_enabled()) == (False, True, False)
    assert mg.autograd.inference_mode is mg.inference_mode
    assert mg.autograd.is_inference_mode_enabled is mg.is_inference_mode_enabled
