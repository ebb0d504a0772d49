"""A stalled step's code put back to its stub (``tools/stubs.py``), on the real package files: the learner
edition (``minigrad/``, every step a stub) as the instructor's, the reference (``solutions/``) as a learner's."""
import ast
import shutil
from pathlib import Path

from tools import stubs

ROOT = Path(__file__).resolve().parents[2]
INSTRUCTOR, SOLVED = ROOT / "minigrad", ROOT / "solutions" / "minigrad"
ENGINE = Path("autograd") / "engine.py"


def solved_package(tmp_path, **sources):
    """A package of the solved learner files of chapter 2's engine (``sources``: file -> text instead)."""
    package = tmp_path / "minigrad"
    (package / ENGINE).parent.mkdir(parents=True)
    shutil.copyfile(SOLVED / ENGINE, package / ENGINE)
    for name, text in sources.items():
        (package / name).write_text(text)
    return package


def functions(path):
    source = path.read_text()
    lines = source.splitlines(keepends=True)
    return {name: "".join(lines[first:last]) for name, (first, last, _) in stubs._functions(source).items()}


def test_only_the_functions_of_the_stalled_step_become_its_stub(tmp_path):
    package = solved_package(tmp_path)
    assert stubs.stub_out("2.1", INSTRUCTOR, package) == [str(ENGINE)]
    after, instructor, solved = (functions(p) for p in (package / ENGINE, INSTRUCTOR / ENGINE, SOLVED / ENGINE))
    assert after["compute_dependencies"] == instructor["compute_dependencies"]
    assert {name: text for name, text in after.items() if name != "compute_dependencies"} == {
        name: text for name, text in solved.items() if name != "compute_dependencies"}
    assert stubs.stub_out("2.1", INSTRUCTOR, package) == [str(ENGINE)]  # again: the same stub, nothing else
    assert functions(package / ENGINE) == after


def test_a_method_keeps_its_own_indentation_and_loses_its_decorators(tmp_path):
    written = ("import functools\n\n\nclass ReadyQueue:\n  @functools.wraps(print)\n  def push(self, node):\n"
               "    while True:\n      pass\n\n  def pop(self):\n    return 1\n")
    package = solved_package(tmp_path, **{str(ENGINE): written})
    assert stubs.stub_out("2.3", INSTRUCTOR, package) == [str(ENGINE)]
    after, instructor = (methods(p) for p in (package / ENGINE, INSTRUCTOR / ENGINE))
    assert after == {name: instructor[name] for name in ("push", "pop")}
    assert (package / ENGINE).read_text().startswith("import functools\n\n\nclass ReadyQueue:\n"
                                                     "  def push(self, node):\n")


def methods(path):
    """ReadyQueue's methods in ``path``: their docstrings (cleaned of indentation) and their code's syntax trees."""
    queue = next(node for node in ast.parse(path.read_text()).body if getattr(node, "name", "") == "ReadyQueue")
    return {node.name: (ast.get_docstring(node), [ast.dump(line) for line in node.body[1:]], node.decorator_list)
            for node in queue.body if isinstance(node, ast.FunctionDef)}


def test_a_file_that_does_not_parse_is_left_as_it_is(tmp_path):
    package = solved_package(tmp_path, **{str(ENGINE): "def compute_dependencies(root:\n"})
    assert stubs.stub_out("2.1", INSTRUCTOR, package) == []
    assert (package / ENGINE).read_text() == "def compute_dependencies(root:\n"
