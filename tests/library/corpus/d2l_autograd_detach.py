# d2l-en, Automatic Differentiation, "Detaching Computation": a detached copy is a constant for backward.
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
z = u * x
print(u, u.requires_grad, u.grad_fn)
z.sum().backward()
print(x.grad == u)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
print(y.grad_fn, z.grad_fn.name())
