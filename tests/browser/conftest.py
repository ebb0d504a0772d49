"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, and JupyterLab servers.

Playwright's own browser downloads are not used (``playwright install`` needs the network):
Playwright starts the system's ``chromium`` through ``executable_path``. The tests skip, saying
why, only when that browser or the Playwright package cannot be found; ``make test`` installs both.
Screenshots and server logs go to ``test-artifacts/browser/``.
"""
import os
import re
import shutil

import pytest

from conftest import ROOT

from .lab import JupyterLab

ARTIFACTS = ROOT / "test-artifacts" / "browser"
# Playwright gives every launch a fresh temporary profile (its own --user-data-dir).
CHROMIUM_FLAGS = [
    "--no-sandbox",  # containers run as root, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    return None


@pytest.fixture(scope="session")
def playwright():
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Playwright package is not installed "
                                   "(make test installs it: the `test` extra)")
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def chromium_path():
    path = find_chromium()
    if path is None:
        pytest.skip("no chromium on PATH: on Debian/Ubuntu `apt-get install chromium` (make test does when it may)")
    return path


@pytest.fixture(scope="session")
def launch(playwright, chromium_path):
    """Start a headless Chromium; ``env`` changes its environment (the fonts it sees, for one)."""
    browsers = []

    def start(env=None):
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                             args=CHROMIUM_FLAGS, env=env)
        browsers.append(browser)
        return browser

    yield start
    for browser in browsers:
        browser.close()


@pytest.fixture(scope="session")
def browser(launch):
    """One browser for all the tests of a process; each test gets its own context (see ``page``)."""
    return launch()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def screenshot_path(item, name):
    """Where test ``item`` saves its screenshot ``name``; the path goes into the test's report."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / (re.sub(r"[^\w.-]+", "-", name).strip("-") + ".png")
    item.add_report_section("call", "screenshot", str(path))
    return path


@pytest.fixture
def screenshot(request):
    """``screenshot("reference-en-checks")`` gives the path to save that screenshot to."""
    return lambda name: screenshot_path(request.node, name)


@pytest.fixture
def page(browser):
    """A fresh browser page, with no cookies or storage from other tests, at 1280×800."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(60_000)
    yield context.new_page()
    context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """When a test with a page fails, save what the page shows then, as ``failed-<test>.png``."""
    page = getattr(item, "funcargs", {}).get("page")
    if call.when == "call" and call.excinfo and not call.excinfo.errisinstance(pytest.skip.Exception) and page:
        try:
            page.screenshot(path=str(screenshot_path(item, "failed-" + item.name)))
        except Exception as error:  # a crashed browser: the failure itself says more
            item.add_report_section("call", "screenshot", f"none: {error}")
    return (yield)


@pytest.fixture(scope="module")
def new_lab(tmp_path_factory, artifacts):
    """Make JupyterLab servers for a module's tests (call ``.start()``); all stop when the module ends."""
    labs = []
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")

    def make(name, root_dir, pythonpath=None):
        lab = JupyterLab(root_dir, home=tmp_path_factory.mktemp(f"jupyter-{name}"), pythonpath=pythonpath,
                         log_path=artifacts / f"jupyter-{name}-{worker}.log")
        labs.append(lab)
        return lab

    yield make
    for lab in labs:
        lab.stop()
