"""A learner mid-course carries their finished steps into the new layout with one command (``tools/migrate.py``).

The fixture ``data/solved_before_the_move.tar.gz`` is the learner edition of the course as it was before the files
moved (2026-11-28), with every step solved: the files that held a stub, each solution in place of its stub.
"""
import re
import shutil
import subprocess
import sys
import tarfile

import pytest

from conftest import ROOT
from tools import build, editions, migrate

SOLVED_BEFORE = ROOT / "tests" / "data" / "solved_before_the_move.tar.gz"
MARKER = re.compile(r"^\s*# (BEGIN|END) SOLUTION")


@pytest.fixture
def old(tmp_path):
    """A copy of a learner's package from before the move, every step written."""
    with tarfile.open(SOLVED_BEFORE) as archive:
        archive.extractall(tmp_path / "old", filter="data")
    return tmp_path / "old" / "minigrad"


@pytest.fixture
def new(tmp_path):
    """The learner edition as it is now: every step a stub."""
    shutil.copytree(ROOT / "minigrad", tmp_path / "new", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "new"


def solved(name):
    """The reference's file ``name``, as a learner who solved its every step has it."""
    text = (build.PACKAGE / name).read_text()
    return "\n".join(line for line in text.split("\n") if not MARKER.match(line))


def unstub(package, entries):
    """Put back, in ``package``, the stub of each of ``entries`` (of the layout before the move)."""
    for entry in entries:
        path = package / entry["file"]
        lines = path.read_text().split("\n")
        first, last = migrate.functions("\n".join(lines))[entry["function"]]
        lines[first - 1:last] = entry["text"].split("\n")
        path.write_text("\n".join(lines))


NEW_SINCE = {step for step in editions.steps_in(build.PACKAGE)} - {entry["step"] for entry in migrate.BEFORE}


def test_every_finished_step_is_carried_as_the_reference_has_it(old, new):
    """Every step there was before the move is carried; the steps added since (chapter 7's) keep their stubs."""
    outcomes = migrate.carry(old, new)
    assert set(outcomes) == set(editions.steps_in(build.PACKAGE)) and NEW_SINCE == {"7.1", "7.2", "7.3", "7.4"}
    assert {outcome for step, places in outcomes.items() for outcome, _ in places if step not in NEW_SINCE} == {
        "carried"}
    assert {outcome for step in NEW_SINCE for outcome, _ in outcomes[step]} == {"not started"}
    for name, steps in editions.steps_by_file(build.PACKAGE).items():
        if set(steps) <= NEW_SINCE:
            assert (new / name).read_text() == (ROOT / "minigrad" / name).read_text(), name
        else:
            assert (new / name).read_text() == solved(name), name


def test_a_learner_half_way_keeps_what_they_wrote_and_the_stubs_they_had_not(old, new):
    later = [entry for entry in migrate.BEFORE if not entry["step"].startswith(("1.", "C1"))]
    unstub(old, later)
    outcomes = migrate.carry(old, new)
    assert {step for step, places in outcomes.items() if places[0][0] == "carried"} == {
        step for step in editions.steps_in(build.PACKAGE) if step.startswith(("1.", "C1"))}
    assert {outcome for step, places in outcomes.items() if not step.startswith(("1.", "C1"))
            for outcome, _ in places} == {"not started"}
    assert (new / "rules" / "chapter1.py").read_text() == solved("rules/chapter1.py")
    assert "step 2.4: your code goes here" in (new / "rules" / "chapter2.py").read_text()


def test_a_function_changed_outside_its_exercise_is_named_to_copy_by_hand(old, new):
    path = old / "ops" / "arithmetic.py"
    path.write_text(path.read_text().replace("each kept only if the other input needs a gradient", "mine"))
    outcomes = migrate.carry(old, new)
    assert outcomes["1.4"] == [("by hand", "rules/chapter1.py: mul_backward")]
    assert "step 1.4: your code goes here" in (new / "rules" / "chapter1.py").read_text()


def test_the_command_says_what_it_carried_and_refuses_a_folder_that_is_not_a_package(old, new, tmp_path):
    done = subprocess.run([sys.executable, "-m", "tools.migrate", str(old.parent), "--into", str(new)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "2.3: carried / 已搬入" in done.stdout, done.stderr
    refused = subprocess.run([sys.executable, "-m", "tools.migrate", str(tmp_path), "--into", str(new)],
                             cwd=ROOT, capture_output=True, text=True)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"{tmp_path}: not a copy of minigrad/")
    again = subprocess.run([sys.executable, "-m", "tools.migrate", str(new), "--into", str(new)],
                           cwd=ROOT, capture_output=True, text=True)
    assert again.returncode != 0 and "already in the new layout" in again.stderr
