# d2l-en, Automatic Differentiation, "Gradients and Python Control Flow": loops and branches that depend on data.
import torch

torch.manual_seed(1)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a, d)
print(a.grad == d / a)
print(a.grad)
