# PyTorch docs, notes/autograd "Division by Zero in Autograd": masking after dividing still gives nan; masking before does not.
import torch

x = torch.tensor([1., 1.], requires_grad=True)
div = torch.tensor([0., 1.])
y = x / div
mask = div != 0
loss = y[mask].sum()
loss.backward()
print(y, x.grad)

x = torch.tensor([1., 1.], requires_grad=True)
mask = div != 0
safe = torch.zeros_like(x)
safe[mask] = x[mask] / div[mask]
loss = safe.sum()
loss.backward()
print(safe, x.grad)
print(safe.grad_fn.name())
