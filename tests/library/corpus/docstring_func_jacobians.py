# PyTorch docstrings of torch.func.vjp, jvp, jacrev, jacfwd and hessian on sin and small polynomials.
import torch
from torch.func import hessian, jacfwd, jacrev, jvp, vjp

x = torch.tensor([0.1, 0.2, 0.3])
out, vjp_fn = vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(3)))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
print(jacrev(torch.sin)(x))
print(jacfwd(torch.sin)(x))
print(torch.allclose(jacrev(torch.sin)(x), torch.diag(torch.cos(x))))


def f(x, y):
    return x.sin() * y


y = torch.tensor([1.0, 2.0, 3.0])
jx, jy = jacrev(f, argnums=(0, 1))(x, y)
print(jx.diagonal(), jy.diagonal())
print(hessian(lambda t: (t ** 3).sum())(x))
