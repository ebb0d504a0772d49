"""The operations: one module per kind, each operation with its backward node beside it."""
from . import (  # noqa: F401 - imported for the names each declares with ``@public``
    arithmetic,
    comparison,
    copies,
    division,
    indexing,
    inplace,
    joining,
    linalg,
    pointwise,
    powers,
    reductions,
    scans,
    selection,
    trig,
    views,
)
