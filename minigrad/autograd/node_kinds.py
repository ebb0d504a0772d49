"""Two usual kinds of node, and a node's operands made by hand.

Most nodes keep one tensor for their backward: the input (``SavesInput``, as ``log`` does) or
the result (``SavesResult``, as ``exp`` does). ``Operands`` lets an operation apply another
node's rule to operands of its own, so that each rule is written once, at its step.
"""
from .graph import Node
from .saved_tensor import SavedTensor


class Operands:
    """What a node's ``backward`` reads of its node: the saved values (``_saved``, and unpacked as
    ``saved_tensors``), which inputs need a gradient and, for two inputs, their shapes.

    Made by hand, it lets an operation apply another node's rule to operands of its own, so
    that a rule is written once, at its step: ``x.dot(y)`` is the product of a row and a
    column, ``MmBackward0.backward(Operands((row, column), (True, True)), grad)``.
    """

    __slots__ = ("_saved", "saved_tensors", "needs_input_grad", "self_shape", "other_shape")

    def __init__(self, saved, needs, shapes=(None, None)):
        self._saved = self.saved_tensors = tuple(saved)
        self.needs_input_grad = tuple(needs)
        self.self_shape, self.other_shape = shapes


class SavesInput(Node):
    """A node of one input whose backward is written with that input: made with it, it saves it."""

    __slots__ = ()
    saved_names = ("self",)

    def __init__(self, input):
        self._saved = (SavedTensor(input),)


class SavesResult(Node):
    """A node of one input whose backward is written with the result: made with it, it saves it."""

    __slots__ = ()
    saved_names = ("result",)

    def __init__(self, result):
        self._saved = (SavedTensor(result, is_output=True),)
