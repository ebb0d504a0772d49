"""Backward, one step at a time: the frames of a real run of the engine.

The order comes from the engine itself (``node_call.observe`` reports every node it runs),
never from a second topological sort beside it: what the learner sees is what ran.
Step 0 is the engine's ``GraphRoot``: it seeds each output with its gradient (1 for a
scalar loss), written on the edge into the output's box.

Frame k marks the node run at step k in red, writes on each edge the gradient that has
flowed along it so far (the newest in red), and shows in each leaf the gradient
accumulated so far. Every frame keeps the boxes in the same places: a gradient still to
come is written as spaces as wide as its text, and a leaf's box has its final size.
"""
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..autograd.node_call import observe
from ..autograd.graph import AccumulateGrad, GraphRoot
from ..messages import N_, say
from .graph import SEED, Graph, describe, fit
from .render import Picture

RAN = {"color": "red", "penwidth": "3"}  # the node run at this step
NEWEST = {"color": "red", "fontcolor": "red", "penwidth": "2"}  # the gradients sent at this step
TITLE = N_("step {k} of {last}: {node}")
SLIDER = N_("step")
RAN_IN_ORDER = N_("backward in {count} steps: {order}")


class Step(NamedTuple):
    """What the engine did at one step: the node it ran, the gradient it sent along each
    edge (None where none), and for an ``AccumulateGrad`` the leaf's ``.grad`` after it."""

    node: object
    grads: tuple
    leaf_grad: object


def backward_steps(loss, params=None, gradient=None, retain_graph=None, show_saved=False, show_values=False):
    """Run ``loss.backward(gradient, retain_graph)`` and keep a frame for each node it ran.

    The options are those of ``draw``. In a notebook the result is a slider over the
    frames; ``len(frames)``, ``frames.order``, ``frames.dot(k)``, ``frames[k]`` (a picture)
    and ``frames.save(folder)`` give them one by one.
    """
    graph = Graph(loss, params, show_saved, show_values)  # before backward frees the saved tensors
    before = {node: copy(node.variable.grad) for node in graph.leaf_boxes}
    steps = []

    def record(node, grads_in, grads_out):
        leaf_grad = copy(node.variable.grad) if isinstance(node, AccumulateGrad) else None
        steps.append(Step(node, tuple(copy(g) for g in grads_out), leaf_grad))

    with observe(record):
        loss.backward(gradient, retain_graph)
    return BackwardSteps(graph, steps, before)


def copy(grad):
    """A gradient as a numpy array of its own: later steps may add to the one the engine holds."""
    return None if grad is None else np.array(getattr(grad, "_array", grad))


class BackwardSteps:
    """The frames of one backward pass; shows itself as a step-through control in a notebook."""

    def __init__(self, graph, steps, leaf_grads_before):
        self.graph, self.steps = graph, steps
        self._before = leaf_grads_before
        self._pictures = {}

    def __len__(self):
        return len(self.steps)

    def index(self, k):
        """``k`` as a frame number: a negative one counts from the end, one too far is an IndexError."""
        return range(len(self))[k]

    @property
    def order(self):
        """The names of the nodes in the order the engine ran them, ``GraphRoot`` first."""
        return [type(step.node).__name__ for step in self.steps]

    def dot(self, k):
        """The DOT text of frame ``k``: the graph as it stands once step ``k`` has run."""
        k = self.index(k)
        graph, node = self.graph, self.steps[k].node
        final = graph.grad_lines(self.leaf_grads(len(self) - 1))
        box_attrs = {box: fit(box.lines + lines) for box, lines in final.items()}
        ran = graph.output_boxes if isinstance(node, GraphRoot) else [graph.node_boxes.get(node)]
        box_attrs.update((box, RAN) for box in ran)
        title = say(TITLE, k=k, last=len(self) - 1, node=type(node).__name__)
        return graph.dot(graph.grad_lines(self.leaf_grads(k)), box_attrs, self.edge_attrs(k), title)

    def leaf_grads(self, k):
        """Each leaf's ``.grad`` once step ``k`` has run (keyed by its AccumulateGrad node)."""
        grads = dict(self._before)
        for step in self.steps[: self.index(k) + 1]:
            if step.node in grads:
                grads[step.node] = step.leaf_grad
        return grads

    def edge_attrs(self, k):
        """Each edge's gradient as its label: red if sent at step ``k``, blank if still to come."""
        k, attrs = self.index(k), {}
        for n, step in enumerate(self.steps):
            for key, grad in edge_grads(step):
                label = blank(describe(grad)) if n > k else describe(grad)
                attrs[key] = {"label": label, **NEWEST} if n == k else {"label": label}
        return attrs

    def __getitem__(self, k):
        """Frame ``k`` as a picture (drawn once, then kept for the slider)."""
        k = self.index(k)
        if k not in self._pictures:
            self._pictures[k] = Picture(self.dot(k))
        return self._pictures[k]

    def save(self, folder):
        """Write ``step_000.svg``, ``step_001.svg``, ... into ``folder``; return their paths."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / f"step_{k:03d}.svg" for k in range(len(self))]
        for k, path in enumerate(paths):
            self[k].save(path)
        return paths

    def __repr__(self):
        return f"<backward in {len(self)} steps: {' -> '.join(self.order)}>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        """A live notebook shows the slider; a saved or exported one, which cannot run it, the last frame (the
        finished gradients) and the order the nodes ran in, not the widget's Python repr."""
        try:
            live = self.widget()._repr_mimebundle_(include=include, exclude=exclude)
        except Exception:  # no ipywidgets here: every frame, one under the other
            return {"text/html": self.stacked_html(), "text/plain": self.summary()}
        return {**live, "text/html": self[-1].html(), "text/plain": self.summary()}

    def summary(self):
        """How many steps backward took, and the nodes in the order they ran, in the learner's language."""
        return say(RAN_IN_ORDER, count=len(self), order=" -> ".join(self.order))

    def widget(self):
        """A play button and a slider over the frames (needs ipywidgets and a live kernel)."""
        import ipywidgets as widgets

        last = len(self) - 1
        play = widgets.Play(min=0, max=last, interval=1500)
        slider = widgets.IntSlider(min=0, max=last, description=say(SLIDER))
        widgets.jslink((play, "value"), (slider, "value"))
        view = widgets.HTML(self[0].html())

        def show(change):
            view.value = self[change["new"]].html()

        slider.observe(show, names="value")
        return widgets.VBox([widgets.HBox([play, slider]), view])

    def stacked_html(self):
        """All frames one under the other; with no renderer, only the last one's text and hint."""
        if self[0].svg() is None:
            return self[-1].html()
        return "".join(f"<div>{self[k].html()}</div>" for k in range(len(self)))


def blank(text):
    """``text`` with every character a space: as big, in Courier, and unseen."""
    return re.sub(r"[^\n]", " ", text)


def edge_grads(step):
    """``(edge key, gradient)`` for each gradient ``step`` sent; the GraphRoot's go from the outputs."""
    key = SEED if isinstance(step.node, GraphRoot) else step.node
    return [((key, i), grad) for i, grad in enumerate(step.grads) if grad is not None]
