# d2l-en, Parameter Management: reaching parameters, their data and grad, and a layer shared by two places in a net.
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
X = torch.rand(size=(2, 4))
print(net(X).shape)
print(net[2].state_dict().keys())
print(type(net[2].bias), net[2].bias.data)
print(net[2].weight.grad is None)
print([(name, param.shape) for name, param in net.named_parameters()])

shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
net(X).sum().backward()
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(net[2].weight.grad is net[4].weight.grad, net[2].weight.grad.shape)
print(len(list(net.parameters())))
