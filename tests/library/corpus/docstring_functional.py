# PyTorch docstrings of torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp on the documented small functions.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(0)


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True).grad_fn is not None)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


print(jacobian(exp_adder, (torch.rand(2), torch.rand(2))))


def pow_reducer(x):
    return x.pow(3).sum()


print(hessian(pow_reducer, torch.rand(2, 2)))


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


print(hessian(pow_adder_reducer, (torch.rand(2), torch.rand(2))))
v = torch.ones(2)
print(vjp(exp_reducer, inputs, v))
print(jvp(exp_reducer, inputs, torch.ones(2, 2)))
print(hvp(pow_reducer, inputs, torch.ones(2, 2)))
print(vhp(pow_reducer, inputs, torch.ones(2, 2)))
print(jacobian(exp_reducer, inputs, vectorize=True))
