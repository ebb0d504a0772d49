# PyTorch docstrings of torch.bernoulli, torch.multinomial and torch.normal: seeded draws, and that sampling has no gradient.
import torch

torch.manual_seed(0)
a = torch.empty(3, 3).uniform_(0, 1)
print(a)
print(torch.bernoulli(a))
print(torch.bernoulli(torch.ones(2, 2)), torch.bernoulli(torch.zeros(2, 2)))
weights = torch.tensor([0, 10, 3, 0], dtype=torch.float)
print(torch.multinomial(weights, 2))
print(torch.multinomial(weights, 4, replacement=True))
print(torch.normal(mean=torch.arange(1., 6.), std=torch.arange(1, 0, -0.2)))
print(torch.normal(2, 3, size=(1, 4)))
p = torch.tensor([0.3, 0.7], requires_grad=True)
sample = torch.bernoulli(p)
print(sample.requires_grad, sample.grad_fn)
