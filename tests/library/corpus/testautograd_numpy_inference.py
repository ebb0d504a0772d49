# pytorch test/test_autograd.py, test_inference_mode_* and numpy on leaves: what inference tensors and no_grad allow.
import torch

x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    try:
        print(x.numpy())
    except RuntimeError as error:
        print("RuntimeError:", error)
print(x.detach().numpy())
with torch.inference_mode():
    c = torch.ones(2)
    d = c * 2
print(c.is_inference(), d.is_inference(), d.requires_grad)
try:
    c.requires_grad_()
except RuntimeError as error:
    print("RuntimeError:", error)
try:
    c.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)
w = torch.ones(2, requires_grad=True)
try:
    (w * d).sum().backward()
    print(w.grad)
except RuntimeError as error:
    print("RuntimeError:", error)
e = d.clone()
print(e.is_inference())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
