# pytorch/pytorch torch/nn/init.py docstrings: uniform_, normal_, xavier_uniform_, kaiming_normal_, orthogonal_, trunc_normal_, zeros_, constant_ after manual_seed(0), and calculate_gain.
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(2, 3)
print(nn.init.uniform_(w, a=-1.0, b=1.0))
print(nn.init.normal_(w, mean=0.0, std=0.5))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
q = nn.init.orthogonal_(torch.empty(3, 3))
print(q)
print(torch.allclose(q @ q.T, torch.eye(3), atol=1e-6))
t = nn.init.trunc_normal_(torch.empty(2, 4), mean=0.0, std=1.0, a=-0.5, b=0.5)
print(t)
print(bool(t.abs().max() <= 0.5))
print(nn.init.zeros_(w))
print(nn.init.constant_(w, 0.3))
print(nn.init.ones_(torch.empty(2)), nn.init.eye_(torch.empty(2, 3)))

# the initializers work in place without recording a graph, on Parameters too
layer = nn.Linear(3, 2)
out = nn.init.xavier_normal_(layer.weight)
print(out is layer.weight, layer.weight.requires_grad, layer.weight.grad_fn, layer.weight.is_leaf)
nn.init.constant_(layer.bias, -0.1)
print(layer.bias)
print(nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("linear"))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(5, 3, 2, 2)))
try:
    nn.init.xavier_uniform_(torch.empty(4))
except ValueError as e:
    print(type(e).__name__, e)
