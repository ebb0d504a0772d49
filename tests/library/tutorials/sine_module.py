# The cubic as a Module of its own: four scalar Parameters, trained with SGD.
import math

import torch


class Cubic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3"


torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Cubic()
print(model)
print([name for name, _ in model.named_parameters()], model.a)
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for step in range(1000):
    loss = criterion(model(x), y)
    if step % 200 == 199:
        print(step, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model.string())
