# huggingface/pytorch-image-models timm/utils/model_ema.py (ModelEmaV2): a deepcopy kept in eval mode and updated under no_grad by copy_ over state_dict().values(), buffers included.
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelEma(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = deepcopy(model)
        self.module.eval()
        self.decay = decay

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1.0 - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
ema = ModelEma(model, decay=0.9)
print(ema.module.training, model.training)
print(list(ema.module.state_dict().keys()))
print([p.requires_grad for p in ema.module.parameters()])
print(ema.module[0].weight.data_ptr() == model[0].weight.data_ptr())

optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(8, 3)
y = torch.randint(0, 2, (8,))
for step in range(2):
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema.update(model)
    print(f"step {step}: loss {loss.item():.4f}")

print(model[3].bias.data)
print(ema.module[3].bias.data)
print(ema.module[3].bias.grad, ema.module[3].bias.requires_grad)
print(model[1].running_mean)
print(ema.module[1].running_mean)
print(model[1].num_batches_tracked, ema.module[1].num_batches_tracked)
with torch.no_grad():
    print(ema(x[:2]))
ema.set(model)
print(torch.equal(ema.module[3].weight, model[3].weight))
