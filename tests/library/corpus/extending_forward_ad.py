# PyTorch docs, notes/extending "Forward mode AD": a Function with jvp and ctx.save_for_forward, used with dual tensors.
import torch
import torch.autograd.forward_ad as fwAD


class MyMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return grad_output * y, grad_output * x

    @staticmethod
    def jvp(ctx, x_t, y_t):
        x, y = ctx.saved_tensors
        return x_t * y + x * y_t


x = torch.tensor([1.0, 2.0], dtype=torch.double)
y = torch.tensor([3.0, 4.0], dtype=torch.double)
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, torch.ones_like(x))
    out = MyMul.apply(dual_x, y)
    primal, tangent = fwAD.unpack_dual(out)
    print(primal, tangent)
x.requires_grad_()
y.requires_grad_()
print(torch.autograd.gradcheck(MyMul.apply, (x, y), check_forward_ad=True))
