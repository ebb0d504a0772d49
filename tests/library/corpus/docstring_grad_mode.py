# PyTorch docstrings of no_grad, enable_grad, set_grad_enabled and inference_mode: context managers and decorators.
import torch

torch.manual_seed(0)

x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)


@torch.no_grad()
def doubler(x):
    return x * 2


z = doubler(x)
print(z.requires_grad)


@torch.no_grad
def tripler(x):
    return x * 3


print(tripler(x).requires_grad)
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)


@torch.enable_grad()
def enabled_doubler(x):
    return x * 2


with torch.no_grad():
    print(enabled_doubler(x).requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
print((x * 2).requires_grad)
_ = torch.set_grad_enabled(False)
print((x * 2).requires_grad)
_ = torch.set_grad_enabled(True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad, y.is_inference())


@torch.inference_mode()
def func(x):
    return x * x


print(func(x).requires_grad, torch.is_inference_mode_enabled())
