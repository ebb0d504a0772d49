# PyTorch docstrings of torch.autograd.graph.Node: name, next_functions, metadata, register_hook and register_prehook.
import torch

a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
print(b.grad_fn.name(), b.grad_fn.next_functions)
print(b.grad_fn.next_functions[0][0].name())
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

a.grad = None
handle = b.grad_fn.register_prehook(lambda gO: (gO[0] * 3,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
b.grad_fn.metadata["note"] = "set by the user"
print(b.grad_fn.metadata)
print(type(b.grad_fn).__name__, isinstance(b.grad_fn, torch.autograd.graph.Node))
