"""From DOT text to a picture, in any notebook, without ever failing it.

Graphviz's ``dot`` draws best. Where it is missing (no root to ``apt-get install
graphviz``), the ``graphviz-pure`` wheel from PyPI brings a static renderer: it installs a
``graphviz-pure`` program, no ``dot`` and no Python module, and the ``graphviz`` package
runs it once pointed at it through ``graphviz.backend.dot_command.DOT_BINARY``. Where
neither works, the picture shows its DOT text with an install hint in the learner's
language: a display hook that raises would stop the learner's notebook.
"""
import contextlib
import html
import re
import shutil

from ..messages import N_, say
from .graph import to_dot

HINT = N_(
    "To see the picture, install Graphviz (`sudo apt-get install graphviz`, or "
    "`pip install graphviz-pure`) and its Python package (`pip install graphviz`), then run the cell again."
)
CANNOT_DRAW = N_("cannot draw: {problem}.")
NO_PACKAGE = N_("the Python package graphviz is not installed")
NO_PROGRAM = N_("no `dot` command on PATH, and graphviz-pure is not installed")
FAILED = N_("{program} failed: {error}")


def draw(outputs, params=None, show_saved=False, show_values=False):
    """The graph behind ``outputs`` as a picture that shows itself in JupyterLab.

    ``draw(loss, params={"w": w, "b": b})`` is torchviz's ``make_dot``; the options are
    those of ``to_dot``. The result's ``.source`` is the DOT text, ``.save(path)`` writes SVG.
    """
    return Picture(to_dot(outputs, params, show_saved, show_values))


class Picture:
    """DOT text that shows itself: inline SVG when a renderer works, else the text and a hint."""

    def __init__(self, source):
        self.source = source
        self._svg = self._problem = None
        self._rendered = False

    def svg(self):
        """The SVG text, or None when no renderer works here (rendered once, then kept)."""
        if not self._rendered:
            self._svg, self._problem = render_svg(self.source)
            self._rendered = True
        return self._svg

    def html(self):
        """Inline SVG, or the DOT text under the install hint."""
        svg = self.svg()
        if svg is not None:
            return svg
        hint = html.escape(self.hint()).replace("\n", "<br>")
        hint = re.sub("`([^`]*)`", r"<code>\1</code>", hint)
        return f"<div><p>{hint}</p><pre>{html.escape(self.source)}</pre></div>"

    def save(self, path):
        """Write the SVG to ``path``: an explicit request, so a missing renderer is an error."""
        svg = self.svg()
        if svg is None:
            raise RuntimeError(say(CANNOT_DRAW, problem=self._problem) + "\n" + say(HINT))
        with open(path, "w", encoding="utf-8") as file:
            file.write(svg)

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.svg() is None:
            return {"text/html": self.html(), "text/plain": f"{self.hint()}\n\n{self.source}"}
        return {"image/svg+xml": self._svg, "text/plain": self.source}

    def hint(self):
        """What to install to see the picture, and what went wrong, in the learner's language."""
        return f"{say(HINT)}\n({self._problem})"

    def _repr_svg_(self):
        return self.svg()


def render_svg(source):
    """``(svg, None)``, or ``(None, why not)`` when no renderer works: never an exception."""
    try:
        import graphviz
    except ImportError:
        return None, say(NO_PACKAGE)
    problem = say(NO_PROGRAM)
    for program in renderers():
        try:
            with dot_binary(program):
                return graphviz.pipe_string("dot", "svg", source, encoding="utf-8", quiet=True), None
        except Exception as error:  # a broken renderer must not break the notebook: try the next
            problem = say(FAILED, program=program, error=error)
    return None, problem


def renderers():
    """The programs that can draw DOT here, best first: Graphviz's ``dot``, then graphviz-pure."""
    return [program for program in (shutil.which("dot"), find_graphviz_pure()) if program]


def find_graphviz_pure():
    """Where pip put the ``graphviz-pure`` program, or None.

    A Jupyter kernel often runs without its venv's ``bin`` on PATH, so when PATH does
    not find it, ask the installed wheel where its file went.
    """
    found = shutil.which("graphviz-pure")
    if found:
        return found
    import importlib.metadata  # only now: it costs more to import than all of minigrad.viz

    try:
        files = importlib.metadata.files("graphviz-pure") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name in ("graphviz-pure", "graphviz-pure.exe"):
            return str(file.locate().resolve())
    return None


@contextlib.contextmanager
def dot_binary(program):
    """Make the ``graphviz`` package run ``program`` inside the block, then put its choice back."""
    from graphviz.backend import dot_command

    previous = dot_command.DOT_BINARY
    dot_command.DOT_BINARY = program
    try:
        yield
    finally:
        dot_command.DOT_BINARY = previous
