# d2l-en, Automatic Differentiation, exercises: backward twice, a vector input to the control-flow function, d sin / dx.
import math

import torch

torch.manual_seed(0)
x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(3,), requires_grad=True)
d = f(a)
print(d.shape, d.grad_fn)
d.sum().backward()
print(a.grad)
print(torch.allclose(a.grad * a, d))

x = torch.linspace(-math.pi, math.pi, 9, requires_grad=True)
y = torch.sin(x)
y.backward(torch.ones_like(x))
print(x.grad)
print(torch.allclose(x.grad, torch.cos(x.detach())))
