# d2l-en, Implementation of Multilayer Perceptrons from scratch: Parameters by hand, relu by max, torch.optim.SGD.
import torch
from torch import nn

torch.manual_seed(3)
num_inputs, num_outputs, num_hiddens = 8, 3, 16
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]
print(W1.is_leaf, W1.requires_grad, type(W1).__name__)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.5)
X = torch.randn(32, num_inputs)
y = (X[:, :3].argmax(dim=1))
for epoch in range(15):
    l = loss(net(X), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    if epoch % 5 == 0:
        print(epoch, f"{l.mean().item():.4f}")
print((net(X).argmax(1) == y).float().mean())
