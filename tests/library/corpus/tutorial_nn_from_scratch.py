# pytorch/tutorials, "What is torch.nn really?": logistic regression from scratch (log_softmax, nll by indexing), then refactored with F and nn.Module.
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
n, d, classes = 64, 20, 4
x_train = torch.randn(n, d)
y_train = (x_train[:, :classes] * 2).argmax(1)
weights = torch.randn(d, classes) / math.sqrt(d)
weights.requires_grad_()
bias = torch.zeros(classes, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 16
preds = model(x_train[0:bs])
print(preds[0], preds.shape)
print(nll(preds, y_train[0:bs]), accuracy(preds, y_train[0:bs]))
lr = 0.5
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb = x_train[i * bs: i * bs + bs]
        yb = y_train[i * bs: i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(nll(model(x_train), y_train), accuracy(model(x_train), y_train))
print(F.cross_entropy(x_train @ weights + bias, y_train))


class MnistLogistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(d, classes) / math.sqrt(d))
        self.bias = nn.Parameter(torch.zeros(classes))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = MnistLogistic()
opt = torch.optim.SGD(model.parameters(), lr=lr)
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb, yb = x_train[i * bs: i * bs + bs], y_train[i * bs: i * bs + bs]
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(F.cross_entropy(model(x_train), y_train))
