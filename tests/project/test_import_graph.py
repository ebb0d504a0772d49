"""The package and the tools are layered: no module imports, through any chain, a module that imports it.

The graph is read from the source (``tools/import_graph.py``), function-level imports included, and with
the package ``__init__`` that importing a submodule from outside runs first.
"""
import pytest

from conftest import ROOT
from tools import import_graph

FOLDERS = {"package": ROOT / "solutions" / "minigrad", "tools": ROOT / "tools"}


@pytest.mark.parametrize("folder", FOLDERS.values(), ids=FOLDERS.keys())
def test_no_module_imports_itself_around_a_loop(folder):
    assert import_graph.cycles(import_graph.imports(folder)) == []


@pytest.mark.parametrize("folder", FOLDERS.values(), ids=FOLDERS.keys())
def test_every_import_of_the_projects_own_modules_is_at_the_top(folder):
    inside = [f"{module} imports {target} at line {line}" for module, targets in import_graph.imports(folder).items()
              for target, (line, in_function) in targets.items() if in_function]
    assert inside == []


def test_grad_mode_sits_below_the_engine_and_the_tensor():
    graph = import_graph.imports(FOLDERS["package"])
    mode = "minigrad.autograd.grad_mode"
    assert import_graph.reaches(graph, "minigrad.autograd.engine", mode)
    for above in ("minigrad.autograd.engine", "minigrad.tensor", "minigrad.tensor_data", "minigrad.creation"):
        assert not import_graph.reaches(graph, mode, above), above


def test_a_loop_through_a_function_level_import_and_a_package_init_is_found(tmp_path):
    """A package whose ``__init__`` imports a module that, inside a function, imports a module loading a
    sibling subpackage: the loop runs through that subpackage's ``__init__``."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from .engine import run\n")
    (package / "sub" / "engine.py").write_text("from ..tensor import Tensor\n")
    (package / "sub" / "mode.py").write_text("enabled = True\n")
    (package / "tensor.py").write_text("class Tensor:\n    def numpy(self):\n        from .sub import mode\n")
    graph = import_graph.imports(package)
    assert graph["pkg.tensor"] == {"pkg.sub.mode": (3, True), "pkg.sub": (3, True)}
    assert import_graph.cycles(graph) == [["pkg.sub", "pkg.sub.engine", "pkg.tensor"]]
    assert import_graph.layers({"a": {}, "b": {"a": (1, False)}}) == [["a"], ["b"]]
