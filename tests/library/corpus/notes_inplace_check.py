# PyTorch docs, notes/autograd "In-place correctness checks": the version counter catches an overwritten saved tensor.
import torch

a = torch.ones(3, requires_grad=True)
b = a * 2
c = b * b
print(b._version)
b.mul_(3)
print(b._version, b.grad_fn)
try:
    c.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

x = torch.ones(3, requires_grad=True)
y = x.sigmoid()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

x = torch.ones(3, requires_grad=True)
try:
    x.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)
v = x.clone()
v[0] = 5.0
v.sum().backward()
print(x.grad, v.grad_fn.name())
