# pytorch test/test_autograd.py, test_requires_grad_, test_set_data_* and the .grad assignment tests: views of a flagged base, .data, del .grad.
import torch

base = torch.zeros(4)
view = base[1:3]
base.requires_grad_()
print(view.requires_grad, base[1:3].requires_grad, view.is_leaf)

x = torch.ones(3, requires_grad=True)
(x * 2).sum().backward()
print(x.grad)
del x.grad
print(x.grad)
x.data = torch.zeros(3)
print(x, x.requires_grad)
try:
    del x.data
except Exception as error:
    print(type(error).__name__ + ":", error)
try:
    del x.requires_grad
except Exception as error:
    print(type(error).__name__ + ":", error)
try:
    x.data = [1, 2, 3]
except Exception as error:
    print(type(error).__name__ + ":", error)
try:
    x.requires_grad = "yes"
except Exception as error:
    print(type(error).__name__ + ":", error)
try:
    x.grad = torch.ones(2)
except RuntimeError as error:
    print("RuntimeError:", error)
x.grad = torch.ones(3)
print(x.grad, torch.ones(3, dtype=torch.float64).requires_grad_().grad)
