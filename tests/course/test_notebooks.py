"""Every course notebook runs: each chapter's reference notebook without error on the edition that
solves only its own and earlier steps (so a chapter never needs a later chapter's code), and the
learner edition stopping only at stubs. The outputs the course documents are asserted here."""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from support import compiled_editions
from support import languages
from conftest import ROOT
from minigrad.messages import say
from minigrad.steps import ids
from minigrad.viz import graph as graph_module, plot as plot_module
from tools import build, editions, notebooks

pytestmark = pytest.mark.notebooks
NOTEBOOKS = sorted((ROOT / "course").glob("*/*.ipynb"))
SOURCES = build.chapter_sources()
STUB_ERRORS = {"NotImplementedError", "StepNotImplemented"}


def execute(notebook, package_parent, monkeypatch, allow_errors=False):
    """Run a notebook in a fresh kernel that imports minigrad from ``package_parent``."""
    monkeypatch.setenv("PYTHONPATH", str(package_parent))
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(package_parent)}})
    client.execute()
    return notebook


def with_answers(source, language):
    """The chapter's notebook with the practice answers kept: what a finished learner has."""
    return notebooks.for_language(notebooks.read_source(source), language, source.stem, solutions=True)


def outputs(notebook):
    """All the text a notebook printed, cell by cell."""
    texts = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        parts = [o.get("text", "") for o in cell.outputs if o.output_type == "stream"]
        parts += [o["data"].get("text/plain", "") for o in cell.outputs if "data" in o]
        texts.append("".join(parts))
    return texts


def pictures(notebook):
    """The DOT text of every graph drawing a notebook shows as SVG, in order."""
    return [o["data"]["text/plain"] for c in notebook.cells if c.cell_type == "code" for o in c.outputs
            if "image/svg+xml" in o.get("data", {}) and o["data"]["text/plain"].startswith("digraph")]


def plots(notebook):
    """The SVG of every plot a notebook shows (``viz.plot_losses``, ``viz.plot_curves``), in order."""
    return [o["data"]["image/svg+xml"] for c in notebook.cells if c.cell_type == "code" for o in c.outputs
            if "image/svg+xml" in o.get("data", {}) and not o["data"].get("text/plain", "").startswith("digraph")]


def boxes_and_edges(dot):
    """A drawing's boxes as ``[(first line of label, fill colour)]`` and its arrows as
    ``[(tail's first line, head's first line)]``, read from the DOT text ``minigrad.viz`` writes."""
    found = re.findall(r'^    (\w+) \[label="([^"]*)", fillcolor="(\w+)"', dot, re.MULTILINE)
    names = {box: label.split("\\n")[0] for box, label, _ in found}
    boxes = [(label.split("\\n")[0], colour) for _, label, colour in found]
    edges = [(names[tail], names[head]) for tail, head in re.findall(r"^    (\w+) -> (\w+)", dot, re.MULTILINE)]
    return boxes, edges


def errors(notebook):
    return [(o.ename, o.evalue) for c in notebook.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "error"]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Each chapter's reference notebook (by stem and language), executed once for all its assertions, on the
    edition that solves only the steps of that chapter and earlier ones: the same run shows that a chapter
    needs no later chapter's code."""
    cache, editions_of = {}, {}

    def run(stem, language):
        if stem not in editions_of:
            chapter = int(stem[:2])
            solved = {s for s in editions.steps_in(build.PACKAGE) if ids.chapter_of(s) <= chapter}
            editions_of[stem] = compiled_editions.write_package(tmp_path_factory.mktemp(stem) / "minigrad",
                                                                keep=solved).parent
        if (stem, language) not in cache:
            source = next(s for s in SOURCES if s.stem == stem)
            with pytest.MonkeyPatch.context() as patch:
                cache[stem, language] = execute(with_answers(source, language), editions_of[stem], patch)
        return cache[stem, language]

    return run


CHAPTERS = [(s.stem, language) for s in SOURCES for language in notebooks.LANGUAGES]


@pytest.mark.parametrize("stem, language", CHAPTERS)
def test_reference_notebook_runs_without_error_in_its_language(stem, language, executed):
    """No error, every check passes, and everything shown (outputs, pictures, plots, widgets) is in the
    notebook's language: Chinese shows no English but PyTorch's own texts and code's names, English no
    Chinese. One test for all three, so that xdist runs each notebook once for them."""
    notebook = executed(stem, language)
    assert errors(notebook) == []
    passed = ("通过", "回答正确") if language == "zh" else ("passed", "right")
    checks = [text for text in outputs(notebook) if text.startswith("✓")]
    assert checks and all(any(word in text for word in passed) for text in checks)
    assert_in_its_language(notebook, language)


def assert_in_its_language(notebook, language, before=None):
    """Everything shown in the cells before ``before`` (all of them by default), and in widgets."""
    allowed = languages.identifiers(notebook)
    for cell, text in languages.seen(notebook):
        if before is not None and cell is not None and cell >= before:
            continue
        foreign = languages.english_words(text, allowed) if language == "zh" else languages.chinese(text)
        assert foreign == [], f"cell {cell}: {text[:400]}"


@pytest.mark.parametrize("stem, language", CHAPTERS)
def test_drawings_and_plots_render_inline(stem, language, executed):
    """Every ``viz.draw`` cell shows an SVG picture, and so does every ``viz.plot_...`` cell."""
    notebook = executed(stem, language)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        kinds = {kind for o in cell.outputs for kind in o.get("data", {})}
        if "viz.draw(" in cell.source or "viz.backward_steps(" in cell.source:
            assert "image/svg+xml" in kinds or "application/vnd.jupyter.widget-view+json" in kinds, cell.source
        if "viz.plot_" in cell.source:
            assert "image/svg+xml" in kinds, cell.source


CAPSTONE = 7  # the optional last chapter: its learners have written chapters 1-6, and its programs use them all


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_learner_notebook_stops_only_at_stubs(path, monkeypatch, tmp_path):
    """The learner edition as a learner meets the chapter: every step a stub, or, for the capstone, every step
    of the chapters before it written (in an edition with chapter 1's stubs, its every cell stops at step 1.1)."""
    package_parent = ROOT
    if int(path.stem[:2]) >= CAPSTONE:
        solved = {s for s in editions.steps_in(build.PACKAGE) if ids.chapter_of(s) < CAPSTONE}
        package_parent = compiled_editions.write_package(tmp_path / "minigrad", keep=solved).parent
    notebook = execute(nbformat.read(path, as_version=4), package_parent, monkeypatch, allow_errors=True)
    found = errors(notebook)
    assert found, "the learner edition should meet at least one stub"
    for name, value in found:
        assert name in STUB_ERRORS, f"{name}: {value}"
        assert re.search(rf"(step|第|question|题目) ({ids.QUESTION}|{ids.STEP})", value), value
    first_stub = min(i for i, c in enumerate(notebook.cells) for o in c.get("outputs", []) if o.output_type == "error")
    assert_in_its_language(notebook, path.parent.name, before=first_stub + 1)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.stem)
def test_a_chapter_needs_no_later_chapter(source, executed):
    """With the steps of this chapter and earlier ones solved, and later ones stubs (the edition ``executed``
    runs the chapter on), it runs clean in both languages."""
    for language in notebooks.LANGUAGES:
        assert errors(executed(source.stem, language)) == []


W_GRAD = """tensor([[0.2661, 0.1179, 0.0027],
        [0.2661, 0.1179, 0.0027],
        [0.2661, 0.1179, 0.0027],
        [0.2661, 0.1179, 0.0027],
        [0.2661, 0.1179, 0.0027]])
tensor([0.2661, 0.1179, 0.0027])
"""
WORKED = """tensor([[1., 1.],
        [1., 1.]], requires_grad=True)
tensor([[3., 3.],
        [3., 3.]], grad_fn=<AddBackward0>)
"""
FOUR_AND_A_HALF = """tensor([[27., 27.],
        [27., 27.]], grad_fn=<MulBackward0>) tensor(27., grad_fn=<MeanBackward0>)
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_1_documented_outputs(language, executed):
    texts = outputs(executed("01_graph", language))
    spread = next(t for t in texts if "Does `a`" in t)
    assert spread == "Does `a` require gradients? : False\nDoes `b` require gradients?: True\n"
    names = next(t for t in texts if "Gradient function for z" in t)
    assert re.fullmatch(r"Gradient function for z = <AddBackward0 object at 0x[0-9a-f]+>\n"
                        r"Gradient function for loss = <BinaryCrossEntropyWithLogitsBackward0 object at 0x[0-9a-f]+>\n",
                        names)
    edges = next(t for t in texts if t.startswith("((<SqueezeBackward4"))
    assert re.match(r"\(\(<SqueezeBackward4 object at 0x[0-9a-f]+>, 0\), \(<AccumulateGrad object at 0x[0-9a-f]+>, 0\)\)",
                    edges)
    assert "(None, 0), (<AccumulateGrad" in edges and edges.endswith("True\n")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_2_documented_outputs(language, executed):
    texts = outputs(executed("02_gradients", language))
    assert W_GRAD in texts
    worked = next(t for t in texts if t.startswith(WORKED))
    assert worked.endswith(FOUR_AND_A_HALF)
    leaf_only = next(t for t in texts if t.startswith("None\n"))
    assert leaf_only.startswith("None\ntensor([1., 1., 1.])\n")
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed" in leaf_only



@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_3_documented_outputs(language, executed):
    notebook = executed("03_no_grad", language)
    texts = outputs(notebook)
    assert "True\nFalse\n" in texts  # z = matmul(x, w) + b, then inside no_grad
    assert "True\nTrue\nFalse\n" in texts  # x ** 2 outside and inside no_grad
    assert "False\n" in texts  # z.detach().requires_grad
    detached = "tensor([ 1.3755, -0.6023, -4.8127])\n"
    assert any(t.startswith(detached * 2 + "digraph") for t in texts)  # b.grad of (z * z.detach()).sum() is z
    requires_grad_ = next(t for t in texts if "SumBackward0" in t)
    assert re.fullmatch(r"False\nTrue\n<SumBackward0 object at 0x[0-9a-f]+>\n", requires_grad_)
    frozen = next(t for t in texts if t.startswith("None torch.Size"))
    assert frozen.startswith("None torch.Size([1, 8])\ndigraph")

    no_grad, detach, trainable, frozen = [boxes_and_edges(dot) for dot in pictures(notebook)]
    boxes, edges = no_grad
    assert ("z", "darkolivegreen1") in boxes and ("z_no_grad", "darkolivegreen1") in boxes
    assert ("AddBackward0", "z") in edges and not [e for e in edges if "z_no_grad" in e]
    assert {("w", "AccumulateGrad"), ("b", "AccumulateGrad")} <= set(edges)
    boxes, edges = detach
    assert [e for e in edges if e[1] == "MulBackward0"] == [("AddBackward0", "MulBackward0")]  # one factor only
    boxes, edges = trainable
    assert {n for n, colour in boxes if colour == "lightblue"} == {"0.weight", "0.bias", "2.weight", "2.bias"}
    assert [n for n, _ in boxes].count("AccumulateGrad") == 4 and ("ReluBackward0", "lightgrey") in boxes
    boxes, edges = frozen
    assert {n for n, colour in boxes if colour == "lightblue"} == {"2.weight", "2.bias"}
    assert [n for n, _ in boxes].count("AccumulateGrad") == 2 and ("ReluBackward0", "lightgrey") not in boxes


SECOND_BACKWARD = (
    "RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you "
    "need to access saved tensors after calling backward.\n"
)
FIRST_CALL = """First call
tensor([[4., 2., 2., 2., 2.],
        [2., 4., 2., 2., 2.],
        [2., 2., 4., 2., 2.],
        [2., 2., 2., 4., 2.],
        [2., 2., 2., 2., 4.]])

Second call
tensor([[8., 4., 4., 4., 4.],
        [4., 8., 4., 4., 4.],
        [4., 4., 8., 4., 4.],
        [4., 4., 4., 8., 4.],
        [4., 4., 4., 4., 8.]])

Call after zeroing gradients
tensor([[4., 2., 2., 2., 2.],
        [2., 4., 2., 2., 2.],
        [2., 2., 4., 2., 2.],
        [2., 2., 2., 4., 2.],
        [2., 2., 2., 2., 4.]])
"""
DOUBLING = """tensor([  788.9900,  -150.2356, -1115.5402], grad_fn=<MulBackward0>)
tensor([5.1200e+01, 5.1200e+02, 5.1200e-02])
"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_4_documented_outputs(language, executed):
    notebook = executed("04_vjp", language)
    texts = outputs(notebook)
    assert DOUBLING in texts
    assert FIRST_CALL in texts
    transposed = next(t for t in texts if t.startswith("First call\ntensor([[4., 2., 2., 2., 2.],\n        [2., 4., 2., 2., 2.],\n        [2., 2., 4., 2., 2.],\n        [2., 2., 2., 4., 2.]])"))
    assert transposed.endswith("RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([4, 5]) "
                               "and output[0] has a shape of torch.Size([5, 4]).\n")
    progress = next(t for t in texts if t.startswith("0 0."))
    assert re.findall(r"^(\d+) [0-9.]+$", progress, re.MULTILINE) == ["0", "100", "200", "299"]
    losses = [float(m) for m in re.findall(r"^\d+ ([0-9.]+)$", progress, re.MULTILINE)]
    assert losses[-1] < losses[0] / 10
    assert "[True, True, True, True]\n[None, None, None, None]\n" in texts  # model.zero_grad()
    plot = next(svg for svg in plots(notebook))
    assert say(plot_module.LOSS_TITLE, language, name="sin(3x)") in plot and say(plot_module.LOSS_AXES[0], language) in plot

    assert SECOND_BACKWARD in texts  # once step 4.4 frees the graph

    kept, freed = pictures(notebook)
    boxes, edges = boxes_and_edges(kept)
    assert edges == [("PowBackward0", "out"), ("AddBackward0", "PowBackward0"), ("self", "PowBackward0"),
                     ("inp", "AccumulateGrad"), ("AccumulateGrad", "AddBackward0")]
    assert ("self", "orange") in boxes  # what retain_graph=True keeps
    assert f'label="PowBackward0\\nself: {say(graph_module.FREED_TEXT, language)}\\nexponent: 2"' in freed
    assert ("self", "orange") not in boxes_and_edges(freed)[0]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_5_documented_outputs(language, executed):
    notebook = executed("05_function", language)
    texts = outputs(notebook)
    exp = next(t for t in texts if t.startswith("tensor([1.0000, 2.7183, 7.3891], grad_fn=<ExpBackward>)"))
    assert re.fullmatch(r"tensor\(\[1\.0000, 2\.7183, 7\.3891\], grad_fn=<ExpBackward>\)\n"
                        r"<torch\.autograd\.function\.ExpBackward object at 0x[0-9a-f]+>\n"
                        r"tensor\(\[1\.0000, 2\.7183, 7\.3891\]\)\n", exp)
    fit = next(t for t in texts if "y = " in t)
    assert re.findall(r"^(\d+) [0-9.]+$", fit, re.MULTILINE) == ["499", "999", "1499", "1999"]  # the progress
    final_loss = float(re.findall(r"^1999 ([0-9.]+)$", fit, re.MULTILINE)[0])
    assert final_loss == 8.94  # what PyTorch prints for the same loop
    assert fit.endswith("\ny = -0.0000 + -2.2085 * P3(-0.0000 + 0.2555 x)\n")  # PyTorch's a and c: -6.7e-10, -3.4e-10

    exp_pair, legendre = [boxes_and_edges(dot) for dot in pictures(notebook)]
    boxes, edges = exp_pair
    assert {("MulBackward0", "ExpBackward0"), ("MulBackward0", "ExpBackward"), ("ExpBackward0", "u.exp()"),
            ("ExpBackward", "Exp.apply(u)")} <= set(edges)
    boxes, edges = legendre
    assert ("AddBackward0", "LegendrePolynomial3Backward") in edges
    assert ("LegendrePolynomial3Backward", "LegendrePolynomial3.apply(u)") in edges
    operations = [n for n, colour in boxes if colour == "lightgrey" and n != "AccumulateGrad"]
    assert sorted(operations) == sorted(["MulBackward0", "AddBackward0", "LegendrePolynomial3Backward", "PowBackward0",
                                         "MulBackward0", "MulBackward0", "SubBackward0", "MulBackward0"])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_6_documented_outputs(language, executed):
    notebook = executed("06_internals", language)
    texts = outputs(notebook)
    assert "tensor([ 4.,  8., 12.]) tensor([ 4.,  8., 12.]) tensor([ 8., 16., 24.])\ntensor([1., 2., 3.])\n" in texts
    fields = next(t for t in texts if t.lstrip().startswith("w  "))
    at = r"object at 0x[0-9a-f]+>"
    assert re.fullmatch(
        r" +w +v = w\[:2\]\n"
        r"grad +tensor\(\[2\., 2\., 0\.\]\) +tensor\(\[2\., 2\.\]\)\n"
        rf"grad_fn +None +<SliceBackward0 {at}\n"
        rf"grad_accumulator +<AccumulateGrad {at} +None\n"
        r"requires_grad +True +True\n"
        r"retains_grad +False +True\n"
        r"is_leaf +True +False\n"
        r"is_view +False +True\n"
        r"base +None +tensor\(\[1\., 1\., 1\.\], requires_grad=True\)\n"
        r"version +0 +0\n"
        r"output_nr +0 +0\n"
        r"True\n", fields)
    edges = next(t for t in texts if t.startswith("True True\n(("))
    assert re.fullmatch(rf"True True\n\(\(<AccumulateGrad {at}, 0\), \(<AccumulateGrad {at}, 0\)\)\nTrue\n", edges)
    copy_slices = next(t for t in texts if t.startswith("<SelectBackward0"))
    assert re.match(rf"<SelectBackward0 {at} True\n<CopySlices {at} 1 1\n"
                    r"tensor\(\[\[20\., 20\., 20\.\],\n        \[ 2\.,  2\.,  2\.\]\]\)\ndigraph", copy_slices)
    assert ("4: AddBackward0 -> MulBackward0 -> MulBackward0 -> AddBackward0   dy/dx = 9.0\n"
            "4: MulBackward0 -> AddBackward0 -> AddBackward0 -> AddBackward0   dy/dx = 8.0\n"
            "2: MulBackward0 -> AddBackward0   dy/dx = 4.0\n") in texts

    saved, view, dynamic = [boxes_and_edges(dot) for dot in pictures(notebook)]
    boxes, edges = saved
    assert {("self", "orange"), ("other", "orange"), ("a", "lightblue"), ("b", "lightblue")} <= set(boxes)
    assert edges.count(("AccumulateGrad", "MulBackward0")) == 2
    boxes, edges = view
    assert {("MulBackward0", "CopySlices"), ("CopySlices", "h"), ("CopySlices", "AsStridedBackward0"),
            ("AsStridedBackward0", "row")} <= set(edges)
    boxes, edges = dynamic
    assert {n for n, colour in boxes if colour == "darkolivegreen1"} == {"y0", "y1"}
    assert ("AddBackward0", "y0") in edges and ("MulBackward0", "y1") in edges
    assert "True True False\ntensor([[  0.,   1.,   2.],\n        [100.,   4.,   5.]]) 1 1\n" in texts
    inplace = next(t for t in texts if "modified by an inplace operation" in t)
    assert inplace == (
        "0\n1\nRuntimeError: one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).\n")
    leaf = next(t for t in texts if "leaf Variable" in t)
    assert leaf.startswith("RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\n")


WORDS = {"en": "len(words)=5163 vocab_size=27 block_size=12 ['aaron', 'abbey', 'abbie']\n",
         "zh": "len(words)=22192 vocab_size=2989 block_size=5 ['一一列举', '一丁不识', '一不压众']\n"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_7_documented_outputs(language, executed):
    """Each language's words; the first 20 steps' losses beside PyTorch's, equal within the tolerance; the loss
    drawn while training; one attention block's graph with the nodes the chapter names."""
    notebook = executed("07_capstone", language)
    texts = outputs(notebook)
    assert WORDS[language] in texts
    beside = next(t for t in texts if "PyTorch 2.13" in t).splitlines()
    assert len(beside) == 1 + 20 + 2  # the heading, 20 steps, the verdict, PyTorch's full run
    assert beside[-2].startswith({"en": "equal within 0.0001: ", "zh": "在 0.0001 以内相等："}[language])
    mine, theirs = zip(*(map(float, line.split()[1:]) for line in beside[1:21]))
    assert max(abs(a - b) / b for a, b in zip(mine, theirs)) <= 1e-4
    assert plots(notebook), "the loss is drawn while the model trains"
    boxes, edges = boxes_and_edges(pictures(notebook)[-1])
    names = [name for name, _ in boxes]
    for node, count in (("NativeLayerNormBackward0", 2), ("SplitBackward0", 1), ("MaskedFillBackward0", 1),
                        ("SoftmaxBackward0", 1), ("GeluBackward0", 1), ("AddBackward0", 2)):
        assert names.count(node) == count, (node, names)
    assert ("MaskedFillBackward0", "SoftmaxBackward0") in edges  # the mask, then the softmax
