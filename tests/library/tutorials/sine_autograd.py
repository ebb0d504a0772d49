# Fit sin(x) on [-pi, pi] with a cubic a + b x + c x^2 + d x^3: autograd finds the gradients,
# and plain gradient descent updates the four coefficients by hand.
import math

import torch

torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
coefficients = [torch.randn((), device=device, dtype=dtype, requires_grad=True) for _ in range(4)]
a, b, c, d = coefficients
print("start:", [round(k.item(), 4) for k in coefficients], a.requires_grad, a.is_leaf)
step_size = 1e-6
for step in range(1000):
    prediction = a + b * x + c * x ** 2 + d * x ** 3
    loss = (prediction - y).pow(2).sum()
    if step % 200 == 199:
        print(step, f"{loss.item():.4g}")
    loss.backward()
    with torch.no_grad():  # the updates themselves must not be recorded
        for k in coefficients:
            k -= step_size * k.grad
            k.grad = None  # otherwise the next backward adds to this gradient
print(a.grad, b.requires_grad, b.is_leaf)
print(f"y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
