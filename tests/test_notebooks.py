"""Every course notebook runs: the reference edition without error, the learner edition
stopping only at stubs. The outputs the course documents are asserted here."""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT

pytestmark = pytest.mark.notebooks
NOTEBOOKS = sorted((ROOT / "course").glob("*/*.ipynb"))
STUB_ERRORS = {"NotImplementedError", "StepNotImplemented"}


def execute(path, package_parent, monkeypatch, allow_errors=False):
    """Run a notebook in a fresh kernel that imports minigrad from ``package_parent``."""
    monkeypatch.setenv("PYTHONPATH", str(package_parent))
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return notebook


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


def errors(notebook):
    return [(o.ename, o.evalue) for c in notebook.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "error"]


@pytest.fixture(scope="module")
def executed(request):
    """Each reference notebook, executed once for all the assertions about it."""
    cache = {}

    def run(path):
        if path not in cache:
            with pytest.MonkeyPatch.context() as patch:
                cache[path] = execute(path, ROOT / "solutions", patch)
        return cache[path]

    return run


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reference_notebook_runs_without_error(path, executed):
    notebook = executed(path)
    assert errors(notebook) == []
    language = path.parent.name
    passed = "通过" if language == "zh" else "passed"
    checks = [text for text in outputs(notebook) if text.startswith("✓")]
    assert checks and all(passed in text for text in checks)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_learner_notebook_stops_only_at_stubs(path, monkeypatch):
    notebook = execute(path, ROOT, monkeypatch, allow_errors=True)
    found = errors(notebook)
    assert found, "the learner edition should meet at least one stub"
    for name, value in found:
        assert name in STUB_ERRORS, f"{name}: {value}"
        assert re.search(r"(step|第) \d+\.\d+", value), value


def _chapter(language, stem):
    return ROOT / "course" / language / f"{stem}.ipynb"


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
    texts = outputs(executed(_chapter(language, "01_graph")))
    spread = next(t for t in texts if "Does `a`" in t)
    assert spread == "Does `a` require gradients? : False\nDoes `b` require gradients?: True\n"
    names = next(t for t in texts if "Gradient function for z" in t)
    assert re.fullmatch(r"Gradient function for z = <AddBackward0 object at 0x[0-9a-f]+>\n"
                        r"Gradient function for loss = <BinaryCrossEntropyWithLogitsBackward0 object at 0x[0-9a-f]+>\n",
                        names)
    edges = next(t for t in texts if "SqueezeBackward4" in t)
    assert re.match(r"\(\(<SqueezeBackward4 object at 0x[0-9a-f]+>, 0\), \(<AccumulateGrad object at 0x[0-9a-f]+>, 0\)\)",
                    edges)
    assert "(None, 0), (<AccumulateGrad" in edges and edges.endswith("True\n")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_2_documented_outputs(language, executed):
    texts = outputs(executed(_chapter(language, "02_gradients")))
    assert W_GRAD in texts
    worked = next(t for t in texts if t.startswith(WORKED))
    assert worked.endswith(FOUR_AND_A_HALF)
    assert any(t.startswith("RuntimeError: Trying to backward through the graph a second time") for t in texts)
    leaf_only = next(t for t in texts if t.startswith("None\n"))
    assert leaf_only.startswith("None\ntensor([1., 1., 1.])\n")
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed" in leaf_only
