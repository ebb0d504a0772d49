"""A whole Jacobian, one product at a time: exercises 4.6 (rows) and 4.7 (columns).

Autograd never builds J, but it can give any row or any column of it. A backward pass
seeded with the one-hot vector e_i returns e_iᵀ·J, row i; a forward pass with the tangent
e_j returns J·e_j, column j. So m backward passes or n forward passes give the whole
m × n matrix: reverse mode wins when there are few outputs, forward mode when there are
few inputs. Both return J in PyTorch's layout (``torch.autograd.functional.jacobian``):
the output's shape, then the input's, so ``J[i..., j...]`` is d y[i...] / d x[j...].

``torch.autograd.functional.jacobian`` (``functional.py``) does the same for tuples of
inputs and outputs, with its options; these two keep to one tensor in, one tensor out.
"""
from ..creation import zeros_like
from ..ops.joining import stack
from . import forward_ad, grad


def jacobian_reverse(f, x):
    """The Jacobian of ``f`` at ``x``, row by row: one vector-Jacobian product per element of ``f(x)``.

    ``x`` and its ``.grad`` are left as they were, and the result carries no history.

    ``f`` 在 ``x`` 处的雅可比矩阵，逐行求出：``f(x)`` 的每个元素做一次向量-雅可比积。
    ``x`` 和它的 ``.grad`` 保持原样，结果不带计算历史。
    """
    raise NotImplementedError("step 4.6: your code goes here (see the chapter's exercise) / 第 4.6 步：在这里写你的代码（见本章的练习）")


def jacobian_forward(f, x):
    """The Jacobian of ``f`` at ``x``, column by column: one Jacobian-vector product per element of ``x``.

    ``x`` is left as it was, and the result carries no history.

    ``f`` 在 ``x`` 处的雅可比矩阵，逐列求出：``x`` 的每个元素做一次雅可比-向量积。
    ``x`` 保持原样，结果不带计算历史。
    """
    raise NotImplementedError("step 4.7: your code goes here (see the chapter's exercise) / 第 4.7 步：在这里写你的代码（见本章的练习）")
