"""Chapter notebooks: one bilingual source file in, one notebook per language out.

A chapter's source (``solutions/NN_topic/NN_topic.md``) is a MyST markdown notebook
that jupytext reads. Markdown cells carry ``{"lang": "en"}`` or ``{"lang": "zh"}``
(untagged ones go to both); code cells are shared, so the two languages run the
same code in the same order. A code cell that is only ``minigrad.check("X.Y")``
becomes the graded cell of step X.Y for nbgrader (``grade_id`` ``step_X_Y``).
"""
import re

import jupytext
import nbformat

LANGUAGES = ("en", "zh")
CHECK = re.compile(r'^minigrad\.check\("(?P<step>\d+\.\d+)"\)\s*$')
SET_LANGUAGE = 'minigrad.set_language("en")'
KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def read_source(path):
    return jupytext.read(path, fmt="md:myst")


def for_language(source, language, chapter):
    """The notebook of one language: its markdown, all code, graded check cells, stable ids."""
    cells = []
    for cell in source.cells:
        if cell.cell_type == "markdown":
            if cell.metadata.get("lang", language) != language:
                continue
            cells.append(nbformat.v4.new_markdown_cell(cell.source))
        else:
            cells.append(_code_cell(cell, language))
    for number, cell in enumerate(cells):
        cell.id = f"{chapter}-{language}-{number:03d}"
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    notebook.nbformat, notebook.nbformat_minor = 4, 5
    return notebook


def _code_cell(cell, language):
    text = cell.source.replace(SET_LANGUAGE, f'minigrad.set_language("{language}")')
    code = nbformat.v4.new_code_cell(text)
    check = CHECK.match(text.strip())
    if check:
        step = check["step"]
        code.metadata["nbgrader"] = {
            "grade": True, "grade_id": "step_" + step.replace(".", "_"), "locked": True,
            "points": cell.metadata.get("points", 1), "schema_version": 3, "solution": False, "task": False,
        }
    return code


def check_steps(notebook):
    """The step IDs a notebook checks, in order."""
    return [m["step"] for c in notebook.cells if c.cell_type == "code" for m in [CHECK.match(c.source.strip())] if m]


def text_of(notebook):
    """The notebook as the bytes it is written with (for writing and for staleness checks)."""
    return nbformat.writes(notebook) + "\n"
