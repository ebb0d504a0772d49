"""Shapes: ``torch.Size``, and undoing broadcasting in backward."""
import numpy as np


def sum_to(grad, shape):
    """Sum ``grad`` down to ``shape``: the backward of broadcasting.

    When ``a`` of shape ``(3,)`` is added to ``b`` of shape ``(2, 3)``, each element of
    ``a`` was used twice, once per row; its gradient is the sum of both uses. So sum
    over the leading dimensions broadcasting added, and over every dimension where
    ``shape`` has a 1 that was stretched, keeping that dimension.
    Works on numpy arrays and on tensors alike.

    把 ``grad`` 求和到 ``shape``：广播的反向。

    形状为 ``(3,)`` 的 ``a`` 与形状为 ``(2, 3)`` 的 ``b`` 相加时，``a`` 的每个元素被用了两次，每行一次；
    它的梯度是两次使用之和。所以要在广播添加的前导维度上求和，并在 ``shape`` 中为 1、被拉伸过的
    每个维度上求和（保留该维度）。对 numpy 数组和张量同样适用。
    """
    raise NotImplementedError("step 1.3: your code goes here (see the chapter's exercise) / 第 1.3 步：在这里写你的代码（见本章的练习）")


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([5, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


def is_expandable_to(shape, desired):
    """Whether a tensor of ``shape`` broadcasts to ``desired`` (numpy's rules, from the right)."""
    if len(shape) > len(desired):
        return False
    for have, want in zip(reversed(shape), reversed(desired)):
        if have != want and have != 1:
            return False
    return True
