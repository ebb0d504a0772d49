# PyTorch docs, notes/autograd "Special hooks": register_multi_grad_hook fires once, after every listed tensor has its gradient.
import torch

a = torch.ones(2, requires_grad=True)
b = torch.ones(3, requires_grad=True)
c = torch.ones(1, requires_grad=True)


def hook(grads):
    print("multi hook:", [None if g is None else g.tolist() for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c), hook)
(a * 2).sum().add((b * 3).sum()).backward()
(a.sum() + b.sum() + c.sum()).backward()
handle.remove()
(a.sum() + c.sum()).backward()
print(a.grad, c.grad)
seen = []
torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: seen.append(g), mode="any")
(b * 5).sum().backward()
print(len(seen), seen[0])
