"""The grader's own paths taken out of what a student reads: tracebacks name only the student's files.

A traceback on a feedback page comes from the sandboxed kernel or from a step's checks, and names
files as the grader's machine holds them: the submission's scratch copy
(``~/minigrad-grading-x1y2/work/minigrad/autograd/engine.py``, the sandbox's home being its /tmp),
the grader's Python (``/srv/course/.venv/lib/python3.11/site-packages/numpy/...``), a notebook
cell's file (``/tmp/ipykernel_7/123.py``), the course root, the repository. A student knows none
of them: the page says ``minigrad/autograd/engine.py``, ``<grader>/numpy/...``, ``<cell>``,
``<grader>``. Only paths under the grader's own folders change; anything else a student printed
stays as they printed it.
"""
import re
import site
import sys
import tempfile
from pathlib import Path

GRADER = "<grader>"
CELL = "<cell>"
REPOSITORY = Path(__file__).resolve().parent.parent
# A path as a traceback writes it: from "/" or "~/" (not inside a word, a URL or a longer path) to the first
# character no file name here holds (a line number's colon, a quote, a space, an ANSI colour code).
NAME = r"[^\s'\"<>:,;()\[\]{}|*?\x1b]"
PATH = re.compile(rf"(?<![\w.:/~-])(?:~/|/(?=[^/\s]))(?:{NAME})*")
SCRATCH = re.compile(r"^.*?/minigrad-grading-[^/]+/(?:work|checks)/")  # a submission's copy: its own files
CELL_FILE = re.compile(r"^(?:/tmp|~)/ipykernel_\d+/\d+\.py$")
PACKAGES = re.compile(r"^.*?/(?:site|dist)-packages/")
ANSI = re.compile(r"(\x1b\[[\d;]*m)")  # a colour code of a traceback, which may touch a path


def grader_folders(root):
    """The folders of the grader's machine a page must not name, the longest first (so the most telling wins)."""
    folders = {Path(root).resolve(), REPOSITORY, Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix),
               *map(Path, site.getsitepackages()), Path(tempfile.gettempdir()), Path.home()}
    return sorted({str(folder) for folder in folders if str(folder) != "/"}, key=len, reverse=True)


def hidden(text, folders):
    """``text`` with each path under one of ``folders`` (or the sandbox's ``~``) as a student may read it."""
    def rewrite(match):
        path = match.group(0)
        if SCRATCH.match(path):
            return SCRATCH.sub("", path)
        if CELL_FILE.match(path):
            return CELL
        if PACKAGES.match(path):
            return PACKAGES.sub(GRADER + "/", path)
        if path.startswith("~/") or any(path == f or path.startswith(f + "/") for f in folders):
            return GRADER
        return path
    return "".join(part if ANSI.fullmatch(part) else PATH.sub(rewrite, part) for part in ANSI.split(text))


def hide_in_outputs(nb, folders):
    """Every output of ``nb`` (tracebacks, errors, printed and displayed text) with the grader's paths hidden."""
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if "traceback" in output:
                output.traceback = [hidden(line, folders) for line in output.traceback]
            for key in ("evalue", "text"):
                if isinstance(output.get(key), str):
                    output[key] = hidden(output[key], folders)
            for kind, data in output.get("data", {}).items():
                if kind.startswith("text/") and isinstance(data, str):
                    output.data[kind] = hidden(data, folders)
    return nb
