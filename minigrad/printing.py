"""``repr(tensor)`` in PyTorch's format, so printed outputs can be compared digit for digit.

The rules follow what PyTorch prints: one width for every element, four decimals;
floats that are all whole numbers print as ``4.``; scientific notation when the
largest and smallest non-zero magnitudes are more than 1000 apart (or beyond 1e8,
or below 1e-4); rows wrap at 80 columns; past 1000 elements only the three first
and last items of each dimension are shown.
"""
import math

import numpy as np

from . import device as _device
from . import dtypes

PRECISION = 4
LINEWIDTH = 80
THRESHOLD = 1000
EDGEITEMS = 3


class _Formatter:
    """Chooses one format (fixed, whole, scientific) and one width for a whole tensor."""

    def __init__(self, values):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not self.floating:
            self.width = max([len(self._plain(v)) for v in flat.tolist()] or [1])
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return
        magnitudes = np.abs(finite)
        low, high = float(magnitudes.min()), float(magnitudes.max())  # Python floats: no overflow warning
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if self.int_mode:
            self.sci_mode = high / low > 1000.0 or high > 1.0e8
        else:
            self.sci_mode = high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4
        if self.sci_mode:
            widths = [len(f"{v:.{PRECISION}e}") for v in finite.tolist()]
        elif self.int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in finite.tolist()]
        else:
            widths = [len(f"{v:.{PRECISION}f}") for v in finite.tolist()]
        self.width = max(widths)

    @staticmethod
    def _plain(value):
        return str(value)

    def format(self, value):
        if not self.floating:
            text = self._plain(value)
        elif self.sci_mode:
            text = f"{value:.{PRECISION}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{PRECISION}f}"
        return text.rjust(self.width)


def _summary(values):
    """The elements that will be shown: all of them, or the edges of each dimension."""
    if values.ndim == 0:
        return values
    if values.shape[0] > 2 * EDGEITEMS:
        values = np.concatenate([values[:EDGEITEMS], values[-EDGEITEMS:]])
    return np.stack([_summary(v) for v in values]) if values.ndim > 1 else values


def _body(values, formatter, indent, summarize):
    """The bracketed text of ``values``, each nested level indented one more column."""
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _row(values, formatter, indent, summarize)
    n = values.shape[0]
    if summarize and n > 2 * EDGEITEMS:
        parts = [_body(values[i], formatter, indent + 1, summarize) for i in range(EDGEITEMS)]
        parts.append("...")
        parts += [_body(values[i], formatter, indent + 1, summarize) for i in range(n - EDGEITEMS, n)]
    else:
        parts = [_body(v, formatter, indent + 1, summarize) for v in values]
    separator = "," + "\n" * (values.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _row(values, formatter, indent, summarize):
    items = values.tolist()
    if summarize and len(items) > 2 * EDGEITEMS:
        texts = [formatter.format(v) for v in items[:EDGEITEMS]] + [" ..."]
        texts += [formatter.format(v) for v in items[-EDGEITEMS:]]
    else:
        texts = [formatter.format(v) for v in items]
    per_line = max(1, (LINEWIDTH - indent) // (formatter.width + 2))
    lines = [", ".join(texts[i : i + per_line]) for i in range(0, len(texts), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def array_text(values, indent):
    """The numbers of an array as PyTorch lays them out, without ``tensor(``."""
    summarize = values.size > THRESHOLD
    shown = _summary(values) if summarize else values
    return _body(values, _Formatter(shown), indent, summarize)


def tensor_repr(t, prefix="tensor("):
    """``tensor([...], dtype=..., grad_fn=<...>)`` exactly as PyTorch prints it."""
    values = t._array
    indent = len(prefix)
    if _device.of(values) is _device.META:
        return _with_suffixes(prefix + "...", _meta_suffixes(t), indent)
    suffixes = []
    default = values.dtype in (dtypes.get_default_dtype().numpy, np.dtype(np.int64), np.dtype(np.bool_))
    if values.size == 0:
        body = "[]"
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if values.dtype != dtypes.get_default_dtype().numpy:
            suffixes.append(f"dtype={dtypes.from_numpy(values.dtype)!r}")
    else:
        body = array_text(values, indent)
        if not default:
            suffixes.append(f"dtype={dtypes.from_numpy(values.dtype)!r}")
    return _with_suffixes(prefix + body, suffixes + _autograd_suffixes(t), indent)


def _meta_suffixes(t):
    """What PyTorch prints of a tensor with no data: device and size, then dtype unless the default float."""
    suffixes = ["device='meta'", f"size={tuple(t._array.shape)}"]
    if t._array.dtype != dtypes.get_default_dtype().numpy:
        suffixes.append(f"dtype={dtypes.from_numpy(t._array.dtype)!r}")
    return suffixes + _autograd_suffixes(t)


def _autograd_suffixes(t):
    if t.grad_fn is not None:
        return [f"grad_fn=<{type(t.grad_fn).__name__}>"]
    return ["requires_grad=True"] if t._requires_grad else []


def _with_suffixes(text, suffixes, indent):
    """Append ``, suffix`` items, moving one to its own line when it would pass 80 columns."""
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    return "".join(parts) + ")"
