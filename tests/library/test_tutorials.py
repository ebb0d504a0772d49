"""Tutorial code runs unchanged after ``import minigrad as torch`` and prints what PyTorch prints.

Each script in ``tutorials/`` is written for PyTorch. Its output under PyTorch is recorded
in ``tutorials/expected/`` (so the comparison runs without PyTorch); where PyTorch is
installed the recording itself is checked against it. Object addresses are the only part
that may differ.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PACKAGE_PARENT

HERE = Path(__file__).parent / "tutorials"
SCRIPTS = sorted(p for p in HERE.glob("*.py") if p.name != "run.py")
EXPECTED = HERE / "expected"


def printed_by(library):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_PARENT))
    result = subprocess.run([sys.executable, str(HERE / "run.py"), library, *map(str, SCRIPTS)],
                            capture_output=True, text=True, env=env, cwd=HERE, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def minigrad_output():
    return printed_by("minigrad")


@pytest.fixture(scope="module")
def torch_output():
    pytest.importorskip("torch")
    return printed_by("torch")


def expected(script):
    return (EXPECTED / f"{script.stem}.txt").read_text()


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_minigrad_prints_what_pytorch_prints(script, minigrad_output):
    assert minigrad_output[script.stem] == expected(script)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_recording_is_what_pytorch_prints_today(script, torch_output):
    assert torch_output[script.stem] == expected(script)


if __name__ == "__main__":  # record PyTorch's output: python tests/library/test_tutorials.py
    EXPECTED.mkdir(exist_ok=True)
    for name, text in printed_by("torch").items():
        (EXPECTED / f"{name}.txt").write_text(text)
