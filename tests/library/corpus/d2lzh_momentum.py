# d2l-zh, 动量法 (momentum) from scratch: velocity states updated in place under no_grad.
import torch

torch.manual_seed(0)


def init_momentum_states(feature_dim):
    v_w = torch.zeros((feature_dim, 1))
    v_b = torch.zeros(1)
    return (v_w, v_b)


def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()


X = torch.randn(50, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3
w = torch.normal(mean=0.0, std=0.01, size=(3, 1), requires_grad=True)
b = torch.zeros((1), requires_grad=True)
states = init_momentum_states(3)
for step in range(20):
    l = ((X @ w + b - y) ** 2 / 2).mean()
    l.backward()
    sgd_momentum([w, b], states, {'lr': 0.05, 'momentum': 0.5})
    if step % 5 == 0:
        print(step, f"{l.item():.4f}")
print(w.reshape(-1), b, states[1])
