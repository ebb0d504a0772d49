"""``torch.nn``: the parts of PyTorch's neural-network package the course uses."""
from . import functional, init, parameter  # noqa: F401 - torch.nn.parameter
from .conv_layers import AdaptiveAvgPool2d, AvgPool2d, Conv2d, MaxPool2d
from .layers import BatchNorm1d, Dropout, Flatten, Linear, LogSoftmax, ReLU, Sequential, Sigmoid, Softmax, Tanh
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "Conv2d", "CrossEntropyLoss", "Dropout",
    "Flatten", "Linear", "LogSoftmax", "MSELoss", "MaxPool2d", "Module", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh", "functional", "init",
]
