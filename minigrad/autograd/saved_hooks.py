"""Hooks for saved tensors: the caller decides how a value kept for backward is stored.

Inside ``with saved_tensors_hooks(pack, unpack):`` every tensor an operation saves is
handed to ``pack``, and only what ``pack`` returns is kept (a copy on disk, a compressed
form, ...); backward, or reading ``grad_fn._saved_self``, calls ``unpack`` on it to get a
tensor back. ``grad_fn._raw_saved_self.register_hooks(pack, unpack)`` does the same for
one saved tensor. As in PyTorch, a packed tensor is not checked for in-place changes
(the hooks own the value now), and Python numbers an operation keeps are never packed.
"""
from ..tensor import Tensor

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
        raise NotImplementedError("step 6.5: your code goes here (see the chapter's exercise) / 第 6.5 步：在这里写你的代码（见本章的练习）")
