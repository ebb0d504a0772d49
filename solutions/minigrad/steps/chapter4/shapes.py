"""Checks for chapter 4, section 7: the backward rules of the shape operations (4.8).

Each check makes its node by hand and calls ``backward`` directly, as chapter 1's rule checks
do: once the way the engine calls it (numpy arrays), once as with ``create_graph=True``
(tensors). Gradients are numbered elements, so a misplaced one shows.
"""
import numpy as np

from ...autograd.graph import Node
from ...messages import N_
from ...ops.views import (ExpandBackward0, PermuteBackward0, SqueezeBackward1, TransposeBackward0,
                         UnsqueezeBackward0)
from .. import draw, step
from ..chapter1.checks import gradients_of, tensor_gradients_of

NOT_INVERTED = N_(
    "the permutation was applied again instead of undone: axis i of the result is axis dims[i] of the input, and "
    "the gradient's axes must go back to where they came from (reread exercise 4.8)."
)
EXPAND_NOT_SUMMED = N_(
    "expand's gradient was not summed back over all the copies: each input element was read at every position "
    "it was copied to, along the new leading axes and along its axes of size 1 (reread exercise 4.8)."
)
SIZE_ONE_DROPPED = N_(
    "expand's gradient was summed but lost the input's axes of size 1: a (3, 1) input needs a (3, 1) gradient, "
    "not (3,) (reread exercise 4.8)."
)
UNSQUEEZE_AXIS = N_(
    "the wrong axis was removed: unsqueeze(dim) added one axis of size 1, at dim, and its gradient loses that "
    "axis only; the input's own axes of size 1 stay (reread exercise 4.8)."
)
SQUEEZE_AXIS = N_(
    "the axis of size 1 came back in the wrong place: check where squeeze(dim) removed it (reread exercise 4.8)."
)
NOTHING_SQUEEZED = N_(
    "squeeze(dim) removes an axis only if its size is 1: here it was not, nothing was removed, and the gradient "
    "keeps its shape (reread exercise 4.8)."
)


def _node(node_type, *saved):
    """A node of ``node_type`` made by hand, with one input that needs a gradient."""
    node = node_type(*saved)
    node.next_functions = ((Node(), 0),)
    return node


def _numbered(*shape):
    """1, 2, 3, ... in ``shape``: every element different, so a moved one is seen."""
    return np.arange(1, np.prod(shape) + 1, dtype=np.float32).reshape(shape)


def _gradient(see, node, grad):
    (grad_input,) = gradients_of(see, node, grad, inputs=1)
    return grad_input


@step("4.8")
def permute_backward_undoes_the_permutation(see):
    grad = _numbered(3, 4, 2)  # the input was (2, 3, 4), permuted by (1, 2, 0)
    see(_gradient(see, _node(PermuteBackward0, (1, 2, 0)), grad), N_("the gradient of permute(1, 2, 0) of a (2, 3, 4)"),
        mistakes=[(grad.transpose(1, 2, 0), NOT_INVERTED)])
    grad = _numbered(2, 2, 2)  # a cube: applying the permutation again gives the right shape, wrong places
    see(_gradient(see, _node(PermuteBackward0, (2, 0, 1)), grad), N_("the gradient of permute(2, 0, 1) of a cube"),
        mistakes=[(grad.transpose(2, 0, 1), NOT_INVERTED)])
    see(_gradient(see, _node(PermuteBackward0, (1, 0)), _numbered(3, 2)), N_("the gradient of permute(1, 0)"))


@step("4.8")
def transpose_backward_swaps_back(see):
    grad = _numbered(4, 3, 2)  # the input was (2, 3, 4), transposed by (0, 2)
    see(_gradient(see, _node(TransposeBackward0, 0, 2), grad), N_("the gradient of transpose(0, 2) of a (2, 3, 4)"))


@step("4.8")
def expand_backward_sums_the_copies(see):
    grad = _numbered(2, 3, 4)
    see(_gradient(see, _node(ExpandBackward0, (3, 1)), grad), N_("the gradient of a (3, 1) expanded to (2, 3, 4)"),
        mistakes=[(grad, EXPAND_NOT_SUMMED), (grad.sum(0), EXPAND_NOT_SUMMED),
                  (grad.sum((0, 2)), SIZE_ONE_DROPPED)])
    grad = _numbered(2, 3)
    see(_gradient(see, _node(ExpandBackward0, (2, 3)), grad), N_("the gradient of an expand that changes nothing"))


@step("4.8")
def unsqueeze_backward_removes_its_axis(see):
    grad = _numbered(2, 1, 3, 1)  # the input was (2, 1, 3), unsqueezed at 3
    see(_gradient(see, _node(UnsqueezeBackward0, 3), grad), N_("the gradient of unsqueeze(3) of a (2, 1, 3)"),
        mistakes=[(grad.squeeze(), UNSQUEEZE_AXIS), (grad.squeeze(1), UNSQUEEZE_AXIS)])
    grad = _numbered(1, 1, 3)  # the input was (1, 3), unsqueezed at 0
    see(_gradient(see, _node(UnsqueezeBackward0, 0), grad), N_("the gradient of unsqueeze(0) of a (1, 3)"),
        mistakes=[(grad.squeeze(), UNSQUEEZE_AXIS)])


@step("4.8")
def squeeze_backward_puts_its_axis_back(see):
    grad = _numbered(2, 3)
    see(_gradient(see, _node(SqueezeBackward1, 1, (2, 1, 3)), grad), N_("the gradient of squeeze(1) of a (2, 1, 3)"),
        mistakes=[(grad, SQUEEZE_AXIS), (grad[None], SQUEEZE_AXIS), (grad[..., None], SQUEEZE_AXIS)])
    see(_gradient(see, _node(SqueezeBackward1, 1, (2, 3)), grad), N_("the gradient of squeeze(1) of a (2, 3)"),
        mistakes=[(grad[:, None], NOTHING_SQUEEZED), (grad[None], NOTHING_SQUEEZED)])


def _nodes():
    """One node of each rule of 4.8, with a gradient shaped like its output."""
    return [(_node(PermuteBackward0, (1, 2, 0)), _numbered(3, 4, 2)), (_node(TransposeBackward0, 0, 2), _numbered(4, 3, 2)),
            (_node(ExpandBackward0, (3, 1)), _numbered(2, 3, 4)), (_node(UnsqueezeBackward0, 1), _numbered(2, 1, 3)),
            (_node(SqueezeBackward1, 1, (2, 1, 3)), _numbered(2, 3))]


@step("4.8")
def shape_rules_work_on_tensors(see):
    for node, grad in _nodes():
        (grad_input,) = tensor_gradients_of(see, node, grad, inputs=1)
        see(grad_input, N_("the gradient of a shape operation for a tensor gradient: a tensor"))


@step("4.8")
def shape_rules_on_drawn_values(see):
    shape = draw.shape(see.rng) + (2,)  # at least two axes
    dims = tuple(int(d) for d in see.rng.permutation(len(shape)))
    grad = draw.values(see.rng, tuple(shape[d] for d in dims))
    see(_gradient(see, _node(PermuteBackward0, dims), grad), N_("the gradient of a permutation drawn at random"))
    source = draw.broadcast_source(see.rng, shape)
    see(_gradient(see, _node(ExpandBackward0, source), draw.values(see.rng, shape)),
        N_("the gradient of an expand, shapes drawn at random"))
