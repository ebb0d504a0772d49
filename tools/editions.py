"""Editions of the package: the learner's (stubs) made from the reference (solutions).

In ``solutions/minigrad/`` each exercise body sits between ``# BEGIN SOLUTION <step>``
and ``# END SOLUTION``. The learner edition replaces each such body by a ``raise
NotImplementedError`` that names the step, keeping the signature and docstring. A
classroom snapshot keeps the bodies of the steps it is given (earlier chapters).

A region opened with ``# BEGIN SOLUTION <step> quiet`` gets a stub that does nothing
(``pass``) instead. It is for code that every backward runs (freeing saved tensors):
a raising stub there would stop the earlier chapters, which must work before it is
written. Until then the library just skips that work, and the step's checks notice.
"""
import importlib.util
import json
import re
import shutil
from pathlib import Path

from . import sealing


def _step_ids():
    """The package's own step-ID module (``minigrad/steps/ids.py``), loaded from the reference's file: the build
    reads the grammar there without importing the package it writes."""
    path = Path(__file__).resolve().parent.parent / "solutions" / "minigrad" / "steps" / "ids.py"
    spec = importlib.util.spec_from_file_location("minigrad_step_ids", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ids = _step_ids()
BEGIN = re.compile(rf"^(?P<indent>\s*)# BEGIN SOLUTION (?P<step>{ids.STEP})(?P<quiet> quiet)?\s*$")
END = re.compile(r"^\s*# END SOLUTION\s*$")
# In each chapter's folder, kept out of the learner edition: the named mistakes with the mutants that prove them,
# the expressions of each step's answer that nothing a learner reads may show, and the last hints (which the
# build seals into last_hints.dat): all three hold the answers.
REFERENCE_ONLY = ("mistakes.py", "guarded.py", "last_hints.py")
PLAIN = ("__init__.py", "hints.py")  # what stays plain in a learner's chapter folder; its checks are sealed


def stub_line(indent, step, quiet=False):
    """The line that stands for ``step``'s body in a learner's package, in both of the course's languages:
    a learner reading the file meets it in theirs."""
    said = f"{ids.stub_marker(step)} (see the chapter's exercise) / 第 {step} 步：在这里写你的代码（见本章的练习）"
    if quiet:
        return f"{indent}pass  # {said}; until then this does nothing / 写好之前这里什么也不做\n"
    return f'{indent}raise NotImplementedError("{said}")\n'


def regions(text):
    """Each solution region as (step, first line index, last line index, body lines)."""
    lines = text.splitlines(keepends=True)
    found, start = [], None
    for i, line in enumerate(lines):
        if "# " not in line or "SOLUTION" not in line:  # most lines: no regular expression for them
            continue
        begin = BEGIN.match(line)
        if begin:
            if start is not None:
                raise ValueError(f"line {i + 1}: BEGIN SOLUTION inside another region")
            start, step, indent = i, begin["step"], begin["indent"]
        elif END.match(line):
            if start is None:
                raise ValueError(f"line {i + 1}: END SOLUTION without BEGIN")
            found.append((step, start, i, lines[start + 1 : i], indent))
            start = None
    if start is not None:
        raise ValueError(f"line {start + 1}: BEGIN SOLUTION {step} never ends")
    return found


def render(text, keep=frozenset()):
    """The file with every region not in ``keep`` stubbed, and every marker removed."""
    lines = text.splitlines(keepends=True)
    out, cursor = [], 0
    for step, start, end, body, indent in regions(text):
        out += lines[cursor:start]
        out += body if step in keep else [stub_line(indent, step, quiet=bool(BEGIN.match(lines[start])["quiet"]))]
        cursor = end + 1
    out += lines[cursor:]
    return "".join(out)


def steps_in(package):
    """Every step ID that has a solution region in ``package``, sorted."""
    return sorted({step for steps in steps_by_file(package).values() for step in steps}, key=ids.order)


def steps_by_file(package):
    """``{file relative to package: [its steps, sorted]}`` for each file of ``package`` holding a solution region:
    the files a learner edits."""
    found = {}
    for path in sorted(Path(package).rglob("*.py")):
        steps = {step for step, *_ in regions(path.read_text())}
        if steps:
            found[path.relative_to(package).as_posix()] = sorted(steps, key=ids.order)
    return found


def write_package(source, target, keep=frozenset()):
    """Write the edition of ``source`` that solves only the steps in ``keep`` to ``target``. A chapter's
    ``mistakes.py`` stays behind: its mutants are the reference's own lines."""
    source, target = Path(source), Path(target)
    if target.exists():
        shutil.rmtree(target)
    for path in sorted(source.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir() or path.name in REFERENCE_ONLY:
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text() if path.suffix == ".py" else ""
        if "# BEGIN SOLUTION" in text:
            destination.write_text(render(text, keep))
        else:
            shutil.copyfile(path, destination)
    for folder in sorted((target / "steps").glob("chapter*")):
        seal_checks(folder)
    return target


def seal_checks(folder):
    """Seal a chapter's check modules and observations into its ``checks.dat`` (``minigrad/steps/sealed.py``):
    they hold the values of the right answer and of the usual wrong ones."""
    modules = {p.stem: p.read_text() for p in sorted(folder.glob("*.py")) if p.name not in PLAIN}
    expected = folder / "expected.json"
    data = {"modules": modules, "expected": json.loads(expected.read_text()) if expected.exists() else {}}
    (folder / sealing.CHECKS).write_text(sealing.seal(data))
    for name in modules:
        (folder / f"{name}.py").unlink()
    expected.unlink(missing_ok=True)
