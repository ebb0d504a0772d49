# PyTorch docstring of Tensor.register_post_accumulate_grad_hook: a hook on a leaf that runs once its .grad is updated; what it may return.
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01


def sgd_step(p):
    with torch.no_grad():
        p.add_(p.grad, alpha=-lr)


h = v.register_post_accumulate_grad_hook(sgd_step)
v.backward(torch.tensor([1., 2., 3.]))
print(v, v.grad)
h.remove()

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: p.grad.clamp_(-0.5, 0.5))
try:
    (w * torch.tensor([2.0, -0.1, -4.0])).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
print(w.grad)
try:
    (w * 2).register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as error:
    print("RuntimeError:", error)
