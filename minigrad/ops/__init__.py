"""The operations: one module per kind, each operation with its backward node beside it."""
from . import (  # noqa: F401 - imported for the names each declares with ``@public``
    arithmetic,
    comparison,
    division,
    extrema,
    indexing,
    inplace,
    joining,
    linalg,
    pointwise,
    powers,
    products,
    reductions,
    scans,
    selection,
    statistics,
    views,
)
