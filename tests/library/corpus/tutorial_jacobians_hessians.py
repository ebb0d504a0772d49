# pytorch/tutorials, "Jacobians, Hessians, hvp, vhp, and more": row-by-row Jacobians, vmap over vjp, jacrev/jacfwd, hessian, hvp.
from functools import partial

import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
jacobian = torch.stack([torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors])
print(jacobian.shape)
print(jacobian[0])
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian, jacobian))
print(torch.allclose(jacrev(predict, argnums=2)(weight, bias, x), jacobian))
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacobian))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_revrev, atol=1e-6))
batch = torch.randn(3, D)
batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, batch)
print(batch_jacobian.shape)


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


tangent = torch.randn(D)
result = hvp(f, (x,), (tangent,))
_, vjp_fn = vjp(grad(f), x)
print(torch.allclose(result, vjp_fn(tangent)[0]), torch.allclose(result, -x.sin() * tangent))
