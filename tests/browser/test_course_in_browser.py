"""Chapter 2 in a real browser: opened in JupyterLab, run with Run All, and looked at, in both languages.

The screenshots (``test-artifacts/browser/``) include, in Chinese, the backward animation
(``reference-zh-drawing``) and a failed check (``learner-zh-first-check``).

Each edition gets one JupyterLab server on a temporary copy of ``course/``. Its kernels import
minigrad from the reference edition (``solutions/``) or from the learner edition (the repository
root), through ``PYTHONPATH``. The nbclient tests (``test_notebooks.py``) already prove that the
notebooks compute the right things; these prove that a learner *sees* them: the check messages in
the notebook's language, the drawings as pictures, the Chinese as characters rather than boxes.
"""
import os
import re
import shutil

import pytest

from conftest import ROOT
from minigrad.steps import ids
from tools import build, notebooks

from .lab import Notebook, cjk_fonts, glyph_report

pytestmark = pytest.mark.browser
CHAPTER = "02_gradients.ipynb"
LANGUAGES = ["en", "zh"]
PASSED = {"en": "passed", "zh": "通过"}
NOT_YET = {"en": "is not implemented yet", "zh": "还没有实现"}
STUB_ERRORS = {"NotImplementedError", "StepNotImplemented"}
LAB_LOCALES = {"en": "en", "zh": "zh_CN"}
LAB_RUN_MENU = {"en": "Run", "zh": "运行"}
CHECK = "minigrad.check("
# A cell that draws calls into minigrad.viz (to_dot only returns the DOT text).
DRAWS = re.compile(r"\bviz\.(?!to_dot\b)\w+\(")


def copy_of_course(tmp_path_factory, answered=False):
    """The notebooks are run in a copy: JupyterLab may write to them, course/ must stay as built.

    ``answered``: the practice questions answered, as a learner who finished the chapter has them.
    """
    copy = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "course", copy, dirs_exist_ok=True)
    if answered:
        for source in build.chapter_sources():
            for language in LANGUAGES:
                key = notebooks.for_language(notebooks.read_source(source), language, source.stem, solutions=True)
                (copy / language / f"{source.stem}.ipynb").write_text(notebooks.text_of(key))
    return copy


@pytest.fixture(scope="module")
def reference_lab(new_lab, tmp_path_factory):
    course = copy_of_course(tmp_path_factory, answered=True)
    return new_lab("reference", course, pythonpath=ROOT / "solutions").start()


@pytest.fixture(scope="module")
def learner_lab(new_lab, tmp_path_factory):
    return new_lab("learner", copy_of_course(tmp_path_factory), pythonpath=ROOT).start()


def drawing_cells(notebook):
    return [i for i in notebook.code_cell_indices() if DRAWS.search(notebook.source.cells[i].source)]


def in_lab_language(lab, language):
    """JupyterLab's own menus in the notebook's language, as ``make course COURSE_LANG=zh`` sets them."""
    lab.write_setting("@jupyterlab/translation-extension", "plugin", {"locale": LAB_LOCALES[language]})


@pytest.mark.parametrize("language", LANGUAGES)
def test_reference_edition_runs_and_shows_its_results(language, page, reference_lab, screenshot):
    in_lab_language(reference_lab, language)
    notebook = Notebook(page, reference_lab, f"{language}/{CHAPTER}").open()
    assert page.get_by_role("menuitem", name=LAB_RUN_MENU[language], exact=True).is_visible()
    checks = notebook.code_cell_indices(CHECK)
    notebook.run_all()
    notebook.screenshot(screenshot(f"reference-{language}-checks"), center_on=checks[0])

    assert notebook.not_run_yet() == [], "Run All stopped before the end"
    assert notebook.errors() == []
    for index in checks:
        shown = notebook.output_text(index)
        assert shown.startswith("✓") and PASSED[language] in shown, f"cell {index} shows: {shown!r}"

    # Active as soon as the chapter has a drawing cell (minigrad.viz); until then there is none to see.
    drawings = drawing_cells(notebook)
    for index in drawings:
        sizes = notebook.drawings(index)
        assert sizes and all(w > 0 and h > 0 for w, h in sizes), \
            f"cell {index} shows no SVG picture: {notebook.output_text(index)[:300]!r}"
    if drawings:
        notebook.screenshot(screenshot(f"reference-{language}-drawing"), center_on=drawings[0])

    if language == "zh":
        heading = page.locator(".jp-NotebookPanel .jp-MarkdownOutput h1").first
        heading.screenshot(path=str(screenshot("reference-zh-heading")))
        assert_chinese_is_drawn(page, heading)
        [animation] = [i for i in drawings if "backward_steps" in notebook.source.cells[i].source]
        assert_animation_speaks_chinese(notebook, page, animation)


def assert_animation_speaks_chinese(notebook, page, index):
    """Chapter 2's backward animation: its slider and each frame's title in Chinese, drawn as glyphs."""
    shown = notebook.output_text(index)
    assert "步骤" in shown and "第 0 步（共 6 步）" in shown and "step" not in shown, shown[:300]
    title = notebook.cell(index).locator("svg text").filter(has_text="第 0 步").first
    assert_chinese_is_drawn(page, title)


def assert_chinese_is_drawn(page, element):
    """Each Chinese character of ``element`` has its own glyph, none the missing-glyph box."""
    assert cjk_fonts(), "fontconfig knows no font for Chinese: install fonts-wqy-microhei (make test does)"
    report = glyph_report(page, element)
    glyphs = report["glyphs"]
    assert glyphs, "the element holds no Chinese characters"
    boxes = [ch for ch, bitmap in glyphs.items() if bitmap == report["missing"]]
    assert not boxes, f"drawn as missing-glyph boxes in {report['font']}: {''.join(boxes)}"
    assert len(set(glyphs.values())) == len(glyphs), f"different characters share one glyph in {report['font']}"


def test_the_glyph_check_fails_without_a_chinese_font(launch, tmp_path):
    """The Chinese check must be able to fail: in a Chromium that cannot see the CJK fonts
    (fontconfig told to reject them), every character is drawn as the same box."""
    rejected = "".join(f"<glob>{path}</glob>" for path in cjk_fonts())
    config = tmp_path / "fonts.conf"
    config.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>
<selectfont><rejectfont>{rejected}</rejectfont></selectfont></fontconfig>""")
    browser = launch(env={**os.environ, "FONTCONFIG_FILE": str(config)})
    try:
        page = browser.new_page()
        page.set_content("<h1>第 2 章 · 计算梯度</h1>")
        report = glyph_report(page, page.locator("h1"))
    finally:
        browser.close()
    assert len(report["glyphs"]) == 6
    assert all(bitmap == report["missing"] for bitmap in report["glyphs"].values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_learner_edition_stops_only_at_stubs(language, page, learner_lab, screenshot):
    in_lab_language(learner_lab, language)
    notebook = Notebook(page, learner_lab, f"{language}/{CHAPTER}").open()
    checks = notebook.code_cell_indices(CHECK)
    notebook.run_all()
    guidance = notebook.output_text(checks[0])
    notebook.screenshot(screenshot(f"learner-{language}-first-check"), center_on=checks[0])

    other = "zh" if language == "en" else "en"
    assert NOT_YET[language] in guidance and NOT_YET[other] not in guidance, guidance
    assert "Traceback" not in guidance and "check.py" not in guidance, "a failed check is its message alone"
    if language == "zh":
        assert_chinese_is_drawn(page, notebook.cell(checks[0]).locator(".jp-OutputArea-output").first)
    assert notebook.errors()[0][0] == checks[0], "Run All should stop first at the first check"

    # Go on past each stub, as a learner reading on would: run the next cell and all below.
    while pending := notebook.not_run_yet():
        notebook.run_from(pending[0])  # waits until that cell has run, so every round makes progress

    for index, name, message in notebook.errors():
        assert name in STUB_ERRORS, f"cell {index}: {name}: {message}"
        named = re.search(rf"(step|第|question|题目) ({ids.QUESTION}|{ids.STEP})", message, re.IGNORECASE)
        assert named, f"cell {index}: {message}"
