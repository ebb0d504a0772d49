# PyTorch docs, notes/autograd "Behavior of Tensor hooks when Tensor is modified in-place": hooks stay with the old grad_fn.
import torch

seen = []
t = torch.tensor(1., requires_grad=True).sin()
t.register_hook(lambda g: seen.append(("before cos_", g)))
t.cos_()
t.register_hook(lambda g: seen.append(("after cos_", g)))
print(t.grad_fn.name())
t.backward()
for name, grad in seen:
    print(name, grad)

x = torch.tensor([0.5, 1.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 100)
y.add_(1)
y.sum().backward()
print(x.grad)
