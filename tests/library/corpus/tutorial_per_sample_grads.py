# pytorch/tutorials, "Per-sample-gradients": a loop of backward calls against vmap(grad(...)) over functional_call.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)


class SimpleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = SimpleNet()
data = torch.randn(4, 6)
targets = torch.tensor([0, 2, 1, 2])


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


def compute_grad(sample, target):
    prediction = model(sample.unsqueeze(0))
    loss = loss_fn(prediction, target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))


per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(4)]
per_sample_grads = list(zip(*per_sample_grads))
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
print([g.shape for g in per_sample_grads])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)


ft_compute_sample_grad = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    print(torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
