# d2l-en, Gradient Descent (chapter Optimization): one-dimensional descent on x**2 and Newton's method with autograd's derivatives.
import torch


def f(x):
    return x ** 2


x = torch.tensor(10.0, requires_grad=True)
results = []
for i in range(10):
    y = f(x)
    y.backward()
    with torch.no_grad():
        x -= 0.2 * x.grad
    x.grad.zero_()
    results.append(round(float(x), 5))
print('epoch 10, x:', results[-1], results[:3])

c = torch.tensor(0.15 * torch.pi)


def g(x):
    return x * torch.cos(c * x)


x = torch.tensor(10.0, requires_grad=True)
for i in range(5):
    (dx,) = torch.autograd.grad(g(x), x, create_graph=True)
    (ddx,) = torch.autograd.grad(dx, x)
    with torch.no_grad():
        x -= dx / ddx
print(x)
