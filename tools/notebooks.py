"""Chapter notebooks: one bilingual source file in, one notebook per language out.

A chapter's source (``solutions/NN_topic/NN_topic.md``) is a MyST markdown notebook
that jupytext reads. Markdown cells carry ``{"lang": "en"}`` or ``{"lang": "zh"}``
(untagged ones go to both); code cells are shared, so the two languages run the
same code in the same order. Only their comments differ: they are written in English
and translated through the message catalogue, like every message of the package
(``python -m tools.update_catalogues`` gathers them). A code cell that is only ``minigrad.check("X.Y")``
becomes the graded cell of step X.Y for nbgrader (``grade_id`` ``step_X_Y``); the check cell of a chapter's
optional challenge (``minigrad.check("C2")``) stays an ordinary cell, never graded.

Practice questions: an answer cell holds ``answer_qN_M = None`` followed by the right
answer between ``### BEGIN SOLUTION`` and ``### END SOLUTION``; the learner's notebook
keeps only the first line, and ``minigrad.check_answer("qN.M", answer_qN_M)`` is its
graded cell (``grade_id`` ``qN_M``). nbgrader's source notebook keeps the answer between
its markers, so that ``nbgrader generate_assignment`` leaves it out of the release.
"""
import io
import re
import tokenize

import jupytext
import nbformat

from . import catalogues, editions

LANGUAGES = ("en", "zh")
CHECK = re.compile(rf'^minigrad\.check(?:_answer)?\("(?P<step>{editions.ids.QUESTION}|{editions.ids.STEP})"'
                   r'(?:, answer_q\d+_\d+)?\)\s*$')
SOLUTION = re.compile(r"^### BEGIN SOLUTION\n.*?^### END SOLUTION\n?", re.MULTILINE | re.DOTALL)
SET_LANGUAGE = 'minigrad.set_language("en")'
KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def read_source(path):
    return jupytext.read(path, fmt="md:myst")


def for_language(source, language, chapter, solutions=False):
    """The notebook of one language: its markdown, all code, graded check cells, stable ids.

    With ``solutions=True`` the answers to practice questions stay in (markers removed):
    the reference notebook the tests run. With ``solutions="marked"`` they stay between
    their markers: the instructor's source notebook of an nbgrader assignment.
    """
    cells = []
    for cell in source.cells:
        if cell.cell_type == "markdown":
            if cell.metadata.get("lang", language) != language:
                continue
            cells.append(nbformat.v4.new_markdown_cell(cell.source))
        else:
            cells.append(_code_cell(cell, language, solutions))
    for number, cell in enumerate(cells):
        cell.id = f"{chapter}-{language}-{number:03d}"
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    notebook.nbformat, notebook.nbformat_minor = 4, 5
    return notebook


def _code_cell(cell, language, solutions):
    text = cell.source.replace(SET_LANGUAGE, f'minigrad.set_language("{language}")')
    text = translate_comments(text, catalogues.translations(language))
    answer = SOLUTION.search(text)
    if answer and solutions != "marked":
        kept = answer.group(0).split("\n", 1)[1].rsplit("### END SOLUTION", 1)[0]
        text = SOLUTION.sub(kept if solutions else "", text).rstrip("\n")
    code = nbformat.v4.new_code_cell(text)
    check = CHECK.match(text.strip())
    if check and not editions.ids.is_challenge(check["step"]):
        code.metadata["nbgrader"] = _nbgrader(True, grade_id(check["step"]), cell.metadata.get("points", 1))
    elif answer:
        name = re.match(r"\s*(\w+)", text).group(1)
        code.metadata["nbgrader"] = _nbgrader(False, name, None)
    return code


def comments(code):
    """``(line number, column, text)`` of each comment in a code cell, its text without ``#``.

    nbgrader's markers (``### BEGIN SOLUTION``) are not prose and are left out.
    """
    found = []
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT and not token.string.startswith("###"):
            found.append((token.start[0], token.start[1], token.string[1:].strip()))
    return found


def translate_comments(code, translations):
    """``code`` with each comment replaced by its translation (kept as it is where there is none)."""
    lines = code.splitlines(keepends=True)
    for number, column, text in comments(code):
        line = lines[number - 1]
        ending = line[len(line.rstrip("\n")):]
        lines[number - 1] = f"{line[:column]}# {translations.get(text) or text}{ending}"
    return "".join(lines)


def grade_id(step):
    """``2.3`` -> ``step_2_3``; a practice question ``q3.1`` -> ``q3_1``."""
    return step.replace(".", "_") if step.startswith("q") else "step_" + step.replace(".", "_")


def _nbgrader(graded, grade_id, points):
    """nbgrader's cell metadata: a locked graded check, or an answer cell the learner edits."""
    cell = {"grade": graded, "grade_id": grade_id, "locked": graded, "schema_version": 3, "solution": not graded,
            "task": False}
    if graded:
        cell["points"] = points
    return cell


def check_steps(notebook):
    """The step IDs a notebook checks, in order."""
    return [m["step"] for c in notebook.cells if c.cell_type == "code" for m in [CHECK.match(c.source.strip())] if m]


def text_of(notebook):
    """The notebook as the bytes it is written with (for writing and for staleness checks)."""
    return nbformat.writes(notebook) + "\n"
