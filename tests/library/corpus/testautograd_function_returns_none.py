# pytorch test/test_autograd.py, test_function_returns_input / test_function_returns_undefined_tensor: None from backward leaves .grad None.
import torch
from torch.autograd import Function

torch.manual_seed(0)


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


for shape in [(1,), ()]:
    v = torch.ones(shape, requires_grad=True)
    Identity.apply(v).backward()
    print(v.grad)
    with torch.no_grad():
        v.grad.zero_()
    Identity.apply(v.clone()).backward()
    print(v.grad)


class ReturnsNone(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return None


x = torch.ones(1, requires_grad=True)
ReturnsNone.apply(x).backward()
print(x.grad)
ReturnsNone.apply(x ** 2).backward()
print(x.grad)
print(torch.autograd.grad(ReturnsNone.apply(x), x, allow_unused=True))


class BadShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return torch.ones(10)


try:
    BadShape.apply(torch.randn(5, 5, requires_grad=True)).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
