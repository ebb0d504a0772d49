"""``torch.utils``: the data loading the course's programs use (``torch.utils.data``)."""
from . import data  # noqa: F401 - torch.utils.data after a plain ``import torch``
