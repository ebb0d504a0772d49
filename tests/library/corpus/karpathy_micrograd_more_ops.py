# karpathy/micrograd test/test_engine.py, the PyTorch half of test_more_ops: +=, powers, relu, division by and of a tensor.
import torch

a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
g.backward()
apt, bpt, gpt = a, b, g
print(f"{gpt.data.item():.4f}", f"{apt.grad.item():.4f}", f"{bpt.grad.item():.4f}")
print(g.grad_fn.name(), f.grad_fn.name(), e.grad_fn.name())
