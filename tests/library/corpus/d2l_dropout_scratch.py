# d2l-en, Dropout in Practice: a dropout layer from a Bernoulli mask, its effect at 0, 0.5 and 1, and its gradient.
import torch

torch.manual_seed(0)


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))

W = torch.ones(8, 3, requires_grad=True)
out = dropout_layer(X @ W, 0.5).sum()
out.backward()
print(out, W.grad)
