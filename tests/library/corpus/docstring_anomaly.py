# PyTorch docstring of torch.autograd.detect_anomaly: a backward that returns nan is named in the error.
import warnings

import torch
from torch import autograd

torch.manual_seed(0)


class MyFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        raise RuntimeError("Some error in backward")


inp = torch.rand(10, 10, requires_grad=True)
out = MyFunc.apply(inp)
try:
    out.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)


class NanFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        return gO * float("nan")


with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    with autograd.detect_anomaly():
        out = NanFunc.apply(inp)
        try:
            out.sum().backward()
        except RuntimeError as error:
            print("RuntimeError:", error)
print(torch.is_anomaly_enabled())
with autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
