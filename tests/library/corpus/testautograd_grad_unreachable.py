# pytorch test/test_autograd.py, test_grad_unreachable and test_grad_badcalls: unused inputs, tensors that do not require grad.
import torch

x = torch.ones(1, requires_grad=True)
y = torch.ones(1, requires_grad=True)
z = x * 2
w = y * 2
grad_x, grad_y = torch.autograd.grad(x * 2, [x, y], allow_unused=True)
print(grad_x, grad_y)
z = torch.ones(1, requires_grad=True)
print(torch.autograd.grad(x * 2, [x, z], allow_unused=True))
try:
    torch.autograd.grad(x * 2, [x, y], allow_unused=False)
except RuntimeError as error:
    print("RuntimeError:", error)

x = torch.ones(1)
y = x ** 2
for call in (lambda: x.backward(), lambda: torch.autograd.grad(x, y), lambda: torch.autograd.grad(y, x)):
    try:
        call()
    except RuntimeError as error:
        print("RuntimeError:", error)
x = torch.ones(1, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, retain_graph=True))
try:
    y.grad_fn(x.detach(), x.detach())
except TypeError as error:
    print("TypeError:", error)
print(y.grad_fn(torch.ones(1)))
