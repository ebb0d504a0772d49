"""nbgrader's panels in JupyterLab 4, on an instructor's course root made by ``tools.classroom``.

One server runs in the course root (where its ``nbgrader_config.py`` is), so its formgrader manages
that course. Chapter 2 is generated and released into a temporary exchange, so that the student's
Assignment List has something to show. Two students' copies of the released chapter sit in
``work/``: one who solved every step (the reference package), one who changed nothing (the stubs);
each is validated with the notebook's Validate button, which runs the notebook on the server.
"""
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from support.submissions import answer_cells, edit_notebook
from tools import classroom

from .lab import Notebook

pytestmark = pytest.mark.browser
ASSIGNMENT = "02_gradients"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
# What the Validate dialog says for each student's copy.
VERDICTS = {
    "solved": "Success! Your notebook passes all the tests.",  # nbgrader's words
    "stubs": "Step 2.1 is not implemented yet",  # the first failing check's guidance
}


def nbgrader(lab, *args):
    """Run an nbgrader command in the course root, with the server's configuration."""
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=lab.root_dir, env=lab.env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def course_lab(new_lab, tmp_path_factory):
    root = tmp_path_factory.mktemp("classroom")
    classroom.init(root, "en")
    lab = new_lab("nbgrader", root)  # no PYTHONPATH: a notebook imports the minigrad next to it
    exchange = lab.home / "exchange"  # instead of nbgrader's /srv/nbgrader/exchange
    (lab.config_dir / "nbgrader_config.py").write_text(f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n")
    nbgrader(lab, "generate_assignment", ASSIGNMENT)
    nbgrader(lab, "release_assignment", ASSIGNMENT)

    released = root / "release" / ASSIGNMENT
    shutil.copytree(released, root / "work" / "stubs" / ASSIGNMENT)
    solved = shutil.copytree(released, root / "work" / "solved" / ASSIGNMENT)
    shutil.copytree(ROOT / "solutions" / "minigrad", solved / "minigrad", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    key = answer_cells(root / "source" / ASSIGNMENT / NOTEBOOK)  # the practice answers, as the instructor wrote them

    def answer(notebook):
        for cell in notebook.cells:
            cell.source = key.get(cell.metadata.get("nbgrader", {}).get("grade_id"), cell.source)

    edit_notebook(solved, answer, ASSIGNMENT)
    return lab.start()


def open_nbgrader_panel(page, lab, command):
    """Open JupyterLab and choose a panel from its Nbgrader menu."""
    page.goto(lab.url())
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.locator(f'.lm-Menu-item[data-command="{command}"]').click()


def test_assignment_list_shows_the_released_chapter(page, course_lab, screenshot):
    open_nbgrader_panel(page, course_lab, "nbgrader:open-assignment-list")
    released = page.locator("#released_assignments_list")
    released.get_by_text(ASSIGNMENT).wait_for()
    page.screenshot(path=str(screenshot("nbgrader-assignment-list")))
    assert "minigrad" in released.text_content()  # the course id from the classroom's config


def test_formgrader_manages_the_course_root(page, course_lab, screenshot):
    open_nbgrader_panel(page, course_lab, "nbgrader:open-formgrader")
    formgrader = page.frame_locator('iframe[src$="/formgrader"]')
    row = formgrader.locator("tr", has_text=ASSIGNMENT)
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot("nbgrader-formgrader")))
    assert "released" in row.text_content().lower()


@pytest.mark.parametrize("student", VERDICTS)
def test_validate_button_reports_the_result(student, page, course_lab, screenshot):
    notebook = Notebook(page, course_lab, f"work/{student}/{ASSIGNMENT}/{NOTEBOOK}").open()
    page.locator(".jp-NotebookPanel-toolbar").get_by_role("button", name="Validate").click()
    dialog = page.locator(".jp-Dialog")
    dialog.get_by_text(VERDICTS[student]).first.wait_for(timeout=notebook.timeout)
    page.screenshot(path=str(screenshot(f"nbgrader-validate-{student}")))
    failed = dialog.get_by_text("The following cell failed:").count()
    challenge = notebook.code_cell_indices('minigrad.check("C')  # optional, never graded: it fails nothing
    graded = [i for i in notebook.code_cell_indices("minigrad.check(") if i not in challenge]
    graded += notebook.code_cell_indices("minigrad.check_answer(")
    assert failed == (len(graded) if student == "stubs" else 0)
