"""Autograd code gathered from public sources runs under minigrad and prints what PyTorch 2.13 prints.

Each program in ``corpus/`` is a small script written for PyTorch after an example from d2l
(English and Chinese), PyTorch's notes, docstrings, tutorials and ``test_autograd.py``, or
Karpathy's lectures; ``corpus/README.md`` names the source of each. PyTorch's output is recorded
in ``corpus/expected/`` so the comparison runs without PyTorch; where PyTorch is installed the
recording itself is checked against it. The programs run through ``tutorials/run.py``, the
runner of the tutorial programs.

``DIFFERS`` lists the programs whose output is not PyTorch's yet, each with the first thing that
stops it. Those are strict xfails: when a change makes one match, its test fails until the entry
is removed, so the list stays the plan of what is left.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EDITION, PACKAGE_PARENT

HERE = Path(__file__).parent / "corpus"
RUNNER = Path(__file__).parent / "tutorials" / "run.py"
PROGRAMS = sorted(HERE.glob("*.py"))
EXPECTED = HERE / "expected"

DIFFERS = {
    # names
    "d2l_parameters": "type(p) prints <class 'minigrad.nn.parameter.Parameter'>: PyTorch's path, in minigrad's "
                      "package (claiming torch's name would say the class is PyTorch's)",
    # float32 sums in another order
    "d2l_linreg_concise": "the batches are PyTorch's, but the first epoch's loss differs in the 7th digit: "
                          "float32 sums run in another order (PyTorch's cascade sum in mse_loss, MKL's sgemm "
                          "for the weight's gradient) than numpy's pairwise sum and OpenBLAS",
    # hooks
    "testautograd_saved_order": "float32 exp(1) is 2.7182819 (PyTorch: 2.7182817). PyTorch's float32 exp is MKL's "
                                "vmsExp (VML_HA; the same bits under ATEN_CPU_CAPABILITY=default and avx2, so not "
                                "ATen's Sleef code), closed source; numpy's float32 exp agrees with it on 61% of "
                                "inputs, float64 exp rounded to float32 on 99% (this program's too), at 2-2.5x "
                                "the cost of every float32 exp",
}


def printed_by(library):
    """What each corpus program prints under ``library``, by program name (one interpreter for all)."""
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_PARENT))
    result = subprocess.run([sys.executable, str(RUNNER), library, *map(str, PROGRAMS)],
                            capture_output=True, text=True, env=env, cwd=HERE, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def expected(program):
    return (EXPECTED / f"{program.stem}.txt").read_text()


def marked(program):
    """The program as a test parameter, a strict xfail when it is listed in DIFFERS."""
    if program.stem not in DIFFERS:
        return pytest.param(program, id=program.stem)
    return pytest.param(program, id=program.stem,
                        marks=pytest.mark.xfail(strict=True, reason=DIFFERS[program.stem]))


@pytest.fixture(scope="module")
def minigrad_output():
    return printed_by("minigrad")


@pytest.fixture(scope="module")
def torch_output():
    pytest.importorskip("torch")
    return printed_by("torch")


@pytest.mark.skipif(EDITION == "learner", reason="the programs need a working autograd")
@pytest.mark.parametrize("program", [marked(p) for p in PROGRAMS])
def test_minigrad_prints_what_pytorch_prints(program, minigrad_output):
    assert minigrad_output[program.stem] == expected(program)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_the_recording_is_what_pytorch_prints_today(program, torch_output):
    assert torch_output[program.stem] == expected(program)


def test_every_program_has_a_recording_and_a_source():
    readme = (HERE / "README.md").read_text()
    assert len(PROGRAMS) >= 60
    assert [p for p in PROGRAMS if not (EXPECTED / f"{p.stem}.txt").exists()] == []
    assert [p.name for p in PROGRAMS if f"`{p.name}`" not in readme] == []


def test_the_list_of_differences_names_only_programs_of_the_corpus():
    assert sorted(set(DIFFERS) - {p.stem for p in PROGRAMS}) == []


if __name__ == "__main__":  # record PyTorch's output: python tests/library/test_corpus.py
    EXPECTED.mkdir(exist_ok=True)
    for name, text in printed_by("torch").items():
        (EXPECTED / f"{name}.txt").write_text(text)
