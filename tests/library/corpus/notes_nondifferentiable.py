# PyTorch docs, notes/autograd "Gradients for non-differentiable functions": relu and sqrt at 0, max with a number and with a tensor at a tie.
import torch

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
torch.relu(x).sum().backward()
print(x.grad)

x = torch.tensor([0.0, 4.0], requires_grad=True)
torch.sqrt(x).sum().backward()
print(x.grad)

x = torch.tensor([2.0], requires_grad=True)
y = torch.tensor([2.0], requires_grad=True)
torch.maximum(x, y).backward()
print(x.grad, y.grad)

x = torch.tensor([2.0, 3.0], requires_grad=True)
torch.clamp(x, min=2.0).sum().backward()
print(x.grad)

x = torch.tensor([-1.0, 1.0], requires_grad=True)
torch.log(x).sum().backward()
print(x.grad)
x = torch.tensor([1.0, 1.0, 0.5], requires_grad=True)
x.max().backward()
print(x.grad)
x = torch.tensor([0.0, -2.0], requires_grad=True)
x.abs().sum().backward()
print(x.grad)
