"""The suite's own machinery: the tests of one costly fixture run in one test process.

``make test`` relies on pytest-xdist's ``--dist loadgroup`` and the groups that ``conftest.py`` gives
the COSTLY modules. When grouping silently stops working (pytest 9.2 with pytest-xdist 3.8 did), the
first tests of a costly module start in every process at once, and all but one wait for the one that
builds the fixture: the suite still passes, only minutes slower. This test fails instead.
"""
import subprocess
import sys

from conftest import ROOT

# Imports this suite's conftest under another name (a conftest of its own would shadow "conftest").
CONFTEST = f"""
import importlib.util
spec = importlib.util.spec_from_file_location("suite_conftest", {str(ROOT / "tests" / "conftest.py")!r})
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)
pytest_collection_modifyitems = suite.pytest_collection_modifyitems
"""

# Each test notes which xdist process ran it.
COSTLY_MODULE = """
import os
import pytest

@pytest.mark.parametrize("case", range(6))
def test_case(case, tmp_path_factory):
    folder = tmp_path_factory.getbasetemp().parent / "ran"
    folder.mkdir(exist_ok=True)
    (folder / str(case)).write_text(os.environ["PYTEST_XDIST_WORKER"])
"""


def test_a_costly_modules_tests_run_in_one_process(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_stalls.py").write_text(COSTLY_MODULE)
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "3", "--dist", "loadgroup", "-p", "no:cacheprovider",
                           "-q", f"--basetemp={tmp_path / 'runs' / 'base'}", "test_stalls.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    workers = {path.name: path.read_text() for path in (tmp_path / "runs" / "base" / "ran").iterdir()}
    assert len(workers) == 6 and len(set(workers.values())) == 1, workers
