"""``torch.nn``: the parts of PyTorch's neural-network package the course uses."""
from . import functional, init, parameter, utils  # noqa: F401 - torch.nn.parameter
from .activations import GELU, Hardtanh, LeakyReLU, SiLU
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList
from .conv_layers import AdaptiveAvgPool2d, AvgPool2d, Conv2d, MaxPool2d
from .layers import (
    BatchNorm1d, BatchNorm2d, Dropout, Flatten, Linear, LogSoftmax, ReLU, Sequential, Sigmoid, Softmax, Tanh,
)
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter
from .sparse import Embedding

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Conv2d",
    "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU", "Hardtanh", "L1Loss", "LayerNorm", "LeakyReLU",
    "Linear", "LogSoftmax", "MSELoss", "MaxPool2d", "Module", "ModuleDict", "ModuleList", "NLLLoss", "Parameter",
    "ParameterDict", "ParameterList", "ReLU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Tanh",
    "functional", "init", "utils",
]
