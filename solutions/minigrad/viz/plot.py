"""Plots of training, with their titles and axes in the learner's language.

A plot is drawn with matplotlib and shown as SVG whose words stay text (``svg.fonttype``
``none``): the browser draws them in its own fonts, Chinese included, and a test can read
them. matplotlib still measures the words to lay the plot out, so it is given a font with
Chinese glyphs when the system has one (``fonts-wqy-microhei`` on Debian), after its own.
"""
import contextlib
import io
import warnings

from ..messages import N_, say

LOSS_TITLE = N_("{name}: training loss")
LOSS_AXES = (N_("training step"), N_("loss (log scale)"))
CHINESE_FONTS = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Source Han Sans SC", "SimHei", "Microsoft YaHei")


def plot_losses(losses, name):
    """The loss of each training step, on a log scale, titled ``name: training loss``."""
    with _style():
        figure, axes = _figure()
        axes.plot(losses)
        axes.set_yscale("log")
        axes.set_title(say(LOSS_TITLE, name=name))
        axes.set_xlabel(say(LOSS_AXES[0]))
        axes.set_ylabel(say(LOSS_AXES[1]))
        return Plot(figure)


def plot_curves(x, curves):
    """Curves over the same ``x``, each named by its formula (``{"sin(x)": y}``): the first
    solid, the others dashed, with a legend."""
    with _style():
        figure, axes = _figure()
        for number, (formula, y) in enumerate(curves.items()):
            axes.plot(_numbers(x), _numbers(y), "-" if number == 0 else "--", label=formula)
        axes.legend()
        return Plot(figure)


def _numbers(values):
    return values.numpy() if hasattr(values, "numpy") else values


def _figure():
    from matplotlib.figure import Figure  # only when plotting: matplotlib is slow to import

    figure = Figure(figsize=(5, 3), layout="tight")
    return figure, figure.add_subplot()


@contextlib.contextmanager
def _style():
    """matplotlib's settings for these plots: words kept as text, a font for Chinese, stable ids.

    Without a Chinese font matplotlib warns of missing glyphs while it measures; the browser
    still draws them, so the warning would only put English noise under the plot.
    """
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": _fonts(), "svg.hashsalt": "minigrad"}):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Glyph .* missing from")
            yield


def _fonts():
    """matplotlib's own sans-serif font, then the first Chinese one the system has."""
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    return ["DejaVu Sans"] + [name for name in CHINESE_FONTS if name in installed][:1]


class Plot:
    """A finished figure that shows itself as SVG in a notebook."""

    def __init__(self, figure):
        out = io.StringIO()
        figure.savefig(out, format="svg")
        self.figure, self._svg = figure, out.getvalue()

    def svg(self):
        return self._svg

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/svg+xml": self._svg}
