# PyTorch docs, notes/autograd "Saved tensors": what x.pow(2) and x.exp() keep for backward, and when it is the same object.
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
print(y.grad_fn._saved_result.grad_fn)
y.sum().backward()
try:
    y.grad_fn._saved_result
except RuntimeError as error:
    print("RuntimeError:", error)
