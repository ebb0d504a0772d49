# PyTorch docstrings of torch.autograd.grad and torch.autograd.backward: inputs=, allow_unused, materialize_grads, is_grads_batched.
import torch

torch.manual_seed(0)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = (x ** 2).sum() * 2
print(torch.autograd.grad(z, x))
print(torch.autograd.grad((x * 3).sum(), [x, y], allow_unused=True))
print(torch.autograd.grad((x * 3).sum(), [x, y], allow_unused=True, materialize_grads=True))
try:
    torch.autograd.grad((x * 3).sum(), [x, y])
except RuntimeError as error:
    print("RuntimeError:", error)

out = x * y
torch.autograd.backward([out], [torch.ones(2)], inputs=[y])
print(x.grad, y.grad)
out = (x * y).sum()
out.backward(inputs=x)
print(x.grad, y.grad)

x = torch.randn(3, requires_grad=True)
out = x * 2
eye = torch.eye(3)
(jac,) = torch.autograd.grad(out, x, eye, is_grads_batched=True)
print(jac)
