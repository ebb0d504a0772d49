# pytorch/tutorials, "Hooks for autograd saved tensors": which tensors a graph keeps, packing to other objects, saving to disk.
import os
import tempfile
import uuid

import torch

torch.manual_seed(0)
a = torch.randn(5, requires_grad=True)
b = torch.ones(5, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
    y = torch.pow(x, 2)
y.sum().backward()
print(x.grad.equal(2 * x))

storage = []


def pack_index(t):
    storage.append(t)
    return len(storage) - 1


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_index, lambda i: storage[i]):
    y = x * x
y.sum().backward()
print(len(storage), x.grad.equal(2 * x))

x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: repr(t), lambda s: eval("torch." + s)):
    y = x * x
y.sum().backward()
print(bool(torch.all(x.grad - 2 * x <= 1e-4)))

tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name


class SelfDeletingTempFile:
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

    def __del__(self):
        os.remove(self.name)


def pack_to_disk(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_from_disk(temp_file):
    return torch.load(temp_file.name)


x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
    y = x.pow(2)
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_self)
print(len(os.listdir(tmp_dir)))
y.sum().backward()
print(x.grad, len(os.listdir(tmp_dir)))
tmp_dir_obj.cleanup()
