# pytorch test/test_autograd.py, test_var_mean_differentiable and test_std_mean: the joint reductions against var/std and mean computed apart.
import copy

import torch

torch.manual_seed(0)
input1 = torch.randn(3, 4, 5, requires_grad=True)
input2 = copy.deepcopy(input1)
var1, mean1 = torch.var_mean(input1, dim=[0, 2], keepdim=False)
var2 = input2.var(dim=[0, 2], keepdim=False)
mean2 = input2.mean(dim=[0, 2], keepdim=False)
grad = torch.randn(4)
r1 = var1 * var1 * mean1 * mean1
r2 = var2 * var2 * mean2 * mean2
print(torch.allclose(r1, r2, rtol=0.01, atol=0.0), var1.grad_fn.name())
torch.autograd.backward(r1, grad)
torch.autograd.backward(r2, grad)
print(torch.allclose(input1.grad, input2.grad, rtol=0.01, atol=0.0))
std, mean = torch.std_mean(input1.detach(), dim=1, unbiased=False)
print(std.shape, torch.allclose(std, input1.detach().std(dim=1, unbiased=False)))
