# pytorch/tutorials reinforcement_q_learning.py and DQN after Mnih et al.: online and target networks synced by load_state_dict, targets under no_grad with max(1)[0], gather, smooth_l1_loss, one step with value clipping.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 16)
        self.layer2 = nn.Linear(16, n_actions)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


n_obs, n_actions, batch_size, gamma = 4, 2, 5, 0.99
policy_net = DQN(n_obs, n_actions)
target_net = DQN(n_obs, n_actions)
print(torch.equal(policy_net.layer1.weight, target_net.layer1.weight))
print(target_net.load_state_dict(policy_net.state_dict()))
print(torch.equal(policy_net.layer1.weight, target_net.layer1.weight),
      policy_net.layer1.weight.data_ptr() == target_net.layer1.weight.data_ptr())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)

state = torch.randn(batch_size, n_obs)
action = torch.tensor([[0], [1], [1], [0], [1]])
reward = torch.tensor([1.0, 1.0, 0.0, 1.0, 1.0])
next_state = torch.randn(batch_size, n_obs)
non_final_mask = torch.tensor([True, True, False, True, True])
non_final_next_states = next_state[non_final_mask]

state_action_values = policy_net(state).gather(1, action)
print(state_action_values.shape, state_action_values.grad_fn.name())
next_state_values = torch.zeros(batch_size)
with torch.no_grad():
    q_next = target_net(non_final_next_states)
    print(q_next.max(1))
    next_state_values[non_final_mask] = q_next.max(1)[0]
print(next_state_values.requires_grad)
expected_state_action_values = (next_state_values * gamma) + reward
criterion = nn.SmoothL1Loss()
loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
print(f"{loss.item():.4f}", f"{F.smooth_l1_loss(state_action_values, expected_state_action_values.unsqueeze(1)).item():.4f}")
optimizer.zero_grad()
loss.backward()
torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
print(policy_net.layer2.bias.grad)
print(target_net.layer2.bias.grad)
optimizer.step()
print(policy_net.layer2.bias.data)
print(target_net.layer2.bias.data)

# the soft update of the tutorial: target = tau * policy + (1 - tau) * target, key by key
tau = 0.005
target_net_state_dict = target_net.state_dict()
policy_net_state_dict = policy_net.state_dict()
for key in policy_net_state_dict:
    target_net_state_dict[key] = policy_net_state_dict[key] * tau + target_net_state_dict[key] * (1 - tau)
target_net.load_state_dict(target_net_state_dict)
print(target_net.layer2.bias.data)
print(list(optimizer.state[policy_net.layer2.bias].keys()))

# the action the greedy policy takes
with torch.no_grad():
    print(policy_net(state).max(1).indices.view(-1, 1).squeeze(1))
