"""An autograd graph as DOT text, drawn the way torchviz draws PyTorch's.

One grey box per ``grad_fn`` node, labelled with its PyTorch name; a light-blue box per
leaf that requires grad, linked to its ``AccumulateGrad``; a green box per output; with
``show_saved``, an orange box per saved tensor. Edges follow ``next_functions`` from
each input to the node that used it, so ``a + a`` gives two edges.

The graph is walked breadth first from the outputs and each box is numbered in the
order it is met (never by ``id()``): the same graph gives the same text on every run,
which is what lets the tests compare it.
"""
import unicodedata
from collections import deque

import numpy as np

from ..autograd.graph import AccumulateGrad
from ..messages import N_, say
from ..tensor import Tensor

COLOURS = {"output": "darkolivegreen1", "node": "lightgrey", "leaf": "lightblue", "saved": "orange"}
SMALL = 16  # a tensor of at most this many numbers shows them; a bigger one shows its shape
SEED = "seed"  # stands for the engine's GraphRoot: the edges where backward starts are (SEED, i)
FREED = object()  # a saved tensor that backward has already freed
DATA, GRAD, FREED_TEXT = N_("data: {value}"), N_("grad: {value}"), N_("[freed]")


def to_dot(outputs, params=None, show_saved=False, show_values=False):
    """The DOT text of the graph behind ``outputs`` (a tensor, or a tuple of tensors).

    ``params`` names tensors (``{"w": w}``; unnamed leaves show their shape only).
    ``show_saved`` lists what each node saved for backward; ``show_values`` writes the
    numbers of small tensors in their boxes, data and grad, as micrograd's drawing does.
    """
    graph = Graph(outputs, params, show_saved, show_values)
    if not show_values:
        return graph.dot()
    return graph.dot(graph.grad_lines({node: node.variable.grad for node in graph.leaf_boxes}))


def shape_text(shape):
    """``(5, 3)``, ``(3)``, ``()``: a shape written as torchviz writes it."""
    return "(" + ", ".join(str(n) for n in shape) + ")"


def describe(value):
    """A tensor's data or a gradient as a box shows it: its numbers when few, else its shape."""
    if value is None:
        return "None"
    array = np.asarray(getattr(value, "_array", value))
    if array.size > SMALL:
        return shape_text(array.shape)
    return np.array2string(array, precision=4, floatmode="fixed", separator=", ", suppress_small=True)


class Box:
    """One box of the picture: its DOT id, the lines of its label, its fill colour."""

    def __init__(self, box_id, lines, colour):
        self.id, self.lines, self.colour = box_id, lines, colour


class Edge:
    """An arrow ``tail -> head``. ``key`` is ``(node, i)`` for the i-th of ``node.next_functions``."""

    def __init__(self, tail, head, key=None, attrs=None):
        self.tail, self.head, self.key, self.attrs = tail, head, key, attrs or {}


class Graph:
    """The boxes and edges of the graph behind some outputs, ready to be written as DOT text.

    The animation writes the same graph once per step, dressed differently each time,
    so the walk happens once, here, and ``dot`` only writes.
    """

    def __init__(self, outputs, params=None, show_saved=False, show_values=False):
        self.boxes, self.edges, self.output_boxes = [], [], []
        self.node_boxes = {}  # grad_fn node -> its box
        self.leaf_boxes = {}  # AccumulateGrad node -> the box of its leaf tensor
        self._names = {id(tensor): name for name, tensor in dict(params or {}).items()}
        self._show_values = show_values
        self._walk((outputs,) if isinstance(outputs, Tensor) else tuple(outputs), show_saved)

    def _walk(self, outputs, show_saved):
        """Visit every node once, breadth first with a queue: no recursion, any depth works."""
        queue = deque()
        for i, tensor in enumerate(outputs):
            box = self._tensor_box(tensor, "output")
            self.output_boxes.append(box)
            if tensor.grad_fn is not None:
                self.edges.append(Edge(self._node_box(tensor.grad_fn, queue), box, (SEED, i)))
        while queue:
            node = queue.popleft()
            for i, (child, _) in enumerate(node.next_functions):
                if child is not None:  # an input that needs no gradient has no edge
                    self.edges.append(Edge(self._node_box(child, queue), self.node_boxes[node], (node, i)))
            if show_saved:
                self._add_saved(node)

    def _node_box(self, node, queue):
        """The box of ``node``, made and queued for a visit the first time the walk meets it."""
        box = self.node_boxes.get(node)
        if box is None:
            box = self.node_boxes[node] = self._box("node", [type(node).__name__])
            queue.append(node)
            if isinstance(node, AccumulateGrad):
                leaf = self.leaf_boxes[node] = self._tensor_box(node.variable, "leaf")
                self.edges.append(Edge(leaf, box))
        return box

    def _add_saved(self, node):
        """Saved tensors become orange boxes; other saved values are listed in the node's label."""
        lines = self.node_boxes[node].lines
        for name, value in saved_values(node):
            if isinstance(value, Tensor):
                self.edges.append(Edge(self._tensor_box(value, "saved", name), self.node_boxes[node], None,
                                       {"dir": "none"}))
            else:
                lines.append(f"{name}: " + (say(FREED_TEXT) if value is FREED else short(value)))

    def _tensor_box(self, tensor, kind, name=None):
        """A tensor's box: its name (given, or from ``params``), its shape, its values if asked and few."""
        name = name or self._names.get(id(tensor))
        lines = [name] if name else []
        lines.append(shape_text(tensor.shape))
        if self._show_values and tensor._array.size <= SMALL:
            lines.append(say(DATA, value=describe(tensor)))
        return self._box(kind, lines)

    def _box(self, kind, lines):
        box = Box(f"{kind}{len(self.boxes)}", lines, COLOURS[kind])
        self.boxes.append(box)
        return box

    def grad_lines(self, grads):
        """A ``grad: ...`` line for each leaf box, from a dict ``AccumulateGrad -> gradient``."""
        return {self.leaf_boxes[node]: [say(GRAD, value=describe(grad))] for node, grad in grads.items()}

    def dot(self, extra_lines=None, box_attrs=None, edge_attrs=None, title=None):
        """Write the DOT text; the animation adds lines and attributes to boxes, labels to edges."""
        extra_lines, box_attrs, edge_attrs = extra_lines or {}, box_attrs or {}, edge_attrs or {}
        out = ["digraph {"]
        if title:
            out.append(f"    graph{attributes({'label': title, 'labelloc': 't', 'fontname': 'Courier'})}")
        # Courier: dot and graphviz-pure both know its widths (with "monospace", graphviz-pure
        # measures as if in Times and the text spills out of its box), and columns line up.
        out.append("    node [shape=box, style=filled, fontname=Courier, fontsize=10, height=0.2]")
        out.append("    edge [fontname=Courier, fontsize=9]")
        for box in self.boxes:
            lines = box.lines + extra_lines.get(box, [])
            attrs = {"label": "\n".join(lines), "fillcolor": box.colour}
            if any(map(is_wide, "".join(lines))):  # renderers measure Chinese differently: size it here
                attrs.update(fit(lines))
            attrs.update(box_attrs.get(box, {}))
            out.append(f"    {box.id}{attributes(attrs)}")
        for edge in self.edges:
            attrs = {**edge.attrs, **edge_attrs.get(edge.key, {})}
            out.append(f"    {edge.tail.id} -> {edge.head.id}{attributes(attrs)}")
        out.append("}")
        return "\n".join(out) + "\n"


def fit(lines):
    """Width and height (inches) of a box that holds ``lines`` in 10 pt Courier.

    Each character is 6 pt wide (a Chinese one 10 pt, two columns), each line 12 pt high,
    plus dot's margins. Boxes whose size both renderers must agree on get it from here:
    a leaf's box in the animation (its final size in every frame, so that it does not grow
    and push the others aside when its gradient arrives), and any box with Chinese text,
    which graphviz-pure measures as if it were Latin.
    """
    lines = "\n".join(lines).splitlines()  # a matrix's values are one item over several lines
    return {"width": f"{(6 * max(map(columns, lines)) + 16) / 72:.2f}", "height": f"{(12 * len(lines) + 8) / 72:.2f}"}


def columns(text):
    """How many Courier columns ``text`` fills: a wide (Chinese) character fills two."""
    return sum(2 if is_wide(char) else 1 for char in text)


def is_wide(char):
    return unicodedata.east_asian_width(char) in ("W", "F")


def saved_values(node):
    """``(name, value)`` for what ``node`` saved for backward, as its ``_saved_<name>`` reads."""
    for name in type(node).saved_names:
        try:
            yield name, getattr(node, "_saved_" + name)
        except RuntimeError:  # backward freed it ("Trying to backward through the graph a second time")
            yield name, FREED


def short(value, limit=40):
    """A saved value on one short line: ``(1, 3)``, ``None``, ``0``."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def attributes(attrs):
    """``{"label": "w"}`` -> `` [label="w"]``, in the order given, so the text is stable."""
    if not attrs:
        return ""
    return " [" + ", ".join(f"{key}={quote(value)}" for key, value in attrs.items()) + "]"


def quote(text):
    """A DOT string: backslashes and quotes escaped, line breaks as ``\\n`` (centred lines)."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
