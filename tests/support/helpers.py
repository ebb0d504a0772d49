"""What many test modules need: a leaf tensor, a node's inputs by name, gradients by central differences."""
import numpy as np

import minigrad


def leaf(*values, **kwargs):
    """A 1-D leaf that requires grad: ``leaf(1.0, 2.0)``."""
    return minigrad.tensor(list(values), requires_grad=True, **kwargs)


def names(node):
    """``next_functions`` as class names, None for an input that needs no gradient."""
    return tuple(None if fn is None else type(fn).__name__ for fn, _ in node.next_functions)


def central_differences(f, *arrays, eps=1e-6):
    """d f / d arrays[i], element by element, for ``f`` of float64 arrays returning a number.

    Each element is moved by ``±eps`` in place and put back, so ``arrays`` end as they began.
    """
    grads = []
    for array in arrays:
        grad = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            keep = array[index]
            array[index] = keep + eps
            above = f(*arrays)
            array[index] = keep - eps
            below = f(*arrays)
            array[index] = keep
            grad[index] = (above - below) / (2 * eps)
        grads.append(grad)
    return grads
