# The nn cubic fit again, with an optimizer (RMSprop) doing the updates.
import math

import torch

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
features = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
squared_error = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)
for step in range(500):
    loss = squared_error(model(features), y)
    if step % 100 == 99:
        print(step, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(sorted(optimizer.state[model[0].weight]), optimizer.state[model[0].bias]["step"])
layer = model[0]
print(f"y = {layer.bias.item():.4f} + {layer.weight[:, 0].item():.4f} x "
      f"+ {layer.weight[:, 1].item():.4f} x^2 + {layer.weight[:, 2].item():.4f} x^3")
