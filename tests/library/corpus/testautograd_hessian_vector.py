# pytorch test/test_autograd.py, test_hessian_vector and test_grad: create_graph backward, then Hessian-vector products by backward and by grad.
import torch

torch.manual_seed(0)
x = torch.randn(2, 2, requires_grad=True)
y = torch.randn(2, 2, requires_grad=True)
z = x ** 2 + y * x + y ** 2
z.backward(torch.ones(2, 2), create_graph=True)
with torch.no_grad():
    x_grad = 2 * x + y
    y_grad = x + 2 * y
print(torch.allclose(x.grad, x_grad), torch.allclose(y.grad, y_grad))
grad_sum = 2 * x.grad + y.grad
x_hv = torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2, 2)], inputs=[x], create_graph=True)
print(x_hv[0])
grad_sum.backward(torch.ones(2, 2))
print(x.grad - x_grad, y.grad - y_grad)
try:
    torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2)], inputs=[x], create_graph=True)
except RuntimeError as error:
    print("RuntimeError:", error)
