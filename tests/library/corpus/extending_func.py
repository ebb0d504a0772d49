# PyTorch docs, notes/extending.func "Extending torch.func with autograd.Function": setup_context, torch.func.grad, vmap with generate_vmap_rule.
import torch


class MySin(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.sin(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * torch.cos(x)


x = torch.tensor([0.0, 1.0, 2.0])
print(torch.func.grad(lambda t: MySin.apply(t).sum())(x))
print(torch.vmap(MySin.apply)(x.reshape(3, 1)))
print(torch.func.grad(lambda t: MySin.apply(t))(torch.tensor(0.5)))
