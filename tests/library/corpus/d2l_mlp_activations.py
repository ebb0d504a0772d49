# d2l-en, Multilayer Perceptrons: ReLU, sigmoid and tanh with their derivatives from backward on a grid.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[75:85])

y = torch.sigmoid(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[76:84])

y = torch.tanh(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[76:84])
print(x.grad.max(), x.grad.argmax())
