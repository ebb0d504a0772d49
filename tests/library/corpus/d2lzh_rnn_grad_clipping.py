# d2l-zh, 循环神经网络的从零开始实现: one-hot inputs, an RNN step by hand, and gradient clipping by the global norm.
import torch
from torch.nn import functional as F

torch.manual_seed(0)
print(F.one_hot(torch.tensor([0, 2]), 5))
vocab_size, num_hiddens = 6, 8
X = torch.arange(10).reshape((2, 5)) % vocab_size
print(F.one_hot(X.T, vocab_size).shape)


def get_params(vocab_size, num_hiddens):
    def normal(shape):
        return torch.randn(size=shape) * 0.01
    W_xh = normal((vocab_size, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, vocab_size))
    b_q = torch.zeros(vocab_size)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


params = get_params(vocab_size, num_hiddens)
inputs = F.one_hot(X.T, vocab_size).type(torch.float32)
state = (torch.zeros((2, num_hiddens)),)
Y, new_state = rnn(inputs, state, params)
print(Y.shape, len(new_state), new_state[0].shape)
l = F.cross_entropy(Y * 100, (X.T.reshape(-1) + 1) % vocab_size)
l.backward()


def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


print(grad_clipping(params, 0.01) > 0.01)
print(torch.sqrt(sum(torch.sum(p.grad ** 2) for p in params)))
