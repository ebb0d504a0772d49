# d2l, Convolutional Neural Networks (LeNet): the layers' output shapes, then a few SGD steps on random images.
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
print(net[0])
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape: \t', X.shape)

X = torch.randn(16, 1, 28, 28)
y = torch.randint(0, 10, (16,))
loss = nn.CrossEntropyLoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.9)
for step in range(5):
    trainer.zero_grad()
    l = loss(net(X), y)
    l.backward()
    trainer.step()
    print(f'step {step + 1}, loss {l.item():.4f}')
print(net[0].weight.grad.shape, net[0].bias.grad.shape, net[3].weight.grad.norm() > 0)
with torch.no_grad():
    print(net(X).argmax(dim=1)[:8])
