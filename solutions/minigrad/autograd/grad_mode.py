"""Grad mode: whether operations record the graph (``torch.no_grad`` and friends).

Every operation reads one flag, ``_enabled``, before it records a node. The engine
turns it off while it runs backward (on again for ``create_graph=True``), so the
backward formulas themselves are not recorded.

Each context also works as a decorator (``@no_grad()``): that part is ``mode_decorators.py``.
"""
from .mode_decorators import DecoratorContext, SetAtOnce

_enabled = True


class no_grad(DecoratorContext):
    """Run a block without recording: results never require grad."""

    def __enter__(self):
        """Remember the current grad mode, then switch recording off.

        记下当前的梯度模式，然后关闭记录。
        """
        # BEGIN SOLUTION 3.1
        self._prev = is_grad_enabled()
        _set_enabled(False)
        # END SOLUTION

    def __exit__(self, *exc):
        """Put back the grad mode of before the block, however the block ended.

        无论代码块以何种方式结束，都恢复进入代码块之前的梯度模式。
        """
        # BEGIN SOLUTION 3.1
        _set_enabled(self._prev)
        # END SOLUTION


class enable_grad(DecoratorContext):
    """Record again inside a ``no_grad`` block."""

    def __enter__(self):
        """Switch recording on for the block, remembering the mode it found.

        为代码块打开记录，并记下进入时的模式。
        """
        # BEGIN SOLUTION 3.4
        self._prev = is_grad_enabled()
        _set_enabled(True)
        # END SOLUTION

    def __exit__(self, *exc):
        """Give back the mode the block found, however the block ended.

        无论代码块以何种方式结束，都交还进入时的模式。
        """
        # BEGIN SOLUTION 3.4
        _set_enabled(self._prev)
        # END SOLUTION


class set_grad_enabled(SetAtOnce):
    """Set the mode now; used with ``with``, restore the previous mode on exit."""

    def __init__(self, mode):
        """Switch grad mode to ``mode`` at once: a plain call does the whole job. Refuse a mode
        that is not a bool, in PyTorch's words.

        立即把梯度模式切换为 ``mode``：普通的函数调用就完成了全部工作。不是 bool 的模式要拒绝，
        报错信息与 PyTorch 一致。
        """
        # BEGIN SOLUTION 3.5
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self._prev = is_grad_enabled()
        _set_enabled(mode)
        # END SOLUTION

    def __enter__(self):
        """Nothing left to do: the call itself already switched the mode."""

    def __exit__(self, *exc):
        """Give back the mode of before the call, however the block ended.

        无论代码块以何种方式结束，都交还调用之前的模式。
        """
        # BEGIN SOLUTION 3.5
        _set_enabled(self._prev)
        # END SOLUTION


def is_grad_enabled():
    """True when new operations record the graph."""
    return _enabled


def _set_enabled(mode):
    """Switch recording on or off: the one primitive every context above builds on."""
    global _enabled
    _enabled = bool(mode)
