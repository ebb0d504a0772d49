"""The other forms a saved value takes, besides a tensor kept as it is.

- A Python number an operation keeps (``x * 2`` keeps the 2): PyTorch shows it as a
  zero-dim tensor of the number's own type; backward reads the zero-dim array the
  operation computed with, which keeps the gradient's dtype and costs less.
- A value a pack hook returned (``saved_tensors_hooks``, ``register_hooks``): kept
  instead of the tensor, and handed to the unpack hook when backward needs it.
- A saved output, which is kept as its array only, rebuilt as a tensor of the graph
  when someone asks for it as a tensor (double backward, ``_saved_result``).

``SavedTensor`` (in ``saved_tensor.py``) inherits these from ``SavedForms``.
"""
import numpy as np

from ..tensor import Tensor
from . import saved_hooks
from .inference_mode import SAVED, refuse_outside

PACKED = object()  # SavedTensor._array of a tensor a pack hook holds
_UNCHANGED = [0]  # the version counter of a saved number until it becomes a tensor; never bumped
_new_object, _asarray = object.__new__, np.asarray  # looked up once (numpy's module __getattr__ is slow)
_hooks_in_effect = saved_hooks._in_effect  # the list itself, bound once: looked at for every saved tensor


class SavedForms:
    """Saved numbers, packed values and rebuilt outputs, for ``SavedTensor``."""

    __slots__ = ()

    @classmethod
    def number(cls, value, array):
        """A Python number an operation keeps, with ``array``, the zero-dim array the
        operation computed with (``promoted`` gave it the tensor's dtype)."""
        saved = _new_object(cls)
        saved._array, saved._number = array, value
        saved._counter, saved._version = _UNCHANGED, 0
        saved._tensor = saved._output_nr = None
        return saved

    def _pack_if_hooked(self, tensor):
        """Inside ``saved_tensors_hooks``, keep what the innermost pack hook returns instead.
        ``_hooks_in_effect`` lists the open blocks' ``(pack, unpack)`` pairs, innermost last. (Called for
        every tensor saved: it also refuses an inference tensor, as PyTorch does.)

        在 ``saved_tensors_hooks`` 中，改为保存最内层打包钩子（pack hook）返回的东西。
        ``_hooks_in_effect`` 按顺序列出各个打开的代码块的 ``(pack, unpack)``，最内层的在最后。
        """
        if tensor._inference:
            refuse_outside(tensor, SAVED)
        pass  # step 6.5: your code goes here (see the chapter's exercise) / 第 6.5 步：在这里写你的代码（见本章的练习）; until then this does nothing / 写好之前这里什么也不做

    def _pack(self, packed_value, unpack_hook):
        """Keep what a pack hook returned (a ``saved_hooks.Packed``, in place of the tensor),
        and let go of the tensor's array: the hooks own the value now.

        保存打包钩子返回的东西（用一个 ``saved_hooks.Packed`` 代替张量），并放开张量的数组：
        这个值现在归钩子管了。
        """
        raise NotImplementedError("step 6.5: your code goes here (see the chapter's exercise) / 第 6.5 步：在这里写你的代码（见本章的练习）")

    def register_hooks(self, pack_hook, unpack_hook):
        """Pack this one saved tensor now (``grad_fn._raw_saved_self.register_hooks(...)``),
        unless backward freed it or it is packed already (PyTorch's errors, in ``saved_hooks``).

        立即打包这一个保存的张量（``grad_fn._raw_saved_self.register_hooks(...)``），除非它已被
        反向传播释放，或者已经打包过（PyTorch 的错误信息在 ``saved_hooks`` 中）。
        """
        raise NotImplementedError("step 6.5: your code goes here (see the chapter's exercise) / 第 6.5 步：在这里写你的代码（见本章的练习）")

    def _unpack_hooked(self, node, as_tensor):
        """A packed value goes through its unpack hook (no version check: the hook owns it)."""
        return self._tensor.unpack(node, as_tensor, self._output_nr)

    def _rebuilt(self, node):
        """A saved number or output as a tensor (the array is kept as it was until now)."""
        if self._output_nr is None:  # a number: from now on, its tensor is what is kept
            self._tensor = Tensor._wrap(_asarray(self._number))
            self._array, self._counter = self._tensor._array, self._tensor._version_counter
            return self._tensor
        out = Tensor._wrap(self._array, requires_grad=True)
        out.grad_fn, out._output_nr, out._version_counter = node, self._output_nr, self._counter
        return out
