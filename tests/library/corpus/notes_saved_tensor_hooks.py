# PyTorch docs, notes/autograd "Hooks for saved tensors": hooks on one saved tensor, and default hooks for a block.
import torch

torch.manual_seed(0)
calls = []


def pack_hook(t):
    calls.append(("pack", tuple(t.shape)))
    return t * 10


def unpack_hook(t):
    calls.append(("unpack", tuple(t.shape)))
    return t / 10


x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(calls)
print(torch.equal(y.grad_fn._saved_self, x))
y.sum().backward()
print(calls, torch.allclose(x.grad, 2 * x))

with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
    x = torch.randn(5, requires_grad=True)
    y = x * x
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is x, y.grad_fn._saved_self.equal(x))
x = torch.randn(5, requires_grad=True)
y = x * x
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is x)
y.sum().backward()
try:
    y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
except RuntimeError as error:
    print("RuntimeError:", error)
