"""``make course`` as a learner runs it: in either language, on the port they choose, also as root.

The test runs the README's command itself (``make course COURSE_LANG=zh PORT=...``, with its
install step already done by the test run's own set-up) and opens what it serves in Chromium:
the course folder of that language, with JupyterLab's own menus in that language, and nothing a learner
working alone has no use for: none of nbgrader's panels (the instructor's Create Assignment, the Nbgrader menu
and its formgrader, a notebook's Validate button: tests/browser/test_nbgrader_panels.py has them on an
instructor's server), and no JupyterLab prompt asking to fetch Jupyter's news, nor one to upgrade JupyterLab.
"""
import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from conftest import ROOT

from .lab import free_port

pytestmark = pytest.mark.browser
FILE_MENU = {"en": "File", "zh": "文件"}  # "文件": the Chinese language pack's word
FIRST_NOTEBOOK = "01_graph.ipynb"
IDLE = re.compile(r"\| (Idle|空闲)$")  # the status bar once the notebook's kernel is up ("空闲" in Chinese)
NOTIFICATION = "@jupyterlab/apputils-extension:notification"  # the news prompt's and the update check's settings


@pytest.fixture
def make_course(tmp_path):
    """Start ``make course`` for a language; the server is shut down at the end of the test."""
    runs = []

    def start(language):
        port, token = free_port(), f"test-{language}"
        settings = tmp_path / "lab-user-settings"  # instead of the venv's, so that make writes them afresh
        config = tmp_path / "jupyter-course"
        log = open(tmp_path / f"make-course-{language}.log", "w")
        process = subprocess.Popen(
            ["make", "-o", "install-course", "course", f"COURSE_LANG={language}", f"PORT={port}",
             f"LAB_SETTINGS={settings}", f"COURSE_CONFIG={config}", "CI=1"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, HOME=str(tmp_path), JUPYTER_TOKEN=token))
        runs.append((process, log))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while not answers(url, token):
            assert process.poll() is None, (tmp_path / f"make-course-{language}.log").read_text()
            assert time.monotonic() < deadline, "make course did not serve JupyterLab within 90 s"
            time.sleep(0.2)
        return url, token, settings

    yield start
    for process, log in runs:
        os.killpg(process.pid, signal.SIGTERM)  # JupyterLab shuts down its kernels and exits
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def answers(url, token):
    try:
        urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5).read()
        return True
    except (urllib.error.URLError, OSError):
        return False


@pytest.mark.parametrize("language", ["en", "zh"])
def test_make_course_opens_the_course_in_its_language(language, make_course, page, screenshot):
    url, token, settings = make_course(language)
    page.goto(f"{url}/lab/tree/{FIRST_NOTEBOOK}?reset&token={token}")  # as the README says: start with it
    menus = page.locator(".lm-MenuBar-itemLabel")
    menus.first.wait_for()
    page.locator(".jp-DirListing-item", has_text=FIRST_NOTEBOOK).wait_for()  # the folder course/<language>
    # Once the kernel is idle, JupyterLab has long since activated every plugin (nbgrader's add their menu,
    # panel and button as they start) and asked about the news (right after it restored the layout).
    page.locator(".jp-StatusBar-Widget").get_by_text(IDLE).wait_for(timeout=180_000)
    page.screenshot(path=str(screenshot(f"make-course-{language}")))
    titles = [title.strip() for title in menus.all_text_contents()]
    assert FILE_MENU[language] in titles
    assert (settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings").exists()
    notebooks = sorted(path.name for path in (ROOT / "course" / language).glob("*.ipynb"))
    listed = [name.strip() for name in page.locator(".jp-DirListing-itemText").all_text_contents()]
    assert listed == notebooks

    # No instructor's or hub student's tools: nbgrader's menu, its Create Assignment panel, its Validate button.
    assert "Nbgrader" not in titles
    assert page.locator("#jp-mainmenu-nbgrader, #nbgrader-create_assignemnt").count() == 0
    assert page.locator(".lm-TabBar-tab", has_text="Create Assignment").count() == 0
    toolbar = page.locator(".jp-NotebookPanel-toolbar")
    assert toolbar.locator(".jp-Toolbar-item").count() > 0  # the notebook's own buttons are there
    assert toolbar.locator(".validate-button").count() == 0
    assert toolbar.get_by_text("Validate").count() == 0
    assert get(url, "/formgrader", token) == 404  # nbgrader's server extensions are off too
    # No "Would you like to get notified about official Jupyter news?" nor "A newer version of JupyterLab is
    # available": the settings that ask and check are off (the page reads them from this address), and no
    # notification has popped up.
    plugin = json.loads(get(url, f"/lab/api/settings/{NOTIFICATION}", token, body=True))
    values = {name: plugin["settings"].get(name, schema["default"])
              for name, schema in plugin["schema"]["properties"].items()}
    assert (values["fetchNews"], values["checkForUpdates"]) == ("false", False)
    assert page.locator(".Toastify__toast").all_text_contents() == []


def get(url, path, token, body=False):
    """The server's answer to a GET of ``path``: its status, or with ``body`` its text."""
    request = urllib.request.Request(url + path, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read().decode() if body else response.status
    except urllib.error.HTTPError as error:
        return error.code
