"""Which edition the tests import, and one pytest marker per exercise step.

By default the tests run against the reference edition (``solutions/minigrad``).
``MINIGRAD_EDITION=learner`` runs them against the learner edition (``minigrad/``),
where every step's checks must fail with the NotImplementedError of a stub.
"""
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITION = os.environ.get("MINIGRAD_EDITION", "reference")
PACKAGE_PARENT = ROOT / "solutions" if EDITION == "reference" else ROOT
sys.path.insert(0, str(PACKAGE_PARENT))
sys.path.insert(1, str(ROOT))  # the tools package
# Chapter 7 trains its models for 20 steps, not minutes, in every notebook and program the tests run (their
# first steps are those of the full run: bench/bench_capstone.py runs that).
os.environ.setdefault("MINIGRAD_CAPSTONE_STEPS", "20")

from minigrad import steps  # noqa: E402


def step_marker(step):
    return "step_" + step.replace(".", "_")


def pytest_configure(config):
    for step in steps.load_all():
        config.addinivalue_line("markers", f"{step_marker(step)}: the checks of exercise step {step}")


# Modules whose tests share one costly fixture (a whole class graded, a hub started, JupyterLab opened in
# Chromium, the corpus run in PyTorch): ``make test`` runs pytest-xdist with ``--dist loadgroup``, so each
# such group stays in one process, which builds the fixture once while the other processes run other tests,
# instead of each process building it again. test_grading grades each language apart: a group per language.
COSTLY = {"test_grading.py", "test_stalls.py", "test_hostile.py", "test_resume.py", "test_classroom.py",
          "test_class_on_hub.py", "test_nbgrader_panels.py", "test_course_in_browser.py", "test_corpus.py",
          "test_tutorials.py", "test_deadlines.py", "test_exports.py", "test_instructor_mistakes.py",
          "test_feedback_page.py", "test_class_report.py"}
# Modules that read the same graded class (tests/mistaken_class.py): one group, so one process grades it.
SAME_CLASS = {"test_class_report.py": "test_feedback_page.py"}


# The tests that read the chapters' executed reference notebooks (test_notebooks.py's ``executed``): in one
# process, each notebook runs once for all of them, not once in each process that meets one.
EXECUTED_ONCE = "test_notebooks.py::executed"


# Tests that start a fresh Python for each case (a mutant's checks, one step's edition, PyTorch run again on
# the recorded programs, the LMS command line): the whole suite runs them, ``make core`` leaves them out.
PER_CASE_PROCESS = ("test_mistakes", "test_editions.py::test_steps_solved_in_order",
                    "test_tutorials.py::test_the_recording_is_what_pytorch_prints_today",
                    "test_corpus.py::test_the_recording_is_what_pytorch_prints_today",
                    "test_lms.py::test_the_command_line_collects_and_refuses_in_the_course_language",
                    "test_suite.py")


@pytest.fixture(scope="session")
def torch():
    """PyTorch, to compare with: the test is skipped where it is not installed."""
    return pytest.importorskip("torch")


@pytest.hookimpl(tryfirst=True)  # before pytest's own hook deselects by marker
def pytest_collection_modifyitems(items):
    for item in items:
        module = item.path.name
        if any(f"{module}::{item.originalname}".startswith(prefix) for prefix in PER_CASE_PROCESS):
            item.add_marker(pytest.mark.processes)
        if module in COSTLY:
            language = getattr(getattr(item, "callspec", None), "params", {}).get("course", "")
            item.add_marker(pytest.mark.xdist_group(f"{SAME_CLASS.get(module, module)}{language}"))
        elif module == "test_notebooks.py" and "executed" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(EXECUTED_ONCE))


@pytest.fixture
def package_env(monkeypatch):
    """Subprocesses and notebook kernels import the same edition as the tests."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(PACKAGE_PARENT), os.environ.get("PYTHONPATH", "")]))
    return PACKAGE_PARENT


@pytest.fixture(params=["minigrad", "torch"])
def lib(request):
    """The library under test: each test taking ``lib`` runs on minigrad, and on PyTorch when installed."""
    import minigrad

    return minigrad if request.param == "minigrad" else pytest.importorskip("torch")


def error_of(run):
    """``(type name, message)`` of the exception ``run()`` raises: what PyTorch's words are compared on."""
    with pytest.raises(Exception) as caught:
        run()
    return type(caught.value).__name__, str(caught.value)
