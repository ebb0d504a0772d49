# The same cubic fit, now as a one-neuron torch.nn model on the features (x, x^2, x^3);
# its weight and bias are the coefficients, updated in place by gradient descent.
import math

import torch

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
powers = torch.tensor([1, 2, 3])
features = x.unsqueeze(-1).pow(powers)  # one row (x, x^2, x^3) per sample
print(powers, powers.dtype, tuple(features.shape), features.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
squared_error = torch.nn.MSELoss(reduction="sum")
for step in range(1000):
    loss = squared_error(model(features), y)
    if step % 200 == 199:
        print(step, f"{loss.item():.4g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter -= 1e-6 * parameter.grad
layer = model[0]
print(tuple(layer.weight.shape), tuple(layer.bias.shape), layer.weight.grad is not None)
cubic = [layer.bias.item()] + [layer.weight[:, i].item() for i in range(3)]
print("y = {:.4f} + {:.4f} x + {:.4f} x^2 + {:.4f} x^3".format(*cubic))
