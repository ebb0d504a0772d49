# pytorch test/test_autograd.py, the view-operation tests (narrow, view_as, expand_as, unfold of slices): gradients flow back into the base.
import torch

x = torch.arange(12.0, requires_grad=True)
m = x.view(3, 4)
n = m.narrow(1, 1, 2)
print(n, n.grad_fn.name())
(n * 2).sum().backward()
print(x.grad.view(3, 4))

a = torch.ones(2, 3, requires_grad=True)
b = torch.arange(6.0).view_as(a)
c = (a * b).view_as(torch.empty(6))
print(c.shape, c.grad_fn.name())
c.sum().backward()
print(a.grad)
d = torch.tensor([1.0, 2.0], requires_grad=True)
e = d.view(2, 1).expand_as(torch.empty(2, 3))
e.sum().backward()
print(e.grad_fn.name(), d.grad)
print(torch.narrow(torch.arange(5.0), 0, 3, 2), n.is_contiguous(), n._base is x)
