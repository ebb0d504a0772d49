# PyTorch docs, notes/serialization "Saving and loading tensors": round trips through a buffer, views that keep sharing storage, state_dict.
import io

import torch
from torch import nn

torch.manual_seed(0)
buffer = io.BytesIO()
t = torch.tensor([1., 2.])
torch.save(t, buffer)
buffer.seek(0)
print(torch.load(buffer))

numbers = torch.arange(1, 10)
evens = numbers[1::2]
buffer = io.BytesIO()
torch.save([numbers, evens], buffer)
buffer.seek(0)
loaded_numbers, loaded_evens = torch.load(buffer)
loaded_numbers *= 2
print(loaded_evens)

w = torch.ones(3, requires_grad=True)
buffer = io.BytesIO()
torch.save(w, buffer)
buffer.seek(0)
w2 = torch.load(buffer)
print(w2, w2.is_leaf, w2.grad)

bn = nn.BatchNorm1d(3, track_running_stats=True)
buffer = io.BytesIO()
torch.save(bn.state_dict(), buffer)
buffer.seek(0)
state = torch.load(buffer)
print(list(state.keys()))
new_bn = nn.BatchNorm1d(3, track_running_stats=True)
print(new_bn.load_state_dict(state))
