"""Custom autograd Functions: a forward and a backward written by the user.

``Exp.apply(x)`` runs ``Exp.forward(ctx, x)`` without recording, then records one
node for the whole call. That node *is* the ``ctx`` the user saw: what ``forward``
saved with ``ctx.save_for_backward`` is what ``backward`` reads from
``ctx.saved_tensors``. Its class is ``ExpBackward``, made once per Function.
"""
import functools
import warnings

import numpy as np

from ..tensor import Tensor
from . import grad_mode, ownership
from .function_calls import check_dirty, fresh_outputs, positional, run_forward, saved
from .graph import Node, _sequence, gradient_edge, record, should_record
from .saved_tensor import SavedTensor

NOT_A_VARIABLE = "mark_non_differentiable only accepts variable arguments, but got "  # as PyTorch prints it, no type named
NO_BACKWARD = (
    "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
    "backward mode AD."
)


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors and flags."""

    def save_for_backward(self, *tensors):
        """Keep tensors for backward; each is checked for in-place changes when read.

        为反向传播保存张量；读取时会检查每个张量是否被原地操作修改过。
        """
        raise NotImplementedError("step 5.1: your code goes here (see the chapter's exercise) / 第 5.1 步：在这里写你的代码（见本章的练习）")

    @property
    def saved_tensors(self):
        """The tensors ``forward`` saved (a RuntimeError once backward has freed them).

        ``forward`` 保存的张量（反向传播释放它们之后再读会引发 RuntimeError）。
        """
        raise NotImplementedError("step 5.1: your code goes here (see the chapter's exercise) / 第 5.1 步：在这里写你的代码（见本章的练习）")

    def save_for_forward(self, *tensors):
        """Keep tensors for ``jvp``, the forward-mode rule (``forward_ad.py`` reads them)."""
        self._saved_for_forward = tensors

    def mark_non_differentiable(self, *tensors):
        """These outputs get no history (indices, masks...); backward receives zeros for them.

        这些输出没有历史（索引、掩码等）；反向传播时它们的梯度是全零。
        """
        raise NotImplementedError("step 5.5: your code goes here (see the chapter's exercise) / 第 5.5 步：在这里写你的代码（见本章的练习）")

    def _unmarked(self, outputs, takes_node):
        """``takes_node`` (a flag per output: whether it would take the node) with forward's marks
        heeded: an output marked non-differentiable takes none. Marking anything but a tensor
        is PyTorch's error, raised once forward has returned.

        在遵从 forward 的标记之后的 ``takes_node``（每个输出一个标志：它是否会接上节点）：被标记为
        不可微的输出不接上节点。标记张量以外的东西是错误（与 PyTorch 相同），在 forward 返回之后抛出。
        """
        raise NotImplementedError("step 5.5: your code goes here (see the chapter's exercise) / 第 5.5 步：在这里写你的代码（见本章的练习）")

    def mark_dirty(self, *tensors):
        """These inputs were changed in place by ``forward`` and returned: they take the node as history."""
        self._dirty = tensors

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient.

        设为 False 时，没有得到梯度的输出，其梯度在 backward 中是 None（而不是全零）。
        """
        raise NotImplementedError("step 5.5: your code goes here (see the chapter's exercise) / 第 5.5 步：在这里写你的代码（见本章的练习）")


class BackwardCFunction(Node, FunctionCtx):
    """The node of one call of a custom Function; subclassed once per Function."""

    __slots__ = ("_to_save", "needs_input_grad", "_tensor_positions", "_inputs_meta", "_outputs_meta", "__dict__")
    _forward_cls = None
    _non_differentiable = _dirty = ()  # until forward marks some
    _materialize = True
    saved_tensors = FunctionCtx.saved_tensors  # tensors always: user code is written with tensors

    def __repr__(self):
        return f"<torch.autograd.function.{self.name()} object at {id(self):#x}>"

    def _output_meta(self, nr):
        return self._outputs_meta[nr]

    def backward(self, *grads):
        """Run the user's ``backward`` on the gradients of the outputs, and hand on one gradient per input.

        对各输出的梯度调用用户写的 ``backward``，并为每个输入交出一个梯度。
        """
        backward = self._forward_cls.backward
        if backward is Function.backward:
            raise NotImplementedError(NO_BACKWARD)
        ownership.outsiders_run()  # user code sees the gradients and may keep what it returns
        raise NotImplementedError("step 5.3: your code goes here (see the chapter's exercise) / 第 5.3 步：在这里写你的代码（见本章的练习）")

    def _grad_tensor(self, grad, nr):
        """The gradient of output ``nr`` as the user's backward receives it: a tensor. An output
        that got none (unused, or non-differentiable) gets zeros like it, or None.

        用户的 backward 收到的输出 ``nr`` 的梯度：一个张量。没有得到梯度的输出（没被用到，或不可微）
        得到与它形状、类型相同的全零张量，或者 None。
        """
        if grad is not None:
            return grad if isinstance(grad, Tensor) else Tensor._wrap(grad)
        raise NotImplementedError("step 5.5: your code goes here (see the chapter's exercise) / 第 5.5 步：在这里写你的代码（见本章的练习）")


class _FunctionMeta(type):
    """Gives every Function subclass its own node class, named ``<Name>Backward``."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls, "__slots__": ()})


class Function(metaclass=_FunctionMeta):
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call ``apply``.

    PyTorch's newer style works too: ``forward(*args)`` without ctx, plus a static
    ``setup_context(ctx, inputs, output)`` that saves what backward needs.
    """

    def __init__(self, *args, **kwargs):
        """Functions are used through the class (``Exp.apply(x)``); an instance is of no use."""
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you "
            "should invoke them on the class itself. Instantiating an autograd function will raise an error "
            "in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(NO_BACKWARD)

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` untracked, then record one node linking its outputs to the tensor inputs.

        在不跟踪的情况下运行 ``forward``，再记录一个节点，把它的输出和张量输入连起来。
        """
        setup_style = cls.setup_context is not Function.setup_context
        if kwargs:  # keyword arguments count as inputs too: bind them to forward's parameters
            args = positional(cls, args, kwargs, setup_style)
        ctx = object.__new__(cls._backward_cls)
        ctx._saved, ctx._to_save, ctx._hooks = (), (), None
        raise NotImplementedError("step 5.2: your code goes here (see the chapter's exercise) / 第 5.2 步：在这里写你的代码（见本章的练习）")


# ---------------------------------------------------------------- @once_differentiable (step 5.6)

TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


class Error(Node):
    """Stands behind the results of a ``@once_differentiable`` backward: differentiating
    them (a second order) raises, instead of silently giving wrong gradients."""

    def backward(self, *grads):
        raise RuntimeError(TWICE)


def once_differentiable(backward):
    """Mark a custom ``backward`` as written for one differentiation only.

    It runs without recording, on whatever it is given. If its gradients would need a
    graph (``create_graph=True`` with gradients that require grad), its results are
    linked to an ``Error`` node, so a second backward through them fails clearly.
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        """``backward(ctx, *grads)``, run once without recording; its results as a tuple, linked to an
        ``Error`` node when they would need a graph (see above and exercise 5.6).

        不记录地运行一次 ``backward(ctx, *grads)``；结果是一个元组；当它们需要计算图时，与一个 ``Error``
        节点相连（见上文和练习 5.6）。
        """
        raise NotImplementedError("step 5.6: your code goes here (see the chapter's exercise) / 第 5.6 步：在这里写你的代码（见本章的练习）")

    return wrapper


def _behind_error(result):
    """``result`` as a tensor whose history is an ``Error`` node (None stays None).

    ``result`` 变成一个历史为 ``Error`` 节点的张量（None 仍是 None）。
    """
    raise NotImplementedError("step 5.6: your code goes here (see the chapter's exercise) / 第 5.6 步：在这里写你的代码（见本章的练习）")


def _link(ctx, args, outs):
    """Make ``ctx`` the grad_fn of the outputs, with an edge per tensor input."""
    ctx._tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    ctx.next_functions = tuple(gradient_edge(args[i]) for i in ctx._tensor_positions)
    ctx._inputs_meta = tuple((args[i]._array.shape, args[i]._array.dtype) for i in ctx._tensor_positions)
    ctx._seq = next(_sequence)
    ctx._outputs_meta = tuple((o._array.shape, o._array.dtype) if isinstance(o, Tensor) else ((), None) for o in outs)
    first = next(o for o in outs if isinstance(o, Tensor))
    ctx._shape, ctx._dtype = first._array.shape, first._array.dtype
    type(ctx)._num_outputs = max(type(ctx)._num_outputs, len(outs))
    for tensor in ctx._dirty:
        check_dirty(tensor)
    for nr, out in enumerate(outs):
        if ctx._differentiable[nr]:
            out.grad_fn, out._output_nr, out._requires_grad = ctx, nr, True
    ctx._saved = tuple(saved(t, outs, i) for i, t in enumerate(ctx._to_save))
