# PyTorch docstrings of torch.autograd.functional vjp, jvp and hvp with create_graph=True: results that carry a graph, and their grad_fn.
import torch
from torch.autograd.functional import hvp, jvp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
out, v = vjp(exp_reducer, inputs, torch.ones(2), create_graph=True)
print(out.grad_fn.name(), v.grad_fn.name())
out, j = jvp(exp_reducer, inputs, torch.ones(2, 2), create_graph=True)
print(out.grad_fn.name(), j.grad_fn.name())
print(j)


def pow_reducer(x):
    return x.pow(3).sum()


out, h = hvp(pow_reducer, inputs, torch.ones(2, 2), create_graph=True)
print(out.grad_fn.name(), h.grad_fn.name(), h)
h.sum().backward()
print(inputs.grad)
