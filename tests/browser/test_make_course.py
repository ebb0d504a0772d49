"""``make course`` as a learner runs it: in either language, on the port they choose, also as root.

The test runs the README's command itself (``make course COURSE_LANG=zh PORT=...``, with its
install step already done by the test run's own set-up) and opens what it serves in Chromium:
the course folder of that language, with JupyterLab's own menus in that language.
"""
import os
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


@pytest.fixture
def make_course(tmp_path):
    """Start ``make course`` for a language; the server is shut down at the end of the test."""
    runs = []

    def start(language):
        port, token = free_port(), f"test-{language}"
        settings = tmp_path / "lab-user-settings"  # instead of the venv's, so that make writes it afresh
        log = open(tmp_path / f"make-course-{language}.log", "w")
        process = subprocess.Popen(
            ["make", "-o", "install-course", "course", f"COURSE_LANG={language}", f"PORT={port}",
             f"LAB_SETTINGS={settings}", "CI=1"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, HOME=str(tmp_path), JUPYTER_TOKEN=token))
        runs.append((process, log))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while not answers(url, token):
            assert process.poll() is None, (tmp_path / f"make-course-{language}.log").read_text()
            assert time.monotonic() < deadline, "make course did not serve JupyterLab within 90 s"
            time.sleep(0.2)
        return f"{url}/lab?reset&token={token}", settings

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
    url, settings = make_course(language)
    page.goto(url)
    menus = page.locator(".lm-MenuBar-itemLabel")
    menus.first.wait_for()
    page.locator(".jp-DirListing-item", has_text=FIRST_NOTEBOOK).wait_for()  # the folder course/<language>
    page.screenshot(path=str(screenshot(f"make-course-{language}")))
    assert FILE_MENU[language] in [title.strip() for title in menus.all_text_contents()]
    assert (settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings").exists()
    notebooks = sorted(path.name for path in (ROOT / "course" / language).glob("*.ipynb"))
    listed = [name.strip() for name in page.locator(".jp-DirListing-itemText").all_text_contents()]
    assert listed == notebooks
