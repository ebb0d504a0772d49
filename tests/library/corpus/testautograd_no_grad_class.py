# pytorch test/test_autograd.py, test_grad_mode_class_decoration and the no_grad decorator tests: decorating a class with no_grad warns.
import warnings

import torch

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    @torch.no_grad()
    class Foo:
        def __init__(self):
            self.x = torch.ones(2, requires_grad=True) * 2

    foo = Foo()
print(foo.x.requires_grad)
for w in caught:
    print(w.category.__name__ + ":", w.message)


class MyMod:
    @torch.no_grad()
    def forward(self, x):
        return x * 2

    @torch.enable_grad()
    def backward_ready(self, x):
        return x * 2


x = torch.ones(2, requires_grad=True)
print(MyMod().forward(x).requires_grad)
with torch.no_grad():
    print(MyMod().backward_ready(x).requires_grad)


@torch.no_grad()
def gen():
    for i in range(2):
        yield torch.ones(1, requires_grad=True) * i


print([t.requires_grad for t in gen()])
