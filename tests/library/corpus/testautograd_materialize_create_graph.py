# pytorch test/test_autograd.py, test_grad_materialize_grads and gradcheck on outputs that are views of the input.
import torch

torch.manual_seed(0)

x = torch.tensor(0.5, requires_grad=True)
a = torch.tensor(1.0, requires_grad=True)
y = x * a
dydx = torch.autograd.grad(y, x, create_graph=True)
d2ydx2_none = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True)
d2ydx2 = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True, materialize_grads=True)
print(d2ydx2_none, d2ydx2, d2ydx2[0].requires_grad)
d3 = torch.autograd.grad(d2ydx2, x, allow_unused=True, materialize_grads=True)
print(d3)

x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: t.view(3), (x,)))
print(torch.autograd.gradcheck(lambda t: t[:2], (x,)))
print(torch.autograd.gradcheck(lambda t: t.t(), (torch.randn(2, 3, dtype=torch.double, requires_grad=True),)))
