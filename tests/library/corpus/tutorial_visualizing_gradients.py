# pytorch/tutorials, "Visualizing Gradients": retain_grad on intermediate outputs and forward hooks that collect them, with and without BatchNorm.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, batchnorm):
        super().__init__()
        layers = []
        width = 6
        for _ in range(3):
            layers.append(nn.Linear(width, width))
            if batchnorm:
                layers.append(nn.BatchNorm1d(width))
            layers.append(nn.Sigmoid())
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


def hook_forward(module, args, output):
    output.retain_grad()
    outputs.append((type(module).__name__, output))


for batchnorm in (False, True):
    net = Net(batchnorm)
    outputs = []
    for module in net.layers:
        module.register_forward_hook(hook_forward)
    x = torch.randn(8, 6)
    net(x).sum().backward()
    print("batchnorm" if batchnorm else "plain", [f"{name}:{out.grad.abs().mean().item():.4f}" for name, out in outputs[:3]])

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a * a
c = b.sum()
b.retain_grad()
c.backward()
print(b.grad, b.is_leaf, a.grad)
