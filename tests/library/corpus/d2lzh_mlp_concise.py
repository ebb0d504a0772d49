# d2l-zh, 多层感知机的简洁实现: Flatten + Linear + ReLU, normal_ initialisation through apply, a few SGD steps.
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
batch_size, lr, num_epochs = 8, 0.1, 10
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=lr)
X = torch.randn(batch_size, 4, 4)
y = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])
for epoch in range(num_epochs):
    l = loss(net(X), y)
    trainer.zero_grad()
    l.mean().backward()
    trainer.step()
print(l.shape, round(l.mean().item(), 4))
print(net[1].weight.grad.norm() > 0, net[3].bias.grad)
