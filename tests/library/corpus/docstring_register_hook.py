# PyTorch docstrings of Tensor.register_hook, retain_grad, is_leaf and requires_grad_.
import torch

torch.manual_seed(0)

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
b = torch.rand(10, requires_grad=True) + 2
print(b.is_leaf)
c = torch.rand(10)
print(c.is_leaf, c.requires_grad)
d = torch.rand(10).requires_grad_()
print(d.is_leaf)
e = torch.rand(10, requires_grad=True).double()
print(e.is_leaf, e.grad_fn.name())
b.retain_grad()
(b * b).sum().backward()
print(b.grad.shape, b.is_leaf, b.retains_grad, a.retains_grad)
try:
    b.register_hook(None)
except Exception as error:
    print(type(error).__name__ + ":", error)
try:
    c.register_hook(lambda g: g)
except RuntimeError as error:
    print("RuntimeError:", error)
