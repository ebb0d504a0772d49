"""The two editions of each notebook differ in their words only, and each speaks its own language.

Code cells are the same in both, but for their comments (the build writes them in the notebook's
language, from the message catalogue) and the cell that sets the language. What the notebooks show
when run is checked on the runs ``test_notebooks.py`` already makes; the checker of those runs
(``languages.py``) is checked here on texts written to fail it.
"""
import io
import re
import tokenize

import nbformat
import pytest

from support import languages
from conftest import ROOT
from tools import build

HAN = re.compile(r"[\u4e00-\u9fff]")
STEMS = [source.stem for source in build.chapter_sources()]


def code_cells(stem, language):
    notebook = nbformat.read(ROOT / "course" / language / f"{stem}.ipynb", as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def without_comments(code):
    """The code's tokens, comments left out: what runs."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]


def comments(code):
    return [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]


@pytest.mark.parametrize("stem", STEMS)
def test_both_editions_run_the_same_code_with_comments_in_their_language(stem):
    english, chinese = code_cells(stem, "en"), code_cells(stem, "zh")
    assert len(english) == len(chinese)
    for en, zh in zip(english, chinese):
        assert without_comments(en.replace('"en"', '"zh"')) == without_comments(zh)
        assert not any(HAN.search(c) for c in comments(en)), en
        for comment in comments(zh):
            assert HAN.search(comment) or comment.startswith("###"), comment  # nbgrader's markers stay


def test_the_checker_finds_english_and_lets_pytorch_and_names_through():
    allowed = {"z_no_grad", "losses"}
    assert languages.english_words("z under no_grad", allowed) == ["under"]
    assert languages.english_words("第 3 步（共 6 步）：SinBackward0", allowed) == []
    assert languages.english_words("step 3 of 6: grad: None", allowed) == ["step", "of", "grad"]
    assert languages.english_words("RuntimeError: a leaf Variable that requires grad is being used in an "
                                   "in-place operation.", allowed) == []
    assert languages.english_words("0.weight (8, 4) self: 2 dy/dx = 9.0 tensor([1.])", allowed) == []
    assert languages.english_words("标着“step 1.1”的那一行（`pass`），重启内核（kernel）", allowed) == []
    assert languages.english_words("标着 step 1.1 的那一行", allowed) == ["step"]
    assert languages.chinese("grad: None, 梯度：None") == ["梯度："]


def test_what_a_reader_sees_is_the_richest_output_and_a_widgets_words():
    svg = '<svg><text x="1">第 0 步</text><text>GraphRoot</text></svg>'
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        nbformat.v4.new_output("display_data", {"image/svg+xml": svg, "text/plain": "digraph { step }"}),
        nbformat.v4.new_output("error", ename="E", evalue="English", traceback=["\x1b[31m句子\x1b[0m"]),
    ])])
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        "1": {"state": {"description": "步骤", "value": 3}}}}}
    assert languages.seen(notebook) == [(0, "第 0 步\nGraphRoot"), (0, "句子"), (None, "步骤")]
