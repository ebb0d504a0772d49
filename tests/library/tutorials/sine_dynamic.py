# A model whose forward pass is ordinary Python: each call adds x^4, and sometimes x^5,
# both weighted by the same parameter e, so e's gradient sums over every use.
import math
import random

import torch


class RandomDegree(torch.nn.Module):
    def __init__(self):
        super().__init__()
        for name in "abcde":
            setattr(self, name, torch.nn.Parameter(torch.randn(())))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for power in range(4, random.randint(4, 5) + 1):
            y = y + self.e * x ** power
        return y

    def string(self):
        return (f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 "
                f"+ {self.d.item():.4f} x^3 + {self.e.item():.6f} x^4 (+ the same x^5, at random)")


torch.manual_seed(0)
random.seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = RandomDegree()
print(model, len(list(model.parameters())))
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1.5e-8, momentum=0.9)
print(optimizer)
for step in range(2000):
    loss = criterion(model(x), y)
    if step % 400 == 399:
        print(step, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model.string())
