# Inside autograd: retained gradients, hooks, saved tensors, versions, views.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.retain_grad()
seen = []
h.register_hook(lambda grad: seen.append(grad.clone()))
out = (h * h).sum()
mul = h.grad_fn
print(mul._saved_other, mul.next_functions[0][0].variable is x)
out.backward()
print(h.grad, seen[0], x.grad)
print(h.is_leaf, h.retains_grad, h.requires_grad, h.output_nr, h._version)
node = out.grad_fn
print(node, node.next_functions[0][0])
try:
    mul._saved_other
except RuntimeError as error:
    print("RuntimeError:", str(error)[:40])

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
c = b * b
print(b._version)
b.mul_(3)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
try:
    a.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)

base = torch.arange(6.0).reshape(2, 3)
view = base[1]
view[0] = 100
print(view._is_view(), view._base is base, base._is_view())
print(base, base._version, view._version)

w = torch.tensor(2.0, requires_grad=True)
for step in range(3):
    y = w
    for _ in range(step + 1):
        y = y * w
    y.backward()
    print(step, y.grad_fn, w.grad)
    w.grad = None
