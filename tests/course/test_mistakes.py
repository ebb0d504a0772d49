"""The usual mistakes, each made on purpose in a copy of the reference, are named at their step.

Each chapter keeps its mistakes beside its checks (``minigrad/steps/chapterN/mistakes.py``): a mutant is the
reference package with a few lines changed the way a learner gets them wrong. Its step's checks run in a
process of their own that imports the copy afresh, as ``minigrad.check`` runs them; the verdict must fail at that step with the
sentence that names the mistake (and says what to reread), in both languages, never with a traceback from
numpy or from the engine.
"""
import atexit
import functools
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from support import compiled_editions
from conftest import EDITION
from minigrad.messages import say
from minigrad.steps import ids
from tools import build, editions

if EDITION == "learner":  # the mistakes are kept out of the learner edition
    pytest.skip("mutates the reference edition", allow_module_level=True)

CHAPTERS = {n: importlib.import_module(f"minigrad.steps.chapter{n}.mistakes") for n in range(1, 8)}
MUTANTS = {name: mutant for chapter in CHAPTERS.values() for name, mutant in chapter.MUTANTS.items()}

# A Python that has imported numpy, and nothing of the course, forks a child for each mutant: the child puts
# the mutant's folder first on its path, imports that package afresh and judges its step, as ``minigrad.check``
# does in its own process. Each mutant thus costs its own package's import, not an interpreter's start and
# numpy's; the child's verdicts (or its traceback) come back through a pipe, one JSON line per request.
JUDGE_IN_A_CHILD = r"""
import json, os, signal, sys, traceback
import numpy

def judge_both(parent, step):
    os.chdir(parent)
    sys.path.insert(0, parent)
    from minigrad import steps
    from minigrad.steps.judge import judge
    seen = steps.observe_step(step, 0)
    expected = steps.expected_observations()[step]
    return {language: judge(step, seen, expected, language) for language in ("en", "zh")}

for request in sys.stdin:
    parent, step = json.loads(request)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reading)
        signal.alarm(300)
        with open(os.path.join(parent, "output.txt"), "w") as output:  # what the checks print, kept apart
            os.dup2(output.fileno(), 1)
            os.dup2(output.fileno(), 2)
        try:
            answer = judge_both(parent, step)
        except BaseException:
            answer = {"traceback": traceback.format_exc()}
        os.write(writing, json.dumps(answer).encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading) as pipe:
        answer = pipe.read()
    os.waitpid(child, 0)
    print(answer or json.dumps({"traceback": "the child died without a verdict"}), flush=True)
"""


@functools.lru_cache(maxsize=None)
def judge():
    """The Python that judges mutants (``JUDGE_IN_A_CHILD``), one per test process."""
    # One BLAS thread: a child forked from a process whose BLAS had started threads could wait on them forever.
    process = subprocess.Popen([sys.executable, "-c", JUDGE_IN_A_CHILD], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env={"PATH": "", "OPENBLAS_NUM_THREADS": "1"})
    atexit.register(lambda: (process.stdin.close(), process.wait()))
    return process


@functools.lru_cache(maxsize=None)
def reference():
    """The whole reference edition, with its bytecode, written once per test process."""
    folder = Path(tempfile.mkdtemp(prefix="minigrad-mutants-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return compiled_editions.write_package(folder / "minigrad", keep=set(editions.steps_in(build.PACKAGE)))


def mutant(tmp_path, changes):
    """The reference package in ``tmp_path`` with each ``(file, old, new)`` of ``changes`` made once.

    The copy's files are hard links to ``reference()``'s, made in a moment; a file the mutant changes is
    unlinked first and written anew, so the reference stays whole. Its bytecode is checked by the source's
    hash, so the changed file is compiled again."""
    package = tmp_path / "minigrad"
    shutil.copytree(reference(), package, copy_function=os.link)
    for name, old, new in changes:
        path = package / name
        text = path.read_text()
        assert old in text, f"no text {old!r} in {name}"
        path.unlink()
        path.write_text(text.replace(old, new, 1))
    return tmp_path


def verdicts(package_parent, step):
    """The verdict on ``step`` of the package in ``package_parent``, in English and in Chinese."""
    process = judge()
    process.stdin.write(json.dumps([str(package_parent), step]) + "\n")
    process.stdin.flush()
    said = json.loads(process.stdout.readline())
    assert "traceback" not in said, said["traceback"]
    return said


def assert_named_at_its_step(tmp_path, step, changes, message):
    """The mutant made by ``changes`` fails ``step`` with ``message``, in both languages, and no traceback."""
    said = verdicts(mutant(tmp_path, changes), step)
    assert said["en"]["status"] == "failed", said["en"]
    assert said["en"]["message"].startswith(f"✗ Step {step}: {say(message, 'en')}"), said["en"]["message"]
    assert said["zh"]["message"].startswith(f"✗ 第 {step} 步：{say(message, 'zh')}"), said["zh"]["message"]
    assert "Traceback" not in said["en"]["message"]


@pytest.mark.parametrize("name", MUTANTS)
def test_the_mistake_is_named_at_its_step(tmp_path, name):
    assert_named_at_its_step(tmp_path, *MUTANTS[name])


def test_no_two_chapters_name_a_mistake_alike():
    assert len(MUTANTS) == sum(len(chapter.MUTANTS) for chapter in CHAPTERS.values())


def test_every_mutant_is_kept_in_its_steps_chapter():
    for number, chapter in CHAPTERS.items():
        assert {ids.chapter_of(step) for step, _, _ in chapter.MUTANTS.values()} == {number}


def test_untouched_stubs_of_4_4_are_not_implemented(tmp_path):
    chapter4 = CHAPTERS[4]
    stub = f"        {chapter4.QUIET_STUB}\n"
    parent = mutant(tmp_path, [(chapter4.SAVED, chapter4.RELEASE_ALL, f"    {chapter4.QUIET_STUB}\n"),
                               (chapter4.SAVED, "        self._tensor = self._array = None\n", stub)])
    assert verdicts(parent, "4.4")["en"]["status"] == "not_implemented"


def test_a_mistake_of_the_engine_is_not_blamed_on_4_2(tmp_path):
    parent = mutant(tmp_path, MUTANTS["gradients overwritten in the buffers"][1])
    assert verdicts(parent, "4.2")["en"]["status"] == "passed"


def test_a_mistake_of_a_rule_is_not_blamed_on_the_engine(tmp_path):
    """Step 2.3 runs no sum, mean, relu, sigmoid or loss: a wrong rule leaves it passing."""
    parent = mutant(tmp_path, MUTANTS["sum's gradient not expanded"][1] + MUTANTS["relu times its result"][1])
    assert verdicts(parent, "2.3")["en"]["status"] == "passed"


def test_set_grad_enabled_refusing_with_the_wrong_error_is_not_a_crash(tmp_path):
    """A RuntimeError where PyTorch raises a TypeError fails the step, naming the error, with no traceback."""
    raising = ("        if not isinstance(mode, bool):\n            raise TypeError(",
               "        if not isinstance(mode, bool):\n            raise ValueError(")
    said = verdicts(mutant(tmp_path, [(CHAPTERS[3].MODE, *raising)]), "3.5")
    assert said["en"]["status"] == "failed" and "Traceback" not in said["en"]["message"], said["en"]


@pytest.mark.parametrize("step", ["6.4", "6.6"])
def test_untouched_quiet_stubs_are_not_implemented(tmp_path, step):
    """Step 6.6 is written only in quiet regions, and 6.4's packing at save time is one: with every region of
    the step untouched, the step is not written yet (rather than failed)."""
    compiled_editions.write_package(tmp_path / "minigrad", keep=set(editions.steps_in(build.PACKAGE)) - {step})
    assert verdicts(tmp_path, step)["en"]["status"] == "not_implemented"
