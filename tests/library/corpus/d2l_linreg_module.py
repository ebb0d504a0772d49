# d2l-en (2nd ed.), Linear Regression from Scratch with its Module/SGD classes: parameters as attributes, zero_grad loop.
import torch

torch.manual_seed(0)


class LinearRegressionScratch:
    def __init__(self, num_inputs, lr, sigma=0.01):
        self.w = torch.normal(0, sigma, (num_inputs, 1), requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)
        self.lr = lr

    def forward(self, X):
        return torch.matmul(X, self.w) + self.b

    def loss(self, y_hat, y):
        l = (y_hat - y) ** 2 / 2
        return l.mean()


class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = params, lr

    def step(self):
        for param in self.params:
            param -= self.lr * param.grad

    def zero_grad(self):
        for param in self.params:
            if param.grad is not None:
                param.grad.zero_()


w_true = torch.tensor([2, -3.4])
X = torch.randn(64, 2)
y = torch.matmul(X, w_true.reshape((-1, 1))) + 4.2 + torch.randn(64, 1) * 0.01
model = LinearRegressionScratch(2, lr=0.1)
optim = SGD([model.w, model.b], model.lr)
for step in range(30):
    loss = model.loss(model.forward(X[(step % 4) * 16:(step % 4 + 1) * 16]), y[(step % 4) * 16:(step % 4 + 1) * 16])
    optim.zero_grad()
    with torch.no_grad():  # d2l's Trainer runs backward and the step together under no_grad
        loss.backward()
        optim.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 4))
print(model.w.reshape(-1), model.b)
