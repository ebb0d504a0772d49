"""``Categorical``: one index per draw, with probabilities given per category."""
from ..sampling import multinomial
from ..shape import Size

BOTH_OR_NEITHER = "Either `probs` or `logits` must be specified, but not both."


class Categorical:
    """Draws index i with probability ``probs[..., i]`` (the last dimension is normalised to sum to 1)."""

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError(BOTH_OR_NEITHER)
        if probs is not None:
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            self.logits = logits - logits.logsumexp(-1, keepdim=True)
            self.probs = self.logits.softmax(-1)
        self._num_events = self.probs.shape[-1]
        self.batch_shape = self.probs.shape[:-1]
        self.event_shape = Size(())

    def sample(self, sample_shape=()):
        """Indices of shape ``sample_shape + batch_shape``, drawn with replacement, as PyTorch draws them."""
        sample_shape = Size(sample_shape)
        rows = self.probs.reshape(-1, self._num_events)
        draws = multinomial(rows, sample_shape.numel(), True).T
        return draws.reshape(sample_shape + self.batch_shape)

    def __repr__(self):
        given = "probs" if "logits" not in self.__dict__ else "logits"
        return f"{type(self).__name__}({given}: {getattr(self, given).shape})"
