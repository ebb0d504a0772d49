# pytorch/tutorials, "Model ensembling": stack_module_state, functional_call on a base copy on the meta device, vmap over the models.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


num_models = 4
models = [TinyNet() for _ in range(num_models)]
minibatches = torch.randn(num_models, 6, 5)
minibatch = minibatches[0]

predictions_diff = [m(mb) for m, mb in zip(models, minibatches)]
predictions_same = [m(minibatch) for m in models]

params, buffers = stack_module_state(models)
print(sorted(params.keys()))
print({k: tuple(v.shape) for k, v in params.items()})
print(buffers)
print(params["fc1.weight"].requires_grad, params["fc1.weight"].is_leaf)

base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")
print(base_model.fc1.weight.device)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


out_diff = vmap(fmodel)(params, buffers, minibatches)
print(out_diff.shape)
print(torch.allclose(out_diff, torch.stack(predictions_diff), atol=1e-6, rtol=1e-6))

out_same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(out_same.shape)
print(torch.allclose(out_same, torch.stack(predictions_same), atol=1e-6, rtol=1e-6))
print(out_same[:, 0].detach())

# the stacked parameters are leaves: a loss over the whole ensemble reaches each model's slice
out_same.pow(2).mean().backward()
print(params["fc2.bias"].grad.shape)
print(params["fc2.bias"].grad)
print(models[0].fc2.bias.grad)
