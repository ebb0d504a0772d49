# pytorch test/test_autograd.py, test_index_backward_does_not_save_tensor and the retain_graph checks: backward twice through indexing.
import torch

a = torch.zeros(4, requires_grad=True)
b = a[torch.tensor([0, 2])]
b.sum().backward()
print(a.grad, b.grad_fn.name())
try:
    b.sum().backward()
    print(a.grad)
except RuntimeError as error:
    print("RuntimeError:", error)

x = torch.arange(6.0, requires_grad=True)
y = x[[1, 1, 3]] * x[[0, 2, 4]]
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
x = torch.arange(6.0, requires_grad=True)
y = x[x > 2] ** 2
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
