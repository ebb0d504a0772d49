"""Grad-mode contexts that also work as decorators, as PyTorch's do.

``@no_grad()`` on a function runs each call inside ``with no_grad():``; ``@no_grad``
without parentheses works too; a decorated generator runs in the mode each time it
resumes, and the caller's mode returns in between. It plays the part of PyTorch's
``torch/utils/_contextlib.py``, kept apart so that ``grad_mode.py`` shows the modes alone.
"""
import functools
import inspect
import warnings

CLASS_DECORATION = (
    "Decorating classes is deprecated and will be disabled in future versions. You should only decorate functions "
    "or methods. To preserve the current behavior of class decoration, you can directly decorate the `__init__` "
    "method and nothing else."
)


class DecoratorContext:
    """A context manager that also works as a decorator; a subclass may be re-entered through ``_clone``."""

    def __new__(cls, *args, **kwargs):
        """``@no_grad`` without parentheses: Python passes the function to the class."""
        if len(args) == 1 and not kwargs and callable(args[0]) and cls._bare_decorator:
            return cls()(args[0])
        return super().__new__(cls)

    _bare_decorator = True

    def __call__(self, func):
        if inspect.isclass(func):  # constructing runs in the mode; PyTorch deprecates this
            warnings.warn(CLASS_DECORATION, FutureWarning, stacklevel=2)
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def run_in_mode(*args, **kwargs):
            """Each call runs in a block of the mode of its own (a fresh context from ``_clone``), so
            that recursive calls, and calls from several places, each give back the mode they found.

            每次调用都在自己的一个模式代码块中运行（由 ``_clone`` 得到的新上下文），这样递归调用、
            以及来自多处的调用，都各自交还它们遇到的模式。
            """
            raise NotImplementedError("step C3: your code goes here (see the chapter's exercise) / 第 C3 步：在这里写你的代码（见本章的练习）")

        return run_in_mode

    def _wrap_generator(self, func):
        """Each step of the generator runs in the mode; the caller's mode returns in between."""

        @functools.wraps(func)
        def generate(*args, **kwargs):
            with self._clone():
                steps = func(*args, **kwargs)
            return (yield from _in_mode(steps, self._clone))

        return generate

    def _clone(self):
        return type(self)()


class SetAtOnce(DecoratorContext):
    """A context whose constructor already sets the mode (``set_grad_enabled(False)``), so that
    a plain call takes effect. As a decorator it gives the mode back at once, and each call
    of the decorated function runs in a fresh one made with the same arguments."""

    _bare_decorator = False

    def __new__(cls, *args):
        context = super().__new__(cls, *args)
        context._args = args
        return context

    def __call__(self, func):
        self.__exit__(None, None, None)  # decorating must not change the mode now
        return super().__call__(func)

    def _clone(self):
        return type(self)(*self._args)

def _in_mode(steps, context):
    """Drive the generator ``steps``, entering a fresh ``context()`` around each resumption: what the
    caller sends or throws goes in, what the generator yields comes out, its return value is returned,
    and closing it runs its cleanup in the mode too. Between two resumptions the caller's mode is back.

    驱动生成器 ``steps``，每次恢复运行时都进入一个新的 ``context()``：调用者发送（send）或抛入（throw）
    的东西传进去，生成器产出（yield）的东西传出来，它的返回值原样返回，关闭它时它的清理代码也在该模式下运行。
    两次恢复运行之间，调用者的模式保持不变。
    """
    raise NotImplementedError("step C3: your code goes here (see the chapter's exercise) / 第 C3 步：在这里写你的代码（见本章的练习）")
