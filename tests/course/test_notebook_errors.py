"""In a notebook, the course's errors read as one sentence in the learner's language."""
import re

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT
from tools import build, editions

pytestmark = pytest.mark.notebooks


def run_cells(sources, monkeypatch, package_parent=ROOT):
    """Run ``sources`` as cells of one notebook on the learner edition (or the package in
    ``package_parent``); each cell's error outputs."""
    monkeypatch.setenv("PYTHONPATH", str(package_parent))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(package_parent)}}).execute()
    return [[o for o in cell.outputs if o.output_type == "error"] for cell in notebook.cells]


def test_unwritten_steps_and_failed_checks_are_sentences(monkeypatch):
    setup, demo, challenge, check, other = run_cells([
        "import minigrad\nminigrad.set_language('zh')",
        "x = minigrad.ones(2, requires_grad=True)\ny = x * 2",
        "@minigrad.no_grad()\ndef double(t):\n    return t * 2\ndouble(minigrad.ones(2))",
        "minigrad.check('1.1')",
        "raise NotImplementedError('something else')",
    ], monkeypatch)
    assert setup == []
    assert [(o.ename, o.traceback) for o in demo] == [("NotImplementedError", [
        "第 1.1 步还没有写，而这个单元格要用到它：请在 minigrad 包里找到标着“step 1.1”的那一行并写好它，保存文件，"
        "重启内核（kernel）后再运行这个单元格。"])]
    assert [(o.ename, o.traceback) for o in challenge] == [("NotImplementedError", [
        "第 C3 步还没有写，而这个单元格要用到它：请在 minigrad 包里找到标着“step C3”的那一行并写好它，保存文件，"
        "重启内核（kernel）后再运行这个单元格。"])], "a challenge's stub is named like a step's"
    assert [o.ename for o in check] == ["StepNotImplemented"] and len(check[0].traceback) == 1
    assert check[0].traceback[0].startswith("第 1.1 步还没有实现")
    assert len(other) == 1 and len(other[0].traceback) > 1, "any other error keeps its traceback"


def test_a_wrong_answer_is_its_verdict_alone(monkeypatch, tmp_path):
    """A step written wrong fails its check cell with the verdict in the learner's language,
    and no traceback through the checker (nbgrader still sees the cell fail)."""
    editions.write_package(build.PACKAGE, tmp_path / "minigrad")
    graph = tmp_path / "minigrad" / "autograd" / "graph.py"
    stub = editions.stub_line("", "1.1").strip()
    graph.write_text(graph.read_text().replace(stub, "return False"))  # never records: a wrong answer
    [setup, check] = run_cells(["import minigrad\nminigrad.set_language('zh')", "minigrad.check('1.1')"],
                               monkeypatch, package_parent=tmp_path)
    assert setup == []
    [failed] = check
    assert failed.ename == "CheckFailed" and len(failed.traceback) == 1
    assert re.search(r"[\u4e00-\u9fff]", failed.traceback[0]) and "check.py" not in failed.traceback[0]
    assert "Traceback" not in failed.traceback[0]
