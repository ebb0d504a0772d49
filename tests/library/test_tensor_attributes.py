"""A tensor's attributes follow PyTorch's rules: a view follows its base's ``requires_grad``; ``del x.grad``;
``.data`` and ``requires_grad`` refuse what PyTorch refuses. Each scenario runs on both libraries, and what
it reports must be equal.
"""
import pytest

from conftest import EDITION
from support.parity import attempt, same

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="these need a working autograd")


def flagged_base(lib):
    base = lib.zeros(4)
    view = base[1:3]
    base.requires_grad_()
    report = [view.requires_grad, view.is_leaf, view.grad_fn is None, attempt(lambda: view.mul_(2))]
    (view * 2).sum().backward()
    report += [base.grad, view.grad]
    base.requires_grad_(False)
    report.append(view.requires_grad)
    other = lib.zeros(2)
    view = other[0:1]
    other.requires_grad = True
    return report + [view.requires_grad]


def attributes(lib):
    x = lib.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    del x.grad
    report = [x.grad]
    x.data = lib.zeros(3)
    report += [x, x.requires_grad]
    for action in (lambda: delattr(x, "data"), lambda: delattr(x, "requires_grad"),
                   lambda: setattr(x, "data", [1, 2, 3]), lambda: setattr(x, "requires_grad", "yes"),
                   lambda: setattr(x, "requires_grad", 1)):
        report.append(attempt(action))
    return report


@pytest.mark.parametrize("scenario", [flagged_base, attributes])
def test_attributes_follow_pytorchs_rules(torch, scenario):
    same(torch, scenario)
