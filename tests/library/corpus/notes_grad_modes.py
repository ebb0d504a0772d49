# PyTorch docs, notes/autograd "Locally disabling gradient computation": requires_grad, no-grad, inference mode, eval mode.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Dropout(0.5), nn.Linear(4, 1))
model[0].requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
out = model(torch.randn(2, 3)).sum()
out.backward()
print(model[0].weight.grad, model[2].weight.grad.shape)

x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    z = x * 2
print(z.requires_grad, z.is_inference(), torch.is_inference_mode_enabled())
try:
    (z * x).sum().backward()
    print(x.grad)
except RuntimeError as error:
    print("RuntimeError:", error)
model.eval()
print(model.training, model[1].training)
with torch.set_grad_enabled(False):
    print((x * 3).requires_grad)
print(torch.is_grad_enabled())
