# d2l-zh, 微积分 (calculus): the numerical limit of f(x) = 3x^2 - 4x at x = 1, next to autograd's derivative.
import torch


def f(x):
    return 3 * x ** 2 - 4 * x


def numerical_lim(f, x, h):
    return (f(x + h) - f(x)) / h


h = 0.1
for i in range(5):
    print(f'h={h:.5f}, numerical limit={numerical_lim(f, 1, h):.5f}')
    h *= 0.1

x = torch.tensor(1.0, requires_grad=True)
y = f(x)
y.backward()
print(y, x.grad)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(grad,) = torch.autograd.grad(f(x).sum(), x)
print(grad, 6 * x.detach() - 4)
