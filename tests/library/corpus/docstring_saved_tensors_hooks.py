# PyTorch docstrings of torch.autograd.graph.saved_tensors_hooks, save_on_cpu and disable_saved_tensors_hooks.
import torch

torch.manual_seed(0)


def pack_hook(x):
    print("Packing", x)
    return x.detach()


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)

a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
c = torch.randn(5, requires_grad=True)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    prod_1 = a * b
    prod_2 = prod_1 * c
y = prod_2.sum()
y.backward()
print(torch.allclose(a.grad, b * c))

message = "saved tensors default hooks are disabled"
with torch.autograd.graph.disable_saved_tensors_hooks(message):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            pass
    except RuntimeError as error:
        print("RuntimeError:", error)
