"""The named pairs some reductions return: ``values, indices = x.max(dim=0)``."""
from collections import namedtuple

_Pair = namedtuple("_Pair", ["values", "indices"])


class MinMax(_Pair):
    """``torch.return_types.max(values=..., indices=...)``: unpacks as a tuple."""

    def __new__(cls, values, indices, name):
        pair = super().__new__(cls, values, indices)
        pair._name = name
        return pair

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self.values!r},\nindices={self.indices!r})"
