"""How checks compare results, and how they explain a mismatch in both languages."""
import contextlib

import numpy as np

from ..autograd import grad_mode


class Mismatch(AssertionError):
    """A wrong result, described for the learner in English and in Chinese."""

    def __init__(self, en, zh):
        super().__init__(en)
        self.en, self.zh = en, zh


def _array(x):
    return x._array if hasattr(x, "_array") else np.asarray(x)


def close(actual, expected, what_en, what_zh, atol=1e-5):
    """``actual`` must have ``expected``'s shape and values (to ``atol``)."""
    if actual is None:
        raise Mismatch(f"{what_en}: got None, expected {_show(expected)}", f"{what_zh}：得到 None，应为 {_show(expected)}")
    got, want = _array(actual), _array(expected)
    if got.shape != want.shape:
        raise Mismatch(
            f"{what_en}: shape {tuple(got.shape)}, expected {tuple(want.shape)}",
            f"{what_zh}：形状为 {tuple(got.shape)}，应为 {tuple(want.shape)}",
        )
    if not np.allclose(got, want, atol=atol, rtol=1e-5):
        raise Mismatch(
            f"{what_en}: got {_show(got)}, expected {_show(want)}",
            f"{what_zh}：得到 {_show(got)}，应为 {_show(want)}",
        )


def same(actual, expected, what_en, what_zh):
    """``actual == expected`` for plain values (names, numbers, booleans, tuples)."""
    if actual != expected:
        raise Mismatch(f"{what_en}: got {actual!r}, expected {expected!r}", f"{what_zh}：得到 {actual!r}，应为 {expected!r}")


def holds(condition, what_en, what_zh):
    if not condition:
        raise Mismatch(what_en, what_zh)


def _show(x):
    return np.array2string(_array(x), precision=4, separator=", ", threshold=20)


@contextlib.contextmanager
def as_in_backward():
    """Grad mode off, as while the engine runs: saved tensors then come back as arrays."""
    previous = grad_mode._enabled
    grad_mode._set_enabled(False)
    try:
        yield
    finally:
        grad_mode._set_enabled(previous)


def call_backward(node, *grads):
    """Call ``node.backward`` directly, the way the engine would."""
    with as_in_backward():
        return node.backward(*grads)


def refuses(run, message, when_en, when_zh, kind=RuntimeError):
    """``run()`` must raise ``kind`` with PyTorch's words, ``message``.

    A stub's NotImplementedError is a RuntimeError too: it is let through, so that the
    step is reported as not written yet rather than as a wrong error.
    """
    try:
        run()
    except NotImplementedError:
        raise
    except kind as error:
        same(str(error), message, f"the error {when_en}", f"{when_zh}的报错信息")
        return
    raise Mismatch(f"no {kind.__name__} was raised {when_en}", f"{when_zh}没有抛出 {kind.__name__}")
