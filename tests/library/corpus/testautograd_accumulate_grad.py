# pytorch test/test_autograd.py, test_accumulate_grad and test_accumulate_grad_tensor_reference: in place without create_graph, a new tensor with it.
import torch

torch.manual_seed(0)
grad_output = torch.ones(2, 2)
for create_graph in (False, True):
    x = torch.randn(2, 2, requires_grad=True)
    y = x + 2
    y.backward(grad_output, retain_graph=True)
    x_grad = x.grad
    x_grad_clone = x.grad.clone()
    y.backward(grad_output, create_graph=create_graph)
    print(create_graph, x_grad is x.grad, x_grad, x.grad)

for create_graph in (False, True):
    params = torch.tensor([1.5, 1.5]).requires_grad_()
    params.grad = torch.tensor([1.5, 1.5])
    saved = params.grad
    params.backward(torch.tensor([1.5, 1.5]), create_graph=create_graph)
    print(create_graph, saved is params.grad, params.grad)

x = torch.ones(2, requires_grad=True)
(x * x).sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad)
(x * x).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn.name())
