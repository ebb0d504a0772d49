"""``torch.save`` and ``torch.load``: any picklable object holding tensors, to a file or a buffer.

As in PyTorch, tensors that share memory (a tensor and its views) still share it once
loaded: each block of memory is written once, and every tensor is written as where it
sits in its block (offset, shape, strides), its dtype and whether it requires grad.
"""
import io
import pickle

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .tensor import Tensor


def save(obj, f, pickle_module=pickle, pickle_protocol=2):
    """Write ``obj`` to ``f``, a path or a binary file object."""
    blocks = {}
    payload = io.BytesIO()
    _TensorPickler(payload, blocks, pickle_protocol).dump(obj)
    record = {"blocks": {key: block.tobytes() for key, block in blocks.items()}, "payload": payload.getvalue()}
    _with_file(f, "wb", lambda file: pickle_module.dump(record, file, protocol=pickle_protocol))


def load(f, map_location=None, pickle_module=pickle, *, weights_only=None):
    """Read back what ``save`` wrote."""
    record = _with_file(f, "rb", pickle_module.load)
    blocks = {key: np.frombuffer(data, dtype=np.uint8).copy() for key, data in record["blocks"].items()}
    return _TensorUnpickler(io.BytesIO(record["payload"]), blocks).load()


def _with_file(f, mode, use):
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, mode) as file:
            return use(file)
    return use(f)


def _block_of(array):
    """The array that owns ``array``'s memory (itself if it owns it and is contiguous)."""
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root if root.flags.c_contiguous else np.ascontiguousarray(array)


class _TensorPickler(pickle.Pickler):
    def __init__(self, file, blocks, protocol):
        super().__init__(file, protocol=protocol)
        self.blocks = blocks

    def persistent_id(self, obj):
        if not isinstance(obj, Tensor):
            return None
        array = obj._array
        block = _block_of(array)
        self.blocks.setdefault(id(block), block)
        start = array.__array_interface__["data"][0] - block.__array_interface__["data"][0]
        return (type(obj), id(block), start, array.shape, array.strides, array.dtype.str, obj._requires_grad)


class _TensorUnpickler(pickle.Unpickler):
    def __init__(self, file, blocks):
        super().__init__(file)
        self.blocks = blocks

    def persistent_load(self, pid):
        kind, key, start, shape, strides, dtype, requires_grad = pid
        memory = self.blocks[key][start:]
        array = as_strided(memory.view(dtype) if memory.size else np.empty(0, dtype), shape, strides)
        return kind._wrap(array, requires_grad)
