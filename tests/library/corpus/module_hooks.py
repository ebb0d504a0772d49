# pytorch/pytorch torch/nn/modules/module.py docstrings: register_forward_pre_hook, register_forward_hook, register_full_backward_pre_hook, register_full_backward_hook on a Sequential, in call order, then removed.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
calls = []


def shapes(ts):
    return [None if t is None else tuple(t.shape) for t in ts]


def forward_pre_hook(name):
    def hook(module, args):
        calls.append(f"forward_pre {name} {type(module).__name__} args={shapes(args)}")
    return hook


def forward_hook(name):
    def hook(module, args, output):
        calls.append(f"forward {name} args={shapes(args)} output={tuple(output.shape)}")
    return hook


def backward_pre_hook(name):
    def hook(module, grad_output):
        calls.append(f"backward_pre {name} grad_output={shapes(grad_output)}")
    return hook


def backward_hook(name):
    def hook(module, grad_input, grad_output):
        calls.append(f"backward {name} grad_input={shapes(grad_input)} grad_output={shapes(grad_output)}")
    return hook


handles = []
for name, module in [("net", net), ("0", net[0]), ("1", net[1]), ("2", net[2])]:
    handles.append(module.register_forward_pre_hook(forward_pre_hook(name)))
    handles.append(module.register_forward_hook(forward_hook(name)))
    handles.append(module.register_full_backward_pre_hook(backward_pre_hook(name)))
    handles.append(module.register_full_backward_hook(backward_hook(name)))
print(type(handles[0]).__name__)

x = torch.randn(5, 3, requires_grad=True)
out = net(x)
print(out.grad_fn.name())
out.sum().backward()
for line in calls:
    print(line)

# a forward pre-hook may replace the input, a forward hook the output, a backward hook grad_input
calls.clear()
h1 = net[2].register_forward_pre_hook(lambda m, args: (args[0] * 0,))
h2 = net.register_forward_hook(lambda m, args, output: output + 1)
print(net(x))
h1.remove()
h2.remove()
h3 = net[0].register_full_backward_hook(lambda m, gin, gout: (gin[0] * 2,))
x.grad = None
net(x).sum().backward()
g_doubled = x.grad.clone()
h3.remove()
print(calls[-1])

for h in handles:
    h.remove()
calls.clear()
x.grad = None
net(x).sum().backward()
print(calls, torch.allclose(g_doubled, 2 * x.grad))
print(len(net._forward_hooks), len(net._forward_pre_hooks), len(net._backward_hooks), len(net._backward_pre_hooks))
