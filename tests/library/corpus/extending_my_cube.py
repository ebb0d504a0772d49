# PyTorch docs, notes/extending: saving an intermediate by returning it (MyCube), so that double backward is right.
import torch

torch.manual_seed(0)


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = my_cube(x)
print(y)
(first,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(first)
(second,) = torch.autograd.grad(first.sum(), x)
print(second)
x = torch.rand(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(my_cube, x), torch.autograd.gradgradcheck(my_cube, x))
