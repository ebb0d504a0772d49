# d2l-en, Softmax Regression Implementation from Scratch: softmax by hand, cross-entropy by fancy indexing, SGD.
import torch

torch.manual_seed(0)
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdims=True), '\n', X.sum(1, keepdims=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition


X = torch.rand((2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y])


print(cross_entropy(y_hat, y).mean())


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))

num_inputs, num_outputs = 4, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
features = torch.randn(60, num_inputs)
labels = (features[:, 0] > 0).long() + (features[:, 1] > 0.5).long()
for epoch in range(20):
    y_hat = softmax(torch.matmul(features.reshape((-1, W.shape[0])), W) + b)
    l = cross_entropy(y_hat, labels)
    l.mean().backward()
    with torch.no_grad():
        for param in (W, b):
            param -= 0.5 * param.grad
            param.grad.zero_()
    if epoch % 5 == 4:
        print(epoch + 1, f"{float(l.mean()):.4f}", accuracy(y_hat, labels) / len(labels))
