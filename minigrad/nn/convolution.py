"""Convolution and pooling over images: ``F.conv2d``, ``F.max_pool2d``, ``F.avg_pool2d`` and
``F.adaptive_avg_pool2d``, one node each, named as PyTorch names them.

A convolution is a matrix product in disguise (*im2col*): every window of the (padded) input is
laid out as one column, ``cols`` of shape (N, C·KH·KW, OH·OW), a copy made from a strided view of
the input; the output is then ``weight`` (O, C·KH·KW) times ``cols``, one batched ``@``. When the
columns are long (C·KH·KW ≥ 64) the batch goes last instead, (C·KH·KW, OH·OW·N): one large product
that BLAS threads (``_ConvGeometry``). Backward runs the same product the other way: the weight's
gradient is grad @ colsᵀ (summed over the batch), the columns' gradient is weightᵀ @ grad, and each
column is added back into the window it came from (*col2im*: one product and one strided add per
kernel position, the batch last so that each add runs over long rows). Pooling reads the same
windows, one kernel position at a time; windows that tile the input (2×2, stride 2) are blocks of a
reshape. Groups split the channels: one product per group, in the same batched ``@``.

A convolution keeps its columns for the weight's gradient (making them again would cost as much
as the product). The nodes compute on arrays; their double backward (``create_graph=True``) is not
implemented.
"""
import warnings

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import dtypes
from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor, release_saved
from ..ops import reductions, views
from ..public_names import public
from ..tensor import Tensor


def _no_double_backward(node, grad):
    """The nodes here compute on arrays: a recorded backward (``create_graph=True``) cannot go through them."""
    if isinstance(grad, Tensor):
        raise RuntimeError(
            f"the derivative for '{node.name()}' is not implemented: minigrad's convolution and pooling support "
            "one backward, not create_graph=True (double backward)"
        )


def _windows(xp, kernel, stride, dilation, out_size):
    """The windows of ``xp`` (N, C, H, W), a read-only view (N, C, KH, KW, OH, OW): element
    [n, c, i, j, y, x] is xp[n, c, y·sh + i·dh, x·sw + j·dw]."""
    sn, sc, sh, sw = xp.strides
    shape = xp.shape[:2] + tuple(kernel) + tuple(out_size)
    strides = (sn, sc, sh * dilation[0], sw * dilation[1], sh * stride[0], sw * stride[1])
    return as_strided(xp, shape, strides, writeable=False)


def _window_slice(i, j, stride, dilation, out_size):
    """The positions kernel element (i, j) reads in every window: a (rows, columns) slice."""
    top, left = i * dilation[0], j * dilation[1]
    return (slice(top, top + stride[0] * (out_size[0] - 1) + 1, stride[0]),
            slice(left, left + stride[1] * (out_size[1] - 1) + 1, stride[1]))


def _padded(x, pads, value=0):
    """``x`` (N, C, H, W) with ``pads`` = (top, bottom, left, right) rows and columns of ``value`` around it."""
    top, bottom, left, right = pads
    if not any(pads):
        return x
    n, c, h, w = x.shape
    out = np.full((n, c, h + top + bottom, w + left + right), value, x.dtype)
    out[:, :, top:top + h, left:left + w] = x
    return out


def _unpadded(xp, pads, shape):
    """The part of ``xp`` that is not padding, as a contiguous array of ``shape``."""
    top, _, left, _ = pads
    if not any(pads) and xp.shape == shape:
        return xp
    return np.ascontiguousarray(xp[:, :, top:top + shape[2], left:left + shape[3]])


# ---------------------------------------------------------------- conv2d


class _ConvGeometry:
    """Everything about one convolution but its tensors: sizes, stride, padding, dilation, groups.

    Its columns come in one of two layouts. Batch first, (N, groups, C/groups·KH·KW, OH·OW): one small
    product per image. Batch last, (groups, C/groups·KH·KW, OH·OW·N): one large product for the whole
    batch (which BLAS threads), and an im2col that copies rows of OW·N contiguous elements; it costs a
    transpose of the input, of the output and of the output's gradient, worth it when each column is long
    (``batch_last``: C/groups·KH·KW of at least 64)."""

    __slots__ = ("stride", "pads", "dilation", "groups", "kernel", "out_size", "batch_last")

    def __init__(self, stride, pads, dilation, groups, kernel, out_size, channels):
        self.stride, self.pads, self.dilation, self.groups = stride, pads, dilation, groups
        self.kernel, self.out_size = kernel, out_size
        self.batch_last = channels // groups * kernel[0] * kernel[1] >= 64

    def columns(self, x):
        """im2col, a copy, in the geometry's layout."""
        n, c = x.shape[:2]
        rows = c // self.groups * self.kernel[0] * self.kernel[1]
        if not self.batch_last:
            windows = _windows(_padded(x, self.pads), self.kernel, self.stride, self.dilation, self.out_size)
            return windows.reshape(n, self.groups, rows, self.out_size[0] * self.out_size[1])
        top, bottom, left, right = self.pads
        h, w = x.shape[2:]
        padded = np.zeros((c, h + top + bottom, w + left + right, n), x.dtype)
        padded[:, top:top + h, left:left + w] = x.transpose(1, 2, 3, 0)
        sc, sh, sw, sn = padded.strides
        windows = as_strided(padded, (c,) + self.kernel + self.out_size + (n,),
                             (sc, sh * self.dilation[0], sw * self.dilation[1], sh * self.stride[0],
                              sw * self.stride[1], sn), writeable=False)
        return windows.reshape(self.groups, rows, self.out_size[0] * self.out_size[1] * n)

    def grouped_weight(self, w):
        return w.reshape(self.groups, w.shape[0] // self.groups, w[0].size)

    def grouped_grad(self, grad):
        """The output's gradient (N, O, OH, OW) as (groups, O/groups, OH·OW·N), the batch last (a copy)."""
        return np.ascontiguousarray(grad.transpose(1, 2, 3, 0)).reshape(self.groups, grad.shape[1] // self.groups, -1)

    def forward(self, x, w, columns=None):
        """The convolution of arrays x (N, C, H, W) and w (O, C/groups, KH, KW): (N, O, OH, OW)."""
        out = np.matmul(self.grouped_weight(w), self.columns(x) if columns is None else columns)
        if not self.batch_last:
            return out.reshape((x.shape[0], w.shape[0]) + self.out_size)
        out = out.reshape((w.shape[0],) + self.out_size + (x.shape[0],))
        return np.ascontiguousarray(out.transpose(3, 0, 1, 2))

    def input_grad(self, grad, w, shape, grouped=None):
        """col2im, one kernel position at a time: that position's weightᵀ @ grad, added back where it read.

        The batch goes last (grad as (O, OH·OW·N), the sum as (C, H, W, N)): each product is one large
        matrix product, and each add runs over rows of OW·N contiguous elements rather than OW."""
        n, c = shape[:2]
        groups, (oh, ow) = self.groups, self.out_size
        grad = self.grouped_grad(grad) if grouped is None else grouped
        weight = w.reshape((groups, w.shape[0] // groups, c // groups) + self.kernel)
        top, bottom, left, right = self.pads
        padded = np.zeros((groups, c // groups, shape[2] + top + bottom, shape[3] + left + right, n), grad.dtype)
        part = np.empty((groups, c // groups, oh * ow * n), grad.dtype)
        parts = part.reshape((groups, c // groups, oh, ow, n))
        for i in range(self.kernel[0]):
            for j in range(self.kernel[1]):
                np.matmul(np.swapaxes(weight[:, :, :, i, j], -1, -2), grad, out=part)
                padded[(slice(None), slice(None)) + _window_slice(i, j, self.stride, self.dilation, self.out_size)] \
                    += parts
        padded = padded.reshape((c,) + padded.shape[2:])[:, top:top + shape[2], left:left + shape[3]]
        return np.ascontiguousarray(padded.transpose(3, 0, 1, 2))

    def weight_grad(self, grad, x, w_shape, columns=None, grouped=None):
        """grad @ colsᵀ, summed over the batch."""
        columns = self.columns(x) if columns is None else columns
        if self.batch_last:
            grad = self.grouped_grad(grad) if grouped is None else grouped
            return np.matmul(grad, np.swapaxes(columns, -1, -2)).reshape(w_shape)
        n = x.shape[0]
        grad = grad.reshape(n, self.groups, grad.shape[1] // self.groups, self.out_size[0] * self.out_size[1])
        return np.matmul(grad, np.swapaxes(columns, -1, -2)).sum(0).reshape(w_shape)


class ConvolutionBackward0(Node):
    """out = conv2d(input, weight) + bias: each output channel is a weighted sum over the windows of the
    input's channels (of its group); the node keeps the input and the weight."""

    __slots__ = ("geometry", "columns")
    saved_names = ("input", "weight", "stride", "padding", "dilation", "transposed", "output_padding", "groups",
                   "bias_sym_sizes_opt")

    def __init__(self, input, weight, geometry, padding, bias_shape, columns):
        g = geometry
        self._saved = (SavedTensor(input), SavedTensor(weight), g.stride, padding, g.dilation, False, (0, 0),
                       g.groups, bias_shape)
        # The forward's columns, kept for the weight's gradient when it needs one (making them again costs
        # about as much as the product); they go with the saved tensors (``_release``).
        self.geometry, self.columns = geometry, columns if weight.requires_grad else None

    def _release(self):
        self.columns = None
        release_saved(self)

    def backward(self, grad):
        _no_double_backward(self, grad)
        x, w = self._saved[0].unpack(self, False), self._saved[1].unpack(self, False)
        need_input, need_weight, need_bias = self.needs_input_grad
        g = self.geometry
        grouped = g.grouped_grad(grad) if need_input or (need_weight and g.batch_last) else None
        grad_input = g.input_grad(grad, w, x.shape, grouped) if need_input else None
        grad_weight = g.weight_grad(grad, x, w.shape, self.columns, grouped) if need_weight else None
        grad_bias = grad.sum((0, 2, 3)) if need_bias else None
        return grad_input, grad_weight, grad_bias

    def jvp(self, tangent_input, tangent_weight, tangent_bias):
        """Forward mode: the convolution is linear in each of its inputs."""
        x, w = self._saved[0].unpack(self, False), self._saved[1].unpack(self, False)
        out = None
        for a, b in ((tangent_input, w), (x, tangent_weight)):
            if a is not None and b is not None:
                term = self.geometry.forward(a, b)
                out = term if out is None else out + term
        if tangent_bias is not None:
            term = np.broadcast_to(tangent_bias.reshape(1, -1, 1, 1), self._shape)
            out = term.copy() if out is None else out + term
        return out


def _int_tuple(value, name, count):
    """An int or a sequence of ``count`` ints, as a tuple (PyTorch's message otherwise)."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * count
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * count
    if len(value) != count:
        listed = "[" + ", ".join(str(v) for v in value) + "]"
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {count} values to match the "
                           f"convolution dimensions, but got {name}={listed}")
    return value


def _same_padding(kernel, dilation):
    """padding='same': d·(k - 1) in all, the odd one on the bottom or right, with PyTorch's warning for it."""
    pads = []
    for k, d in zip(kernel, dilation):
        total = d * (k - 1)
        pads += [total // 2, total - total // 2]
    if pads[0] != pads[1] or pads[2] != pads[3]:
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                      "of the input be created", stacklevel=4)
    return tuple(pads)


def _conv_padding(padding, kernel, stride, dilation):
    """(top, bottom, left, right) from an int, a pair, 'valid' or 'same'; and the padding the node reports."""
    if isinstance(padding, str):
        if padding == "valid":
            return (0, 0, 0, 0), (0, 0)
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pads = _same_padding(kernel, dilation)
        return pads, (pads[0], pads[2])
    pair = _int_tuple(padding, "padding", 2)
    if any(p < 0 for p in pair):
        raise RuntimeError("negative padding is not supported")
    return (pair[0], pair[0], pair[1], pair[1]), pair


def _check_conv(x, w, b, groups, stride):
    """PyTorch's checks of conv2d's tensors, in its order, with its messages."""
    if x.ndim not in (3, 4):
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: "
                           f"{list(x.shape)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if w.ndim != 4:  # PyTorch reads the dimensions from the weight, and finds the stride's length wrong
        stride = list(_int_tuple(stride, "stride", 2))
        raise RuntimeError(f"expected stride to be a single integer value or a list of {w.ndim - 2} values to match "
                           f"the convolution dimensions, but got stride={stride}")
    if x.dtype != w.dtype and x.dtype == np.float32:  # PyTorch's float32 convolution is oneDNN's, which says
        raise RuntimeError(f"Input type (torch.FloatTensor) and weight type (torch.{dtypes.scalar_type_name(w.dtype)}"
                           "Tensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor")
    if x.dtype != w.dtype:
        raise RuntimeError(f"expected scalar type {dtypes.scalar_type_name(x.dtype)} but found "
                           f"{dtypes.scalar_type_name(w.dtype)}")
    channels = x.shape[-3]
    if channels != w.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected input"
                           f"{list(x.shape) if x.ndim == 4 else [1] + list(x.shape)} to have {w.shape[1] * groups} "
                           f"channels, but got {channels} channels instead")
    if w.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size {list(w.shape)} instead")
    if b is not None:
        if b.ndim != 1 or b.shape[0] != w.shape[0]:
            raise RuntimeError(f"Given weight of size {list(w.shape)}, expected bias to be 1-dimensional with "
                               f"{w.shape[0]} elements, but got bias of size {list(b.shape)} instead")
        if b.dtype != x.dtype:
            raise RuntimeError(f"Input type ({dtypes.c_type_name(x.dtype)}) and bias type "
                               f"({dtypes.c_type_name(b.dtype)}) should be the same")


@public("conv2d")
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 2-D convolution (PyTorch's: a cross-correlation) of ``input`` (N, C, H, W), or (C, H, W) for one
    image, with ``weight`` (O, C/groups, KH, KW), plus ``bias`` (O) for each output channel.

    ``padding`` is an int, a pair, ``'valid'`` (none) or ``'same'`` (the output as large as the input).
    """
    x, w = input._array, weight._array
    _check_conv(x, w, None if bias is None else bias._array, groups, stride)
    if x.ndim == 3:  # one image: PyTorch's graph, unsqueeze, convolution, squeeze
        return views.squeeze(conv2d(views.unsqueeze(input, 0), weight, bias, stride, padding, dilation, groups), 0)
    stride = _int_tuple(stride, "stride", 2)
    dilation = _int_tuple(dilation, "dilation", 2)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    kernel = tuple(w.shape[2:])
    pads, reported = _conv_padding(padding, kernel, stride, dilation)
    padded = (x.shape[2] + pads[0] + pads[1], x.shape[3] + pads[2] + pads[3])
    effective = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise RuntimeError(f"Calculated padded input size per channel: ({padded[0]} x {padded[1]}). Kernel size: "
                           f"({effective[0]} x {effective[1]}). Kernel size can't be greater than actual input size")
    out_size = tuple((p - e) // s + 1 for p, e, s in zip(padded, effective, stride))
    geometry = _ConvGeometry(stride, pads, dilation, groups, kernel, out_size, x.shape[1])
    columns = geometry.columns(x)
    value = geometry.forward(x, w, columns)
    if bias is not None:
        value += bias._array.reshape(1, -1, 1, 1)
    bias_shape = None if bias is None else tuple(bias._array.shape)
    return recorded(Tensor._wrap(value), (input, weight, bias), ConvolutionBackward0, input, weight, geometry,
                    reported, bias_shape, columns)


# ---------------------------------------------------------------- pooling


class _PoolGeometry:
    """One pooling's windows: kernel, stride, padding, dilation and the sizes they give."""

    __slots__ = ("kernel", "stride", "padding", "dilation", "in_size", "out_size", "pads")

    def __init__(self, kernel, stride, padding, dilation, in_size, out_size):
        self.kernel, self.stride, self.padding, self.dilation = kernel, stride, padding, dilation
        self.in_size, self.out_size = in_size, out_size
        # enough rows and columns after the input for the last window (ceil_mode can reach past the padding)
        ends = [(o - 1) * s + d * (k - 1) + 1 for o, s, d, k in zip(out_size, stride, dilation, kernel)]
        extra = [max(e - p - n, p) for e, p, n in zip(ends, padding, in_size)]
        self.pads = (padding[0], extra[0], padding[1], extra[1])

    def positions(self):
        """Each kernel position (i, j) with the slice of the padded input it reads in every window."""
        for i in range(self.kernel[0]):
            for j in range(self.kernel[1]):
                yield i, j, _window_slice(i, j, self.stride, self.dilation, self.out_size)

    def inside(self, i, j):
        """Whether kernel position (i, j) of each window (OH, OW) falls on the input, not on padding."""
        rows = np.arange(self.out_size[0]) * self.stride[0] - self.padding[0] + i * self.dilation[0]
        cols = np.arange(self.out_size[1]) * self.stride[1] - self.padding[1] + j * self.dilation[1]
        return (((rows >= 0) & (rows < self.in_size[0]))[:, None]) & (((cols >= 0) & (cols < self.in_size[1]))[None])

    def scatter(self, parts, shape, dtype):
        """The sum, over kernel positions, of each position's (N, C, OH, OW) part added where it read."""
        padded = np.zeros(shape[:2] + (shape[2] + self.pads[0] + self.pads[1], shape[3] + self.pads[2] + self.pads[3]),
                          dtype)
        for (i, j, where), part in zip(self.positions(), parts):
            if part is not None:
                padded[:, :, where[0], where[1]] += part
        return _unpadded(padded, self.pads, shape)


def _pool_size(size, kernel, pad, stride, dilation, ceil_mode):
    """PyTorch's pooling_output_shape."""
    numerator = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = numerator // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_pair(value, name, fn):
    if isinstance(value, (int, np.integer)):
        return (int(value),) * 2
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * 2
    if len(value) != 2:
        raise RuntimeError(f"{fn}: {name} must either be a single int, or a tuple of two ints")
    return value


def _pool_geometry(x, fn, kernel_size, stride, padding, dilation, ceil_mode, avg=False):
    """The windows of a pooling, after PyTorch's checks (its messages, its order)."""
    kernel = _pool_pair(kernel_size, "kernel_size", fn)
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        _pool_pair(stride, "stride", fn)
    padding = _pool_pair(padding, "padding", fn)
    dilation = _pool_pair(dilation, "dilation", fn)
    if x.ndim not in (3, 4) or 0 in x.shape[1:]:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} dilationW: "
                           f"{dilation[1]}")
    if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
        if avg:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding[0]}, "
                               f"kernel_size={kernel[0]} and dilation=1")
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding[0]}, "
                           f"kernel_size={kernel[0]} and dilation={dilation[0]}")
    in_size = x.shape[-2:]
    out_size = tuple(_pool_size(*args, ceil_mode) for args in zip(in_size, kernel, padding, stride, dilation))
    if min(out_size) < 1:
        raise RuntimeError(f"Given input size: ({x.shape[-3]}x{in_size[0]}x{in_size[1]}). Calculated output size: "
                           f"({x.shape[-3]}x{out_size[0]}x{out_size[1]}). Output size is too small")
    return _PoolGeometry(kernel, stride, padding, dilation, in_size, out_size)


def _batched(x):
    return x if x.ndim == 4 else x[None]


class MaxPool2DWithIndicesBackward0(Node):
    """out = the largest element of each window (the first of equal ones); its gradient goes to that element."""

    __slots__ = ("geometry",)
    saved_names = ("self", "result1", "kernel_size", "stride", "padding", "dilation", "ceil_mode")

    def __init__(self, input, indices, geometry, stride, ceil_mode):
        g = geometry
        self._saved = (SavedTensor(input), SavedTensor(indices, is_output=True), g.kernel, stride, g.padding,
                       g.dilation, ceil_mode)
        self.geometry = geometry

    def backward(self, grad):
        _no_double_backward(self, grad)
        x, indices = self._saved[0].unpack(self, False), self._saved[1].unpack(self, False)
        return _max_pool_scatter(grad, indices, x.shape, self.geometry)

    def jvp(self, tangent):
        """Forward mode: each output moves as its chosen element moves."""
        indices = self._saved[1].unpack(self, False)
        flat = tangent.reshape(tangent.shape[:-2] + (-1,))
        picked = np.take_along_axis(flat, indices.reshape(indices.shape[:-2] + (-1,)), axis=-1)
        return picked.reshape(indices.shape)


def _max_pool_scatter(grad, indices, shape, geometry):
    """Each output's gradient added at its element (flat indices within each image's H·W)."""
    size = shape[-2] * shape[-1]
    rows = int(np.prod(shape[:-2]))
    count = int(np.prod(indices.shape[-2:]))
    grad, indices = grad.reshape(rows, count), indices.reshape(rows, count)
    overlapping = any(s < d * (k - 1) + 1 for s, d, k in zip(geometry.stride, geometry.dilation, geometry.kernel))
    if overlapping:  # an element may be chosen by several windows: their gradients add up
        flat = (indices + np.arange(rows)[:, None] * size).ravel()
        out = np.bincount(flat, weights=grad.ravel(), minlength=rows * size).astype(grad.dtype)
    else:
        out = np.zeros((rows, size), grad.dtype)
        np.put_along_axis(out, indices, grad, axis=1)
    return out.reshape(shape)


def _max_pool_forward(x, geometry):
    """The largest element of each window and its flat index in its image; nan wins, as in PyTorch."""
    x4 = _batched(x)
    padded = _padded(x4, geometry.pads, -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min)
    best = chosen = None
    needs_inside = any(geometry.pads)
    for k, (i, j, where) in enumerate(geometry.positions()):
        value = padded[:, :, where[0], where[1]]
        if best is None:  # the first position inside each window is taken whatever it holds
            best, chosen = value.copy(), np.zeros(value.shape, np.int64)
            if needs_inside:
                chosen[:] = -1
                chosen[..., geometry.inside(i, j)] = 0
            continue
        if x.dtype.kind == "f":
            better = (value > best) | np.isnan(value)
        else:
            better = value > best
        if needs_inside:
            better &= geometry.inside(i, j)
            better |= (chosen < 0) & geometry.inside(i, j)
        best[better] = value[better]
        chosen[better] = k
    kw = geometry.kernel[1]
    rows = np.arange(geometry.out_size[0])[:, None] * geometry.stride[0] - geometry.padding[0]
    cols = np.arange(geometry.out_size[1])[None] * geometry.stride[1] - geometry.padding[1]
    rows = rows + (chosen // kw) * geometry.dilation[0]
    cols = cols + (chosen % kw) * geometry.dilation[1]
    indices = rows * geometry.in_size[1] + cols
    if x.ndim == 3:
        best, indices = best[0], indices[0]
    return best, indices


@public("max_pool2d")
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest element of each kernel_size window, windows ``stride`` apart (kernel_size by default)."""
    x = input._array
    geometry = _pool_geometry(x, "max_pool2d", kernel_size, stride, padding, dilation, ceil_mode)
    value, indices = _max_pool_forward(x, geometry)
    indices = Tensor._wrap(indices)
    saved_stride = () if stride is None else geometry.stride
    out = recorded(Tensor._wrap(value), (input,), MaxPool2DWithIndicesBackward0, input, indices, geometry,
                   saved_stride, ceil_mode)
    return (out, indices) if return_indices else out


class AvgPool2DBackward0(Node):
    """out = the mean of each window: each element of a window gets grad / the window's divisor."""

    __slots__ = ("geometry", "divisor")
    saved_names = ("self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")

    def __init__(self, input, geometry, divisor, stride, ceil_mode, count_include_pad, divisor_override):
        g = geometry
        self._saved = (SavedTensor(input), g.kernel, stride, g.padding, ceil_mode, count_include_pad,
                       divisor_override)
        self.geometry, self.divisor = geometry, divisor

    def backward(self, grad):
        _no_double_backward(self, grad)
        return _avg_pool_backward(grad, self.geometry, self.divisor, self._shape_of_input())

    def _shape_of_input(self):
        return self._saved[0].unpack(self, False).shape

    def jvp(self, tangent):
        """Forward mode: the mean of the tangent's windows."""
        return _avg_pool_forward(tangent, self.geometry, self.divisor)


def _avg_divisor(geometry, count_include_pad, divisor_override, dtype):
    """Each window's divisor, PyTorch's: the window within the padded input (count_include_pad) or within the
    input, or ``divisor_override``. A number when every window has the same."""
    if divisor_override is not None:
        return dtype.type(divisor_override)
    sizes = []
    for axis in (0, 1):
        start = np.arange(geometry.out_size[axis]) * geometry.stride[axis] - geometry.padding[axis]
        end = np.minimum(start + geometry.kernel[axis], geometry.in_size[axis] + geometry.padding[axis])
        if count_include_pad:
            sizes.append(end - start)
        else:
            sizes.append(np.minimum(end, geometry.in_size[axis]) - np.maximum(start, 0))
    divisor = sizes[0][:, None] * sizes[1][None]
    if np.all(divisor == divisor.flat[0]):
        return dtype.type(divisor.flat[0])
    return divisor.astype(dtype)


def _tiles(geometry):
    """Whether the windows tile the input without overlap or padding (stride = kernel, as in LeNet's
    2×2 pooling): then each window is a block of a reshape, and the backward a broadcast."""
    return geometry.stride == geometry.kernel and not any(geometry.pads) and geometry.dilation == (1, 1)


def _blocks(x4, geometry):
    """The windows of ``x4`` (N, C, H, W) as a view (N, C, OH, KH, OW, KW), when they tile it."""
    (oh, ow), (kh, kw) = geometry.out_size, geometry.kernel
    return x4[:, :, :oh * kh, :ow * kw].reshape(x4.shape[:2] + (oh, kh, ow, kw))


def _avg_pool_forward(x, geometry, divisor):
    padded = _padded(_batched(x), geometry.pads)
    if _tiles(geometry):
        blocks = _blocks(padded, geometry)
        positions = [(blocks[:, :, :, i, :, j]) for i in range(geometry.kernel[0]) for j in range(geometry.kernel[1])]
    else:
        positions = [padded[:, :, where[0], where[1]] for _, _, where in geometry.positions()]
    total = None
    for value in positions:  # in PyTorch's order: row by row
        total = value.copy() if total is None else np.add(total, value, out=total)
    out = total / divisor
    return out if x.ndim == 4 else out[0]


def _avg_pool_backward(grad, geometry, divisor, shape):
    share = _batched(grad) / divisor
    batched = shape if len(shape) == 4 else (1,) + tuple(shape)
    if _tiles(geometry):  # each window's share, broadcast over its block
        (oh, ow), (kh, kw) = geometry.out_size, geometry.kernel
        blocks = np.empty(share.shape[:3] + (kh, ow, kw), grad.dtype)
        for i in range(kh):  # one strided copy per kernel position: much faster than copying a broadcast
            for j in range(kw):
                blocks[:, :, :, i, :, j] = share
        spread = blocks.reshape(share.shape[:2] + (oh * kh, ow * kw))
        if spread.shape != tuple(batched):  # rows or columns past the last window get nothing
            out = np.zeros(batched, grad.dtype)
            out[:, :, :oh * kh, :ow * kw] = spread
            spread = out
        return spread.reshape(shape)
    count = geometry.kernel[0] * geometry.kernel[1]
    return geometry.scatter([share] * count, batched, grad.dtype).reshape(shape)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window, windows ``stride`` apart (kernel_size by default)."""
    x = input._array
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    geometry = _pool_geometry(x, "avg_pool2d", kernel_size, stride, padding, 1, ceil_mode, avg=True)
    divisor = _avg_divisor(geometry, count_include_pad, divisor_override, x.dtype)
    value = _avg_pool_forward(x, geometry, divisor)
    saved_stride = () if stride is None else geometry.stride
    return recorded(Tensor._wrap(value), (input,), AvgPool2DBackward0, input, geometry, divisor, saved_stride,
                    ceil_mode, count_include_pad, divisor_override)


class AdaptiveAvgPool2DBackward0(Node):
    """out = the mean of each of OH × OW windows that split the input as evenly as they can."""

    __slots__ = ("bounds",)
    saved_names = ("self",)

    def __init__(self, input, bounds):
        self._saved = (SavedTensor(input),)
        self.bounds = bounds

    def backward(self, grad):
        _no_double_backward(self, grad)
        shape = self._saved[0].unpack(self, False).shape
        out = np.zeros(shape, grad.dtype)
        rows, cols = self.bounds
        for y, (top, bottom) in enumerate(rows):
            for x, (left, right) in enumerate(cols):
                out[..., top:bottom, left:right] += grad[..., y:y + 1, x:x + 1] / ((bottom - top) * (right - left))
        return out


def _adaptive_bounds(size, out):
    """PyTorch's windows: [floor(i·size/out), ceil((i+1)·size/out)) for each output i."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to a given output size (None keeps the input's): windows as even as they can be."""
    x = input._array
    if isinstance(output_size, (int, np.integer)) or output_size is None:
        output_size = (output_size, output_size)
    output_size = tuple(output_size)
    if len(output_size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    out_size = tuple(x.shape[-2 + a] if s is None else int(s) for a, s in enumerate(output_size))
    if out_size == (1, 1):  # PyTorch takes the mean
        return reductions.mean(input, (-1, -2), keepdim=True)
    bounds = (_adaptive_bounds(x.shape[-2], out_size[0]), _adaptive_bounds(x.shape[-1], out_size[1]))
    value = np.empty(x.shape[:-2] + out_size, x.dtype)
    for y, (top, bottom) in enumerate(bounds[0]):
        for x_, (left, right) in enumerate(bounds[1]):
            window = x[..., top:bottom, left:right]
            value[..., y, x_] = window.sum((-2, -1)) / x.dtype.type((bottom - top) * (right - left))
    return recorded(Tensor._wrap(value), (input,), AdaptiveAvgPool2DBackward0, input, bounds)


