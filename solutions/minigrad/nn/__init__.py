"""``torch.nn``: the parts of PyTorch's neural-network package the course uses."""
from . import functional, init, parameter, utils  # noqa: F401 - torch.nn.parameter
from .activations import GELU, Hardtanh, LeakyReLU, SiLU
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList
from .layers import BatchNorm1d, Dropout, Flatten, Linear, LogSoftmax, ReLU, Sequential, Sigmoid, Softmax, Tanh
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter
from .sparse import Embedding

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten", "GELU", "Hardtanh",
    "LayerNorm", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleDict", "ModuleList", "NLLLoss",
    "Parameter", "ParameterDict", "ParameterList", "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax", "Tanh",
    "functional", "init", "utils",
]
