# pytorch test/test_autograd.py, test_hooks: counting hook calls, removing hooks, a hook that changes the gradient.
import torch

x = torch.ones(5, 5, requires_grad=True)
y = torch.ones(5, 5) * 4
y.requires_grad_(True)
counter = [0]


def bw_hook(inc, grad):
    assert isinstance(grad, torch.Tensor)
    counter[0] += inc


z = x ** 2 + x * 2 + x * y + y
x.register_hook(lambda *args: bw_hook(0, *args))
test = z.register_hook(lambda *args: bw_hook(1, *args))
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter[0])
test2 = z.register_hook(lambda *args: bw_hook(2, *args))
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter[0])
test2.remove()
z.backward(torch.ones(5, 5), retain_graph=True)
print(counter[0])


def bw_hook_modify(grad):
    return grad.mul(2)


test.remove()
z.register_hook(bw_hook_modify)
with torch.no_grad():
    y.grad.zero_()
z.backward(torch.ones(5, 5), retain_graph=True)
print(y.grad[0])
z.register_hook(bw_hook_modify)
y.grad.zero_()
z.backward(torch.ones(5, 5))
print(y.grad[0], x.grad[0, 0])
