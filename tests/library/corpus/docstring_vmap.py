# PyTorch docstring of torch.vmap: batched dot products, in_dims with None, out_dims, and a nested vmap.
import torch

torch.manual_seed(0)
batched_dot = torch.vmap(torch.dot)
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y), (x * y).sum(1))

weights = torch.randn(4)


def model(feature_vec):
    return feature_vec.dot(weights).relu()


examples = torch.randn(3, 4)
print(torch.vmap(model)(examples))
print(torch.vmap(torch.mul, in_dims=(0, None))(torch.ones(3, 2), torch.tensor([5.0, 6.0])))
print(torch.vmap(lambda t: t * 2, out_dims=1)(torch.arange(6.0).reshape(3, 2)))
print(torch.vmap(torch.vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
