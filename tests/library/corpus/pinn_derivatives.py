# Physics-informed neural networks (Raissi et al. and the PINN tutorials after them): u(x) a tanh MLP, u' and u'' by autograd.grad(create_graph=True), the residual of u'' + u = 0 with boundary terms, Adam steps.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(1, 10), nn.Tanh(), nn.Linear(10, 10), nn.Tanh(), nn.Linear(10, 1))
x = torch.linspace(0, math.pi / 2, 8).unsqueeze(1).requires_grad_(True)
print(x.shape, x.is_leaf, x.requires_grad)


def derivatives(x):
    u = net(x)
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u, u_x, u_xx


u, u_x, u_xx = derivatives(x)
print(u.shape, u_x.shape, u_xx.shape)
print(u_x.grad_fn is not None, u_xx.grad_fn is not None)

# the derivatives agree with a central finite difference
h = 1e-2
with torch.no_grad():
    fd1 = (net(x + h) - net(x - h)) / (2 * h)
    fd2 = (net(x + h) - 2 * net(x) + net(x - h)) / h ** 2
print(torch.allclose(u_x, fd1, atol=1e-3), torch.allclose(u_xx, fd2, atol=1e-2))

# u(0) = 0, u'(0) = 1: the solution is sin(x)
x0 = torch.zeros(1, 1, requires_grad=True)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(3):
    optimizer.zero_grad()
    u, u_x, u_xx = derivatives(x)
    residual = u_xx + u
    loss_pde = residual.pow(2).mean()
    u0 = net(x0)
    du0 = torch.autograd.grad(u0.sum(), x0, create_graph=True)[0]
    loss_bc = (u0 - 0.0).pow(2).mean() + (du0 - 1.0).pow(2).mean()
    loss = loss_pde + loss_bc
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} (pde {loss_pde.item():.4f}, bc {loss_bc.item():.4f})")
print(x.grad.shape)
print(f"{net[0].weight.grad.norm().item():.4f}")
with torch.no_grad():
    print(net(torch.tensor([[0.0], [math.pi / 2]])).squeeze(1))
