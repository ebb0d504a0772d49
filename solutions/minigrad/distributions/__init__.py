"""``torch.distributions``, the part the course's programs use: sampling categories and counts.

Samples come from ``torch.multinomial`` exactly as PyTorch's own distributions draw them,
so a seeded program prints PyTorch's numbers.
"""
from .categorical import Categorical
from .multinomial import Multinomial

__all__ = ["Categorical", "Multinomial"]
