"""Pictures of the autograd graph, as torchviz draws PyTorch's, and of backward running through it.

``draw(loss, params={"w": w, "b": b})`` shows the graph behind ``loss`` inline in JupyterLab;
``backward_steps(loss)`` runs ``loss.backward()`` and shows it one node at a time;
``plot_losses`` and ``plot_curves`` draw training in the learner's language. The graph in three parts:

- ``graph``: the graph as DOT text, a pure function of the tensors (tests need no binary);
- ``render``: DOT text to SVG with Graphviz's ``dot``, else graphviz-pure, else the text itself
  with an install hint, so that showing a picture never fails a notebook;
- ``animate``: the frames of one backward pass, in the order the engine really ran.

``graphviz`` and ``ipywidgets`` are imported only when a picture is shown, so that
``import minigrad.viz`` costs nothing.
"""
from .animate import BackwardSteps, backward_steps
from .graph import to_dot
from .plot import plot_curves, plot_losses
from .render import Picture, draw

__all__ = ["BackwardSteps", "Picture", "backward_steps", "draw", "plot_curves", "plot_losses", "to_dot"]
