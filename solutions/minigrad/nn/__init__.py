"""``torch.nn``: the parts of PyTorch's neural-network package the course uses."""
from . import functional, init, parameter  # noqa: F401 - torch.nn.parameter
from .activations import GELU, Hardtanh, LeakyReLU, SiLU
from .layers import BatchNorm1d, Dropout, Flatten, Linear, LogSoftmax, ReLU, Sequential, Sigmoid, Softmax, Tanh
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "GELU", "Hardtanh", "LayerNorm",
    "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "SiLU",
    "Module", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh", "functional", "init",
]
