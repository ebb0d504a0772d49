# pytorch test/test_autograd.py, test_grad_fn_attr_bindings and the checks of node names: AccumulateGrad, CopySlices, saved attributes.
import torch

x = torch.ones(3, requires_grad=True)
y = x * 2
acc = y.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.name(), acc.variable is x)
z = x.clone()
z[0] = 5.0
print(z.grad_fn.name(), type(z.grad_fn).__name__)
print(z.grad_fn.next_functions[0][0].name())
u = x.unsqueeze(0).squeeze(0)
print(u.grad_fn.name(), u.grad_fn._saved_dim)
s = x.sum(0, keepdim=True)
print(s.grad_fn.name(), s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
p = x.pow(3)
print(p.grad_fn._saved_exponent, p.grad_fn.name())
m = torch.mm(x.view(1, 3), x.view(3, 1))
print(m.grad_fn.name(), [n[0].name() for n in m.grad_fn.next_functions])
