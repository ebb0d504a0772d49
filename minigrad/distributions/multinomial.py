"""``Multinomial``: how many of ``total_count`` categorical draws fall in each category."""
import numpy as np

from ..shape import Size
from ..tensor import Tensor
from .categorical import Categorical


class Multinomial:
    """Counts per category of ``total_count`` independent draws from ``Categorical(probs)``."""

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self.batch_shape = self._categorical.batch_shape
        self.event_shape = Size((self._categorical._num_events,))

    @property
    def probs(self):
        return self._categorical.probs

    def sample(self, sample_shape=()):
        """Counts of shape ``sample_shape + batch_shape + (categories,)``, in the dtype of ``probs``.

        Like PyTorch, the draws for all samples are made at once, ``total_count`` first:
        draw k of sample s is element (k, s) of one categorical sample."""
        sample_shape = Size(sample_shape)
        draws = self._categorical.sample(Size((self.total_count,)) + sample_shape)._array
        draws = np.moveaxis(draws, 0, -1)[..., None]  # (sample, batch, draw, 1)
        categories = np.arange(self._categorical._num_events)
        return Tensor._wrap((draws == categories).sum(-2).astype(self.probs._array.dtype))

    def __repr__(self):
        return f"{type(self).__name__}()"

