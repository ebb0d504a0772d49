# pytorch/tutorials, "Neural Tangent Kernels": the empirical NTK of a tiny MLP from jacrev of functional_call over a params dict, contracted with einsum.
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, vmap

torch.manual_seed(0)


class TinyMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 6)
        self.fc2 = nn.Linear(6, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


net = TinyMLP()
x_train = torch.randn(4, 3)
x_test = torch.randn(3, 3)

params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


jac = vmap(jacrev(fnet_single), (None, 0))(params, x_train)
print({k: tuple(v.shape) for k, v in jac.items()})

full = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "full")
print(full.shape)
print(full[0, 0])
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace")
print(trace.shape)
print(trace)
diagonal = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal")
print(torch.allclose(diagonal.sum(-1), trace, atol=1e-5))
print(torch.allclose(torch.diagonal(full, dim1=2, dim2=3), diagonal, atol=1e-5))

# the kernel of the training set with itself is symmetric
k_train = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_train, "trace")
print(torch.allclose(k_train, k_train.T, atol=1e-5))

# the same first entry from per-sample gradients by autograd.grad
out = net(x_train[:1])[0, 0]
g = torch.autograd.grad(out, list(net.parameters()))
out2 = net(x_test[:1])[0, 0]
g2 = torch.autograd.grad(out2, list(net.parameters()))
by_hand = sum((a * b).sum() for a, b in zip(g, g2))
print(f"{by_hand.item():.4f} {full[0, 0, 0, 0].item():.4f}")
