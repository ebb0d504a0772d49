# d2l-en, Automatic Differentiation: the gradient of 2 x.x, then of sum(x), then of x * x through a seed vector.
import torch

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
try:
    (x * x).backward()
except RuntimeError as error:
    print("RuntimeError:", error)
