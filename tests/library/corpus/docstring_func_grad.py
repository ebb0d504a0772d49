# PyTorch docstrings of torch.func.grad: derivatives of sin, nested grad, argnums and has_aux.
import torch
from torch.func import grad

x = torch.tensor(0.7)
print(grad(torch.sin)(x), torch.cos(x))
print(grad(grad(torch.sin))(x), -torch.sin(x))


def f(x, y):
    return (x * y ** 2).sum()


a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
print(grad(f)(a, b))
print(grad(f, argnums=1)(a, b))
print(grad(f, argnums=(0, 1))(a, b))


def with_aux(x):
    y = x.sin()
    return y.sum(), y.cos()


g, aux = grad(with_aux, has_aux=True)(a)
print(g, aux)
try:
    grad(lambda t: t * 2)(a)
except RuntimeError as error:
    print("RuntimeError:", error)
