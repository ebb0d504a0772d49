# pytorch test/test_autograd.py, test_grad_nonleaf_register_hook: hooks on pieces of unbind, backward from each piece.
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
x_list = x.unbind()
x0 = x_list[0]
hook_results = [None]


def hook(grad):
    hook_results[0] = grad


x0.register_hook(hook)
x_list[0].backward()
print(hook_results[0], x.grad, x_list[0].grad)
for i in range(1, 5):
    x_list[i].backward()
    print(hook_results[0], x.grad)
print(x_list[2].grad_fn.name())
