# PyTorch docstrings of torch.autograd.gradcheck and gradgradcheck: passing checks, a wrong backward, raise_exception=False.
import torch
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sigmoid, (x,)), gradgradcheck(torch.tanh, (x,)))


class WrongSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x


print(gradcheck(WrongSquare.apply, (x,), raise_exception=False))
try:
    gradcheck(WrongSquare.apply, (x,))
except RuntimeError as error:
    print("RuntimeError:", str(error).splitlines()[0])
y = torch.randn(3, requires_grad=True)
try:
    gradcheck(torch.sin, (y,))
except Exception as error:
    print(type(error).__name__ + ":", str(error).splitlines()[0])
