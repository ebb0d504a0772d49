"""``torch.multinomial``: drawing category indices, with PyTorch's CPU generator, bit for bit.

PyTorch samples in one of two ways, and we follow both (the draws come from the
generator of ``random.py``, so a seed gives PyTorch's indices):

- without replacement, or a single sample: each probability is divided by an
  exponential variate (one float64 uniform u each, ``-log1p(-u)`` cast to the
  probabilities' dtype), and the largest quotients win. This is the Gumbel trick:
  ``argmax(p / q)`` with q ~ Exp(1) picks index i with probability p_i.
- with replacement and more than one sample: per row, the running sum of the
  probabilities (in their dtype), divided by the total, with the last entry forced to
  1; each sample is a float64 uniform placed in it by binary search (the first
  entry not below it).
"""
import math

import numpy as np

from .dtypes import scalar_type_name
from .public_names import public
from .random import _generator, _libm, _new_tensor

_libm_log1p = _libm(math.log1p)  # the C library's log1p, as PyTorch's exponential_ calls it

NOT_FLOAT = "multinomial only supports floating-point dtypes for input, got: {}"
TOO_MANY = "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
BAD_DIM = "prob_dist must be 1 or 2 dim"
BAD_ENTRY = "probability tensor contains either `inf`, `nan` or element < 0"
NEGATIVE = "invalid multinomial distribution (encountering probability entry < 0)"  # the running-sum path's words
NOT_FINITE = "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
ZERO_SUM = "invalid multinomial distribution (sum of probabilities <= 0)"


@public("multinomial", methods="multinomial")
def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices (int64) of ``num_samples`` categories per row of ``input``, drawn with
    probabilities proportional to its entries."""
    probabilities = input._array
    _check(probabilities, num_samples, replacement)
    rows = probabilities.reshape(-1, probabilities.shape[-1])
    gen = _generator(generator)
    if not replacement or num_samples == 1:
        indices = _by_exponentials(gen, rows, num_samples)
    else:
        indices = np.stack([_by_cumulative_sum(gen, row, num_samples) for row in rows])
    return _new_tensor(indices.reshape(probabilities.shape[:-1] + (num_samples,)))


def _check(probabilities, num_samples, replacement):
    if probabilities.dtype.kind != "f":
        raise RuntimeError(NOT_FLOAT.format(scalar_type_name(probabilities.dtype)))
    if probabilities.ndim not in (1, 2):
        raise RuntimeError(BAD_DIM)
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probabilities.shape[-1]:
        raise RuntimeError(TOO_MANY)
    by_running_sum = replacement and num_samples > 1
    if np.any(probabilities < 0):
        raise RuntimeError(NEGATIVE if by_running_sum else BAD_ENTRY)
    if not np.all(np.isfinite(probabilities)):
        raise RuntimeError(NOT_FINITE if by_running_sum else BAD_ENTRY)
    if np.any(probabilities.sum(-1) == 0):
        raise RuntimeError(ZERO_SUM)


def exponentials(gen, n, dtype):
    """n Exp(1) variates as PyTorch's CPU ``exponential_`` draws them: -log1p(-u), u a float64 uniform."""
    return (-_libm_log1p(-gen._unit(n, np.float64))).astype(dtype)


def _by_exponentials(gen, rows, num_samples):
    """The indices of the ``num_samples`` largest p / q, largest first (ties: the lower index)."""
    quotients = rows / exponentials(gen, rows.size, rows.dtype).reshape(rows.shape)
    return np.argsort(-quotients, axis=-1, kind="stable")[:, :num_samples]


def _by_cumulative_sum(gen, row, num_samples):
    """``num_samples`` indices of one row, each a uniform's place in the normalised running sum."""
    cumulative = np.cumsum(row, dtype=row.dtype)  # sequential, in the row's dtype, as PyTorch sums
    cumulative = cumulative / cumulative[-1]
    cumulative[-1] = 1
    return np.searchsorted(cumulative.astype(np.float64), gen._unit(num_samples, np.float64), side="left")
