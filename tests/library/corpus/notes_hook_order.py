# PyTorch docs, notes/autograd "Backward Hooks execution": the order of tensor hooks, node pre-hooks, retain_grad, post-accumulate and post hooks.
import torch

order = []
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.retain_grad()
b.register_hook(lambda g: order.append("tensor hook on b"))
b.grad_fn.register_prehook(lambda gos: order.append("pre-hook on b's node"))
b.grad_fn.register_hook(lambda gis, gos: order.append("post hook on b's node"))
a.register_hook(lambda g: order.append("tensor hook on a"))
a.register_post_accumulate_grad_hook(lambda t: order.append("post-accumulate on a"))
acc = b.grad_fn.next_functions[0][0]
acc.register_prehook(lambda gos: order.append("pre-hook on AccumulateGrad"))
acc.register_hook(lambda gis, gos: order.append("post hook on AccumulateGrad"))
b.sum().backward()
print(*order, sep="\n")
print(a.grad, b.grad)

x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
y.register_hook(lambda g: print("second hook sees", g))
y.sum().backward()
print(x.grad)
