"""A stalled step's code put back to its stub, so that nothing graded after it stalls on it again.

When a limit stops a step's checks, that step's code loops, sleeps or hoards. Other steps' checks,
and the notebook's cells, may call the same code (step 2.3's engine runs step 2.1's
``compute_dependencies``; the chapter's ``loss.backward()`` demo cells run both): each would stall
in its turn, spending one more limit, and a notebook stopped at a demo cell never reaches the
practice answers below it. So in the copies the grader runs after the stall, each function that
holds the step's stub in the instructor's edition is taken back to that stub: whatever reaches it
fails at once with the stub's ``NotImplementedError`` naming the step (the checks report the step
they build on; ``freshchecks`` says it was stopped), and the notebook's run goes on.

A function is found by its qualified name (``ReadyQueue.push``) in both editions, and replaced whole
only when the instructor's holds the stub of that one step: another step's code stays the learner's.
A file that does not parse is left as it is (nothing in it can run, let alone stall).
"""
import ast
from pathlib import Path

from .editions import ids


def stub_out(step, instructor_package, package):
    """Put back the instructor's stub of ``step`` (from the ``instructor_package`` folder) in each function
    of the ``package`` folder that holds its code; returns the files changed, relative to ``package``."""
    changed = []
    for original in sorted(Path(instructor_package).rglob("*.py")):
        target = Path(package) / original.relative_to(instructor_package)
        stubs = _stubs_of(step, original.read_text())
        if stubs and target.is_file() and _replace(target, stubs):
            changed.append(str(target.relative_to(package)))
    return changed


def _stubs_of(step, source):
    """{qualified name: its lines} of the functions of ``source`` that hold the stub of ``step`` only."""
    if ids.stub_marker(step) not in source:
        return {}
    lines = source.splitlines(keepends=True)
    found = {}
    for name, (first, last, indent) in _functions(source).items():
        block = lines[first:last]
        if set(ids.STUB.findall("".join(block))) == {step}:
            found[name] = [line[indent:] if line.strip() and line[:indent].isspace() else line for line in block]
    return found


def _replace(target, stubs):
    """Write ``stubs`` in place of the functions of the same names in ``target``; whether any was there."""
    source = target.read_text(errors="replace")
    try:
        places = _functions(source)
    except (SyntaxError, ValueError):
        return False
    lines = source.splitlines(keepends=True)
    found = sorted(((places[name], stubs[name]) for name in stubs.keys() & places.keys()), key=lambda pair: pair[0],
                   reverse=True)
    for (first, last, indent), block in found:  # from the bottom up: the lines above keep their numbers
        margin = lines[first][:indent]
        lines[first:last] = [margin + line if line.strip() else line for line in block]
    if found:
        target.write_text("".join(lines))
    return bool(found)


def _functions(source):
    """{qualified name: (first line, end line, indentation)} of the functions and methods of ``source``,
    lines counted from 0 (decorators included, end excluded); functions nested in functions are part of
    theirs."""
    found = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
                found[prefix + node.name] = (first, node.end_lineno, node.col_offset)

    visit(ast.parse(source).body, "")
    return found
