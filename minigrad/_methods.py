"""Tensor methods and operators, each the module-level function of the same name.

``x.exp()`` is ``minigrad.exp(x)``; ``a + b`` is ``minigrad.add(a, b)``. Binding the
functions directly (not through a wrapper) keeps each operation one call deep.
"""
from .ops import arithmetic as ar
from .ops import comparison as cmp
from . import creation
from .ops import division, inplace, joining, linalg, pointwise, reductions, scans, selection, views
from .nn.functional import log_softmax, softmax
from .tensor import Tensor


def _fill(table):
    for names, function in table:
        for name in names.split():
            setattr(Tensor, name, function)


_fill([
    ("add __add__ __radd__", ar.add),
    ("sub subtract __sub__", ar.sub),
    ("mul multiply __mul__ __rmul__", ar.mul),
    ("div divide true_divide __truediv__", ar.div),
    ("__rsub__", ar.rsub),
    ("__rtruediv__", ar.rtruediv),
    ("neg negative __neg__", ar.neg),
    ("pow __pow__", ar.pow),
    ("__rpow__", ar.rpow),
    ("reciprocal", ar.reciprocal), ("square", ar.square),
    ("to", pointwise.to), ("exp", pointwise.exp), ("log", pointwise.log), ("sqrt", pointwise.sqrt), ("abs __abs__", pointwise.abs),
    ("sign", pointwise.sign), ("relu", pointwise.relu), ("sigmoid", pointwise.sigmoid), ("tanh", pointwise.tanh),
    ("sin", pointwise.sin), ("cos", pointwise.cos), ("clone", pointwise.clone), ("clamp clip", pointwise.clamp),
    ("sum", reductions.sum), ("mean", reductions.mean), ("max", reductions.max), ("min", reductions.min),
    ("argmax", reductions.argmax), ("argmin", reductions.argmin), ("norm", reductions.norm),
    ("matmul __matmul__", linalg.matmul), ("mm", linalg.mm), ("mv", linalg.mv), ("dot", linalg.dot),
    ("bmm", linalg.bmm), ("outer ger", linalg.outer),
    ("prod", reductions.prod), ("var", reductions.var), ("std", reductions.std), ("cumsum", scans.cumsum),
    ("masked_fill", selection.masked_fill), ("gather", selection.gather), ("chunk", joining.chunk),
    ("view", views.view), ("reshape", views.reshape), ("unsqueeze", views.unsqueeze), ("squeeze", views.squeeze),
    ("expand", views.expand), ("expand_as", views.expand_as), ("permute", views.permute),
    ("transpose", views.transpose), ("t", views.t), ("flatten", views.flatten), ("__getitem__", views.getitem),
    ("contiguous", views.contiguous),
    ("eq __eq__", cmp.eq), ("ne __ne__", cmp.ne), ("lt __lt__", cmp.lt), ("le __le__", cmp.le),
    ("gt __gt__", cmp.gt), ("ge __ge__", cmp.ge), ("equal", cmp.equal), ("allclose", cmp.allclose),
    ("isclose", cmp.isclose), ("maximum", cmp.maximum), ("minimum", cmp.minimum),
    ("logical_not", cmp.logical_not), ("bitwise_not __invert__", cmp.bitwise_not),
    ("bitwise_and __and__ __rand__", cmp.bitwise_and), ("bitwise_or __or__ __ror__", cmp.bitwise_or),
    ("bitwise_xor __xor__ __rxor__", cmp.bitwise_xor),
    ("remainder __mod__", division.remainder), ("__rmod__", division.rremainder),
    ("floor_divide __floordiv__", division.floor_divide), ("__rfloordiv__", division.rfloor_divide),
])
Tensor.split = lambda self, split_size, dim=0: joining.split(self, split_size, dim)  # PyTorch's keyword names
_fill([
    ("new_ones", creation.new_ones), ("new_zeros", creation.new_zeros), ("new_empty", creation.new_empty),
    ("new_full", creation.new_full), ("new_tensor", creation.new_tensor),
])
Tensor.softmax = lambda self, dim, dtype=None: softmax(self, dim, dtype=dtype)
Tensor.log_softmax = lambda self, dim, dtype=None: log_softmax(self, dim, dtype=dtype)
Tensor.__pos__ = lambda self: self  # ``+x`` is ``x`` itself, as in PyTorch
Tensor.__rmatmul__ = lambda self, other: linalg.matmul(other, self)
_fill([  # in place: ops/inplace.py
    ("add_ __iadd__", inplace.add_), ("sub_ subtract_ __isub__", inplace.sub_),
    ("mul_ multiply_ __imul__", inplace.mul_), ("div_ divide_ true_divide_ __itruediv__", inplace.div_),
    ("pow_ __ipow__", inplace.pow_), ("square_", inplace.square_), ("neg_", inplace.neg_),
    ("reciprocal_", inplace.reciprocal_), ("clamp_ clip_", inplace.clamp_), ("exp_", inplace.exp_),
    ("log_", inplace.log_), ("sqrt_", inplace.sqrt_), ("abs_", inplace.abs_), ("sin_", inplace.sin_),
    ("cos_", inplace.cos_), ("tanh_", inplace.tanh_), ("sigmoid_", inplace.sigmoid_), ("relu_", inplace.relu_),
    ("addcmul_", inplace.addcmul_), ("addcdiv_", inplace.addcdiv_), ("zero_", inplace.zero_),
    ("fill_", inplace.fill_), ("copy_", inplace.copy_), ("__setitem__", inplace.setitem),
])
Tensor.T = property(views.T)
Tensor.mT = property(lambda self: views.transpose(self, -2, -1))
