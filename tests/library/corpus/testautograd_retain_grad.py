# pytorch test/test_autograd.py, test_retain_grad and test_retain_grad_inplace: .grad of non-leaves, twice, and after an in-place change.
import warnings

import torch

torch.manual_seed(0)

input = torch.rand(1, 3, requires_grad=True)
h1 = input * 3
out = (h1 * h1).sum()
h1.retain_grad()
h1.retain_grad()
out.backward(retain_graph=True)
print(torch.allclose(h1.grad, h1 * 2))
out.backward(retain_graph=True)
print(torch.allclose(h1.grad, h1 * 4))
with torch.no_grad():
    input.grad.zero_()
input.retain_grad()
input.retain_grad()
out.backward()
print(torch.allclose(input.grad, input * 18))

a = torch.tensor([1., 2.], requires_grad=True).clone()
a.retain_grad()
a.mul_(2)
a.sum().backward()
print(a.grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    b = torch.ones(2, requires_grad=True) * 2
    print(b.grad)
print(len(caught), caught[0].category.__name__ if caught else None)
try:
    torch.ones(2).retain_grad()
except RuntimeError as error:
    print("RuntimeError:", error)
