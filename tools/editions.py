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
import re
import shutil
from pathlib import Path

BEGIN = re.compile(r"^(?P<indent>\s*)# BEGIN SOLUTION (?P<step>\d+\.\d+|C\d+)(?P<quiet> quiet)?\s*$")
CHALLENGE = 1000  # a challenge's place after its chapter's steps
END = re.compile(r"^\s*# END SOLUTION\s*$")


def stub_line(indent, step, quiet=False):
    if quiet:
        return f"{indent}pass  # {stub_marker(step)} (see the chapter's exercise); until then this does nothing\n"
    return f'{indent}raise NotImplementedError("{stub_marker(step)} (see the chapter\'s exercise)")\n'


def stub_marker(step):
    """The words every stub of ``step`` holds, raising or quiet: how to tell a stubbed step."""
    return f"step {step}: your code goes here"


def regions(text):
    """Each solution region as (step, first line index, last line index, body lines)."""
    lines = text.splitlines(keepends=True)
    found, start = [], None
    for i, line in enumerate(lines):
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
    found = {step for path in sorted(Path(package).rglob("*.py")) for step, *_ in regions(path.read_text())}
    return sorted(found, key=step_key)


def step_key(step):
    """Where a step sorts: ``"2.10"`` after ``"2.9"``, and chapter 2's optional challenge ``"C2"`` after both."""
    if step.startswith("C"):
        return int(step[1:]), CHALLENGE
    chapter, number = step.split(".")
    return int(chapter), int(number)


def chapter_of(step):
    """``"2.3"`` and ``"C2"`` belong to chapter 2."""
    return step_key(step)[0]


def is_challenge(step):
    return step.startswith("C")


def write_package(source, target, keep=frozenset()):
    """Write the edition of ``source`` that solves only the steps in ``keep`` to ``target``."""
    source, target = Path(source), Path(target)
    if target.exists():
        shutil.rmtree(target)
    for path in sorted(source.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir():
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py":
            destination.write_text(render(path.read_text(), keep))
        else:
            shutil.copyfile(path, destination)
    return target
