"""Calling a node's backward directly, as the engine calls it: what the checks of the local rules need."""
import contextlib

from ..autograd import grad_mode


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

