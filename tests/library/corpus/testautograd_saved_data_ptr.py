# pytorch test/test_autograd.py, the saved-variable tests (test_saved_variable_*): saved tensors share storage with what was saved, checked by data_ptr.
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self.data_ptr() == x.data_ptr())
z = x.exp()
print(z.grad_fn._saved_result.data_ptr() == z.data_ptr(), z.grad_fn._saved_result is z)
v = x.view(5, 1)
print(v.data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr())
print(x.detach().data_ptr() == x.data_ptr(), x.untyped_storage().data_ptr() == x.data_ptr())
print(x[2:].data_ptr() - x.data_ptr(), x.element_size())
