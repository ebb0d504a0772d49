"""Views: tensors that read another tensor's memory, and what autograd must know of them.

A view shares its base's memory and its version counter, so an in-place change of
either is seen by both; a base lists its live views, so that when it changes in place
their history can follow (``ops.inplace``). Operations that return views (``view``,
indexing, ``transpose``...) and ``Function.apply`` make them with ``view_of``.
"""
import weakref

import numpy as np

from ..tensor import Tensor
from . import grad_mode
from .saved_tensor import share_counter


def view_of(input, array):
    """A result tensor; when numpy shares memory with the input it is a view of it.

    A view's ``_base`` is the tensor that owns the memory (never another view), whose
    version counter it shares. What in-place operations need to know is noted too: a
    base lists its views (weakly), so that when it changes in place their history can
    follow (``ops.inplace``); a view made under ``no_grad`` is marked instead, because
    PyTorch refuses to modify it in place once grad mode is back on. Such a view of a
    tensor that requires grad says it requires grad too, as in PyTorch, but it is a leaf
    without an ``AccumulateGrad``: gradients that reach it go nowhere (``grad_accumulator``).

    一个结果张量；当 numpy 让它与输入共享内存时，它是输入的视图（view）。视图的 ``_base`` 是拥有这块内存的张量
    （从不是另一个视图），视图与它共用版本计数器。原地操作需要知道的也记下来：基张量（弱引用地）列出它的视图，
    这样它被原地操作（in-place operation）改动时视图的历史能跟着改（``ops.inplace``）；在 ``no_grad`` 下做出的视图则加上标记，因为梯度模式
    恢复后 PyTorch 拒绝对它做原地操作。这样一个由需要梯度的张量得到的视图，与 PyTorch 一样也说自己需要梯度，但它是一个
    没有 ``AccumulateGrad`` 的叶子节点：到达它的梯度无处可去（``grad_accumulator``）。
    """
    out = Tensor._wrap(array)
    if array.base is not None and np.may_share_memory(array, input._array):
        base = input._base if input._base is not None else input
        out._base = base
        share_counter(out, input)
        if out._inference != base._inference:  # an inference tensor exactly when its base is
            out._inference = base._inference
        if grad_mode._enabled:
            register_view(base, out)
        else:
            out._made_in_no_grad = True
            out._requires_grad = input.requires_grad
    return out


def register_view(base, view):
    """Note that ``view`` reads ``base``'s memory, by a weak reference that removes itself
    from the list once the view is gone (dead references compare by identity, so the
    removal never compares tensors)."""
    views = base.__dict__.get("_views")
    if views is None:
        views = base._views = []
    views.append(weakref.ref(view, views.remove))


def live_views(base):
    """The views of ``base`` still in use, each once."""
    found = {}
    for ref in base.__dict__.get("_views", ()):
        view = ref()
        if view is not None:
            found[id(view)] = view
    return list(found.values())
