"""``torch.utils.data``: datasets and the ``DataLoader`` that cuts them into (shuffled) minibatches.

Shuffling draws what PyTorch draws, in the same order, so a seeded training loop sees
PyTorch's batches: each ``iter(loader)`` takes a 64-bit base seed from the generator
(PyTorch hands it to worker processes), and the first batch then takes another 64-bit
seed, seeds a fresh ``Generator`` with it and permutes the indices with ``randperm``.
Batches are built in this process: ``num_workers`` is accepted and changes nothing.
"""
import numbers

import numpy as np

from ..ops.joining import stack
from ..random import Generator, _generator
from ..tensor import Tensor


class Dataset:
    """A map-style dataset: ``len(dataset)`` samples, ``dataset[i]`` the i-th."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Sample i is ``(t[i] for t in tensors)``: the tensors are cut along their first dimension."""

    def __init__(self, *tensors):
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


def default_collate(batch):
    """Samples into one batch, field by field: tensors stacked, numbers as a tensor."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch, 0)
    if isinstance(first, np.ndarray):
        return Tensor._wrap(np.stack(batch))
    if isinstance(first, numbers.Number):
        return Tensor._wrap(np.array(batch, dtype=np.float64 if isinstance(first, float) else np.int64))
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return [default_collate(list(field)) for field in zip(*batch)]  # PyTorch gives a list for tuples too
    return batch


class DataLoader:
    """Iterates over a dataset in batches of ``batch_size`` samples, shuffled if asked."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, **kwargs):
        if batch_sampler is not None:
            raise NotImplementedError("minigrad's DataLoader takes no batch_sampler")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.num_workers, self.generator, self.sampler = num_workers, generator, sampler
        self.shuffle = bool(shuffle)
        self.collate_fn = collate_fn or default_collate

    def __len__(self):
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self):
        _random64(_generator(self.generator))  # the base seed of the workers, drawn even without them
        return self._batches()

    def _batches(self):
        indices = self._indices()
        if self.batch_size is None:
            yield from (self.dataset[i] for i in indices)
            return
        batch = []
        for i in indices:
            batch.append(self.dataset[i])
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def _indices(self):
        """The order of the samples: the sampler's, a permutation drawn as PyTorch draws it, or 0, 1, 2..."""
        if self.sampler is not None:
            return iter(self.sampler)
        if not self.shuffle:
            return iter(range(len(self.dataset)))
        return self._shuffled()

    def _shuffled(self):
        """A permutation, from a generator seeded now from the default one (or from the loader's own)."""
        shuffler = self.generator or Generator().manual_seed(_random64(_generator(None)))
        yield from shuffler._randperm(len(self.dataset)).tolist()
        shuffler._randperm(len(self.dataset))  # PyTorch's sampler then permutes again for its 0 leftover samples


def _random64(gen):
    """``torch.empty((), dtype=torch.int64).random_()``: a random64() below 2^63."""
    return int(gen._words64(1)[0]) % 2**63
