"""``torch.nn``: the parts of PyTorch's neural-network package the course uses."""
from . import functional

__all__ = ["functional"]
