# PyTorch docs, notes/extending and the torch.autograd.function.FunctionCtx docstrings: mark_dirty, mark_non_differentiable, once_differentiable.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Inplace(Function):
    @staticmethod
    def forward(ctx, x_npy, y):
        ctx.mark_dirty(x_npy)
        x_npy.mul_(2)
        return x_npy

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 2, None


a = torch.tensor([1.0, 2.0], requires_grad=True).clone()
b = Inplace.apply(a, None)
print(a is b, a, a._version)
b.sum().backward()


class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, index = x.max(dim=0)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x, index)
        return values, index

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_values, grad_index):
        x, index = ctx.saved_tensors
        grad = torch.zeros_like(x)
        grad[index, torch.arange(x.shape[1])] = grad_values
        return grad


x = torch.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
values, index = MaxWithIndex.apply(x)
print(values, index, index.requires_grad)
values.sum().backward()
print(x.grad)
values, index = MaxWithIndex.apply(x)
(g,) = torch.autograd.grad(values.sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn)
try:
    g.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
