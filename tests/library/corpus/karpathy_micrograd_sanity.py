# karpathy/micrograd test/test_engine.py, the PyTorch half of test_sanity_check: relu, products and sums of a scalar.
import torch

x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
xpt, ypt = x, y
print(ypt.data.item(), xpt.grad.item())
print(y, x.grad)
