# d2l-en, Batch Normalization from scratch (chapter_convolutional-modern/batch-norm.md): moving statistics under no_grad, gamma and beta as Parameters.
import torch
from torch import nn

torch.manual_seed(0)


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1)
        return Y


layer = BatchNorm(3, num_dims=2)
X = torch.randn(8, 3) * 4 + 2
Y = layer(X)
print(Y.mean(dim=0).abs().max() < 1e-5, Y.grad_fn.name())
(Y ** 3).sum().backward()
print(layer.gamma.grad, layer.beta.grad)
print(layer.moving_mean, layer.moving_var.requires_grad)
with torch.no_grad():
    print(layer(X)[0])
X4 = torch.randn(2, 3, 2, 2)
print(BatchNorm(3, num_dims=4)(X4).shape)
