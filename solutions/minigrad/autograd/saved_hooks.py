"""Hooks for saved tensors: the caller decides how a value kept for backward is stored.

Inside ``with saved_tensors_hooks(pack, unpack):`` every tensor an operation saves is
handed to ``pack``, and only what ``pack`` returns is kept (a copy on disk, a compressed
form, ...); backward, or reading ``grad_fn._saved_self``, calls ``unpack`` on it to get a
tensor back. ``grad_fn._raw_saved_self.register_hooks(pack, unpack)`` does the same for
one saved tensor. As in PyTorch, a packed tensor is not checked for in-place changes
(the hooks own the value now), and Python numbers an operation keeps are never packed.

The forms a saved value takes besides a tensor kept as it is are here too (``SavedForms``, which
``SavedTensor`` in ``saved_tensor.py`` inherits):

- A Python number an operation keeps (``x * 2`` keeps the 2): PyTorch shows it as a
  zero-dim tensor of the number's own type; backward reads the zero-dim array the
  operation computed with, which keeps the gradient's dtype and costs less.
- A value a pack hook returned (``saved_tensors_hooks``, ``register_hooks``): kept
  instead of the tensor, and handed to the unpack hook when backward needs it.
- A saved output, which is kept as its array only, rebuilt as a tensor of the graph
  when someone asks for it as a tensor (double backward, ``_saved_result``).
"""
import numpy as np

from ..tensor import Tensor
from .inference_mode import SAVED, refuse_outside

_in_effect = []  # the (pack, unpack) pairs of the open ``saved_tensors_hooks`` blocks, innermost last
_disabled = None  # the error message of the open ``disable_saved_tensors_hooks`` block, if any

ALREADY_HOOKED = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of hooks "
    "is allowed at a time."
)
ALREADY_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the graph "
    "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved variables after calling backward."
)

PACKED = object()  # SavedTensor._array of a tensor a pack hook holds
_UNCHANGED = [0]  # the version counter of a saved number until it becomes a tensor; never bumped
_new_object, _asarray = object.__new__, np.asarray  # looked up once (numpy's module __getattr__ is slow)


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
        ``_in_effect`` lists the open blocks' ``(pack, unpack)`` pairs, innermost last. (Called for
        every tensor saved: it also refuses an inference tensor, as PyTorch does.)

        在 ``saved_tensors_hooks`` 中，改为保存最内层打包钩子（pack hook）返回的东西。
        ``_in_effect`` 按顺序列出各个打开的代码块的 ``(pack, unpack)``，最内层的在最后。
        """
        if tensor._inference:
            refuse_outside(tensor, SAVED)
        # BEGIN SOLUTION 6.4 quiet
        if _in_effect:
            pack_hook, unpack_hook = _in_effect[-1]
            self._pack(pack_hook(tensor), unpack_hook)
        # END SOLUTION

    def _pack(self, packed_value, unpack_hook):
        """Keep what a pack hook returned (a ``Packed``, in place of the tensor),
        and let go of the tensor's array: the hooks own the value now.

        保存打包钩子返回的东西（用一个 ``Packed`` 代替张量），并放开张量的数组：
        这个值现在归钩子管了。
        """
        # BEGIN SOLUTION 6.4
        self._tensor = Packed(packed_value, unpack_hook, self._tensor)
        self._array = PACKED
        # END SOLUTION

    def register_hooks(self, pack_hook, unpack_hook):
        """Pack this one saved tensor now (``grad_fn._raw_saved_self.register_hooks(...)``),
        unless backward freed it or it is packed already (PyTorch's errors, above).

        立即打包这一个保存的张量（``grad_fn._raw_saved_self.register_hooks(...)``），除非它已被
        反向传播释放，或者已经打包过（PyTorch 的错误信息见上文）。
        """
        # BEGIN SOLUTION 6.4
        if self._array is None:
            raise RuntimeError(ALREADY_FREED)
        if self._array is PACKED:
            raise RuntimeError(ALREADY_HOOKED)
        self._pack(pack_hook(Tensor._wrap(self._array)), unpack_hook)
        # END SOLUTION

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


class Packed:
    """What a pack hook returned for one saved tensor, and where that tensor sat in the
    graph, so that the tensor ``unpack`` gives back takes its place (for double backward)."""

    __slots__ = ("value", "unpack_hook", "requires_grad", "grad_fn", "output_nr", "leaf")

    def __init__(self, value, unpack_hook, tensor):
        """``tensor`` is the saved input (None for a saved output, whose node is known when unpacking)."""
        self.value, self.unpack_hook = value, unpack_hook
        self.requires_grad = tensor is None or tensor._requires_grad
        self.grad_fn = None if tensor is None else tensor.grad_fn
        self.output_nr = None if tensor is None else tensor._output_nr
        is_leaf = tensor is not None and tensor.grad_fn is None and tensor._requires_grad
        self.leaf = tensor if is_leaf else None  # the graph holds it anyway, through its AccumulateGrad

    def unpack(self, node, as_tensor, output_nr):
        """The unpack hook's tensor: its array while backward runs, else a tensor in the graph."""
        value = self.unpacked()
        if not as_tensor:
            return value._array
        out = Tensor._wrap(value._array, requires_grad=self.requires_grad)
        if output_nr is not None:  # a saved output: its node is the one unpacking it
            out.grad_fn, out._output_nr = node, output_nr
        elif self.grad_fn is not None:
            out.grad_fn, out._output_nr = self.grad_fn, self.output_nr
        elif self.leaf is not None:  # a leaf: gradients reach the original's .grad
            out._accumulator = self.leaf._accumulator
        return out

    def unpacked(self):
        """What the unpack hook gives back for the packed value; it must be a tensor (PyTorch's
        TypeError otherwise).

        解包钩子（unpack hook）为打包的值交还的东西；它必须是张量（否则抛出 PyTorch 的 TypeError）。
        """
        # BEGIN SOLUTION 6.4
        value = self.unpack_hook(self.value)
        if not isinstance(value, Tensor):
            raise TypeError(
                f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                f"{type(value).__name__}"
            )
        return value
        # END SOLUTION


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """``with saved_tensors_hooks(pack_hook, unpack_hook):`` pack every tensor saved inside."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _disabled is not None:
            raise RuntimeError(_disabled)
        _in_effect.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc_info):
        _in_effect.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Keep saved tensors in CPU memory, and move them back to their device for backward.

    Everything here lives on the CPU already, so this packs each tensor as it is."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda tensor: (tensor.device, tensor.cpu()), lambda packed: packed[1].to(packed[0]))


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Forbid saved-tensor hooks inside the block: setting some raises ``error_message``."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        global _disabled
        if _in_effect:
            raise RuntimeError(self.error_message)
        self._outer, _disabled = _disabled, self.error_message
        return self

    def __exit__(self, *exc_info):
        global _disabled
        _disabled = self._outer
