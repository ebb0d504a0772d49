# PyTorch docs, notes/extending: a Function with a non-tensor argument, and the same with set_materialize_grads(False).
import torch
from torch.autograd import Function


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 5.0)
print(y)
y.sum().backward()
print(x.grad)


class LazyMulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant, tensor + constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.set_materialize_grads(False)
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_product, grad_sum):
        print("grads given:", grad_product, grad_sum)
        if grad_product is None:
            return grad_sum, None
        result = grad_product * ctx.constant
        return (result if grad_sum is None else result + grad_sum), None


x = torch.tensor([1.0, 2.0], requires_grad=True)
product, total = LazyMulConstant.apply(x, 3.0)
product.sum().backward()
print(x.grad)
x.grad = None
product, total = LazyMulConstant.apply(x, 3.0)
total.sum().backward()
print(x.grad)
