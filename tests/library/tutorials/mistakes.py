# The errors PyTorch gives for common mistakes, and a warning.
import warnings

import torch


def attempt(what):
    try:
        what()
    except (RuntimeError, TypeError, ValueError) as error:
        print(type(error).__name__ + ":", error)


attempt(lambda: torch.tensor([1, 2], requires_grad=True))
attempt(lambda: torch.tensor([1, 2]).requires_grad_())
x = torch.ones(2, 2, requires_grad=True)
y = x * 2
attempt(lambda: setattr(y, "requires_grad", False))
attempt(lambda: y.backward())
attempt(lambda: torch.ones(3).sum().backward())
attempt(lambda: y.backward(torch.ones(3)))
attempt(lambda: torch.ones(3).item())
attempt(lambda: x.numpy())
attempt(lambda: torch.ones(2, 3).matmul(torch.ones(2, 3)))
attempt(lambda: torch.ones(2, 3) + torch.ones(4, 3))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(y.grad)
print(caught[0].category.__name__, str(caught[0].message)[:60])
