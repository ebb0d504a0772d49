# d2l-en, Weight Decay: an L2 penalty added to the loss, high-dimensional linear regression from scratch.
import torch

torch.manual_seed(0)
n_train, num_inputs, batch_size = 20, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X = torch.normal(0, 1, (n_train, num_inputs))
y = torch.matmul(X, true_w) + true_b + torch.normal(0, 0.01, (n_train, 1))


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w, b = init_params()
    for epoch in range(10):
        for i in range(0, n_train, batch_size):
            Xb, yb = X[i:i + batch_size], y[i:i + batch_size]
            l = (torch.matmul(Xb, w) + b - yb) ** 2 / 2 + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= 0.003 * param.grad / batch_size
                    param.grad.zero_()
    print('lambda', lambd, 'L2 norm of w:', round(torch.norm(w).item(), 3))


train(lambd=0)
train(lambd=3)
