# pytorch test/test_autograd.py, test_grad_nonleaf and test_grad_nonleaf_many_outputs: grad with create_graph in a loop, grad wrt chunks.
import torch

torch.manual_seed(0)
x_init = torch.randn(2, 2, requires_grad=True)
x = x_init
y = torch.randn(2, 2, requires_grad=True)
grad_output = torch.ones(2, 2)


def fn(x):
    return x ** 2 + y * x + y ** 2


for _ in range(5):
    grad_x, = torch.autograd.grad(fn(x), x, grad_outputs=grad_output, create_graph=True)
    print(y.grad, x.grad, torch.allclose(grad_x, 2 * x + y))
    x = x + 0.05 * grad_x
print(fn(x).sum() > fn(x_init).sum())
x.backward(grad_output)
print(y.grad is not None, x_init.grad is not None)

x = torch.randn(4, 2, requires_grad=True)
a, b = x.chunk(2)
called = []
x.register_hook(lambda *grads: called.append(True))
go = torch.randn(2, 2)
grad_a, grad_b = torch.autograd.grad(a + 2 * b, [a, b], grad_outputs=go, create_graph=True)
print(torch.equal(grad_a, go), torch.equal(grad_b, go * 2), called, x.grad)
