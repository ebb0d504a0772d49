"""Saved tensors: what a node keeps from its forward for its backward.

``x * y`` needs ``y`` to compute the gradient for ``x``, so its node keeps it. Two
things can go wrong with a kept value, and both are caught here: it may have been
changed in place since (``x.add_(1)``), and it may have been freed by an earlier
backward. A version counter, shared by a tensor and its views, tells the first; the
released reference tells the second.
"""
from ..tensor_data import tensor_type_name
from .saved_hooks import PACKED, SavedForms

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)


class SavedTensor(SavedForms):
    """A tensor a node keeps for its backward, with the version it had when saved.

    An input is kept as the tensor itself; an output is kept as its array only (the
    output refers to this node through ``grad_fn``, so keeping the tensor would make a
    reference cycle). Unpacking checks that no in-place operation changed the tensor
    since, and fails once backward has freed it.
    """

    __slots__ = ("_tensor", "_array", "_counter", "_version", "_output_nr", "_number")

    def __init__(self, tensor, is_output=False):
        self._counter = counter = tensor._version_counter
        self._version = counter[0]
        self._array = tensor._array
        self._tensor = None if is_output else tensor
        self._output_nr = tensor._output_nr if is_output else None
        self._pack_if_hooked(tensor)

    def release(self):
        """Drop the references to the saved value: once nothing else holds its array,
        numpy gives the memory back, and ``unpack`` raises PyTorch's second-backward error.

        丢掉对保存值的引用：一旦没有别的对象持有它的数组，numpy 就会归还内存，
        而 ``unpack`` 会引发 PyTorch 的“第二次反向传播”错误。
        """
        # BEGIN SOLUTION 4.4 quiet
        self._tensor = self._array = None
        # END SOLUTION

    def _modified_message(self, node):
        """PyTorch's error, word for word, for a saved tensor changed in place since.

        保存后又被原地操作修改的张量所对应的 PyTorch 错误信息，一字不差。
        """
        # BEGIN SOLUTION 6.5
        array = self._array
        producer = node if self._tensor is None else self._tensor.grad_fn
        which = "" if producer is None else f", which is output 0 of {op_name(producer)},"
        return (
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [torch.{tensor_type_name(array.dtype)} {list(array.shape)}]{which} "
            f"is at version {self._counter[0]}; expected version {self._version} instead. {HINT}"
        )
        # END SOLUTION

    def unpack(self, node, as_tensor):
        """The saved value for ``node``'s backward: its array, or (``as_tensor``) a tensor; an error, in
        PyTorch's words, if the graph was freed or the value was changed in place since it was saved.

        供 ``node`` 的反向传播使用的保存值：它的数组，或（``as_tensor`` 时）一个张量；如果计算图已释放，或这个值
        保存之后被原地操作改动过，则按 PyTorch 的原话报错。
        """
        if self._array is None:
            raise RuntimeError(SECOND_BACKWARD)
        if self._array is PACKED:
            return self._unpack_hooked(node, as_tensor)
        # BEGIN SOLUTION 6.6 quiet
        if self._counter[0] != self._version:
            raise RuntimeError(self._modified_message(node))
        # END SOLUTION
        if not as_tensor:
            return self._array
        return self._tensor if self._tensor is not None else self._rebuilt(node)

    def follow(self, tensor):
        """The saved output was written into ``tensor`` by an in-place operation: from now
        on an in-place change of ``tensor`` makes it stale.

        保存的输出已被原地操作写进 ``tensor``：从此以后，对 ``tensor`` 的原地操作会让它过期。
        """
        # BEGIN SOLUTION 6.6 quiet
        self._counter, self._version = tensor._version_counter, tensor._version_counter[0]
        # END SOLUTION



def release_saved(node):
    """Free what ``node`` saved, so memory goes back once backward has used it: every node's ``_release``.

    The engine calls this after the node has run, unless the graph is retained. Each
    ``SavedTensor`` in ``_saved`` lets go of what it holds; the node and its edges stay,
    so the graph can still be drawn, but a second backward through it now fails.

    释放 ``node`` 保存的东西，让反向传播用完后内存得以归还：它就是每个节点的 ``_release``。

    节点运行后引擎会调用它，除非保留计算图。``_saved`` 中的每个 ``SavedTensor`` 放开所持有的值；
    节点和它的边保留下来，因此计算图仍可画出，但再次通过它做反向传播就会失败。
    """
    # BEGIN SOLUTION 4.4 quiet
    for value in node._saved:
        if type(value) is SavedTensor:
            value.release()
    # END SOLUTION


def share_counter(view, input):
    """``view`` reads the memory of ``input`` (a tensor or a view of one): from now on a change made
    through either must count on the counter both share. With x = zeros(4), v = x[:2], then v.add_(1):
    x._version and v._version are both 1.

    ``view`` 读取 ``input``（一个张量或它的视图）的内存：从此以后，通过两者中任何一个做的改动，都必须记在
    它们共用的计数器上。x = zeros(4)、v = x[:2]，再执行 v.add_(1) 时：x._version 和 v._version 都是 1。
    """
    # BEGIN SOLUTION 6.6 quiet
    view._version_counter = input._version_counter
    # END SOLUTION


def count_write(tensor):
    """An in-place operation has just written into ``tensor``'s memory: one write, one version. With
    b._version 0, after b.mul_(3): 1.

    一个原地操作刚刚写入了 ``tensor`` 的内存：写一次，记一个版本。b._version 为 0 时，执行 b.mul_(3) 之后：1。
    """
    # BEGIN SOLUTION 6.6 quiet
    tensor._bump_version()
    # END SOLUTION


def op_name(node):
    """How PyTorch names an operation in its errors: ``MulBackward0`` -> ``Mul``; a node
    that is not an operation's backward by its C++ name, ``torch::autograd::CopySlices``."""
    name = type(node).__name__
    return name[: name.rindex("Backward")] if "Backward" in name else "torch::autograd::" + name

