# pytorch test/test_autograd.py, test_mark_non_differentiable_mixed and the tests of Functions with non-tensor outputs: undefined grads and needs_input_grad.
import torch
from torch.autograd import Function

torch.manual_seed(0)


class MyFunction(Function):
    @staticmethod
    def forward(ctx, input):
        a = input + 1
        b = input + 2
        ctx.mark_non_differentiable(a)
        return a, b, 3, "label"

    @staticmethod
    def backward(ctx, grad_a, grad_b, grad_3, grad_label):
        print("grad_a:", grad_a, "grad_b:", grad_b, "others:", grad_3, grad_label)
        return grad_b


x = torch.randn(3, requires_grad=True)
a, b, three, label = MyFunction.apply(x)
print(a.requires_grad, b.requires_grad, three, label)
b.sum().backward()
print(x.grad)


class Two(Function):
    @staticmethod
    def forward(ctx, x, y, flag):
        print("needs_input_grad:", ctx.needs_input_grad)
        return x + y, x * y

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads:", g1, g2)
        return g1, g1, None


x = torch.ones(2, requires_grad=True)
y = torch.ones(2)
s, p = Two.apply(x, y, True)
s.sum().backward()
print(x.grad)
