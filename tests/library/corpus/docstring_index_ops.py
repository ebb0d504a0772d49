# PyTorch docstrings of Tensor.index_add_, torch.nonzero, torch.index_select and torch.sort/argsort, with the gradients each passes back.
import torch

x = torch.ones(5, 3)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float)
index = torch.tensor([0, 4, 2])
print(x.index_add_(0, index, t))
src = torch.ones(3, 3, requires_grad=True)
out = torch.zeros(5, 3).index_add(0, index, src * 2)
out.sum().backward()
print(out.grad_fn.name(), src.grad)

print(torch.nonzero(torch.tensor([1, 1, 1, 0, 1])))
print(torch.nonzero(torch.tensor([[0.6, 0.0, 0.0, 0.0], [0.0, 0.4, 0.0, 0.0]]), as_tuple=True))
w = torch.tensor([[0.1, 1.2, 3.4], [-0.5, 2.0, 0.0]], requires_grad=True)
sel = torch.index_select(w, 1, torch.tensor([0, 2]))
sel.sum().backward()
print(sel, w.grad)

v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, indices = torch.sort(v, descending=True)
print(values, indices, torch.argsort(v))
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)
