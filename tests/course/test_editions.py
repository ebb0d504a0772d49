"""The generated files: up to date, free of solutions, and each step checkable on its own.

For every step, a package in which only the earlier steps are solved must fail that
step's checks with the stub's NotImplementedError naming it; solving the step too
must pass them, checked on their own. This also proves a step's checks never need a later step.
"""
import ast
import io
import json
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from babel.messages.mofile import read_mo, write_mo

from support import compiled_editions
from conftest import ROOT
from minigrad.steps import ids
from tools import build, catalogues, editions, sealing

STEPS = editions.steps_in(build.PACKAGE)
order = ids.order
CHECKED_STEPS = sorted(__import__("minigrad.steps", fromlist=["load_all"]).load_all(), key=order)


@pytest.fixture(scope="module")
def fresh_build(tmp_path_factory):
    """Every generated file, built afresh from ``solutions/``."""
    folder = tmp_path_factory.mktemp("build")
    build.build(folder)
    return folder


def test_generated_files_are_up_to_date(fresh_build):
    stale = build.stale_files(fresh=fresh_build)
    assert not stale, "run `make build` (python -m tools.build); stale: " + ", ".join(stale)


def test_staleness_is_a_change_of_meaning_not_of_bytes(fresh_build, tmp_path):
    """In a copy of a fresh build: another Babel's header, a reference value one float32 step away and a
    notebook written with other spacing are no change; a changed translation and a changed reference value are,
    and the check names both files."""
    copy = tmp_path / "built"
    shutil.copytree(fresh_build, copy)
    catalogue = copy / "solutions" / "minigrad" / "locale" / "zh" / "LC_MESSAGES" / "minigrad.mo"
    expected = copy / build.expected_file(1)
    notebook = copy / "course" / "zh" / "01_graph.ipynb"

    catalogue.write_bytes(another_babel(catalogue.read_bytes()))
    expected.write_text(json.dumps(with_first_value_of("1.7", json.loads(expected.read_text()), next_float32)))
    notebook.write_text(json.dumps(json.loads(notebook.read_text()), indent=4, sort_keys=True))
    assert build.stale_files(copy, fresh_build) == []

    catalogue.write_bytes(with_first_translation_changed(catalogue.read_bytes()))
    expected.write_text(json.dumps(with_first_value_of("1.7", json.loads(expected.read_text()), lambda v: v + 0.01)))
    assert build.stale_files(copy, fresh_build) == [str(catalogue.relative_to(copy)), str(build.expected_file(1))]


def another_babel(mo):
    """The same catalogue, its header naming another version of Babel (same length: the offsets hold)."""
    version = re.search(rb"Generated-By: Babel (\d[\d.]*)", mo)
    other = bytes(b if not chr(b).isdigit() else ord(str((int(chr(b)) + 1) % 10)) for b in version[1])
    changed = mo[:version.start(1)] + other + mo[version.end(1):]
    assert changed != mo and catalogues.messages_of(changed) == catalogues.messages_of(mo)
    return changed


def with_first_translation_changed(mo):
    catalog = read_mo(io.BytesIO(mo))
    message = next(m for m in catalog if m.id and m.string)
    message.string += "!"
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def with_first_value_of(step, observations, change):
    """``observations`` with ``change`` applied to the first number of a tensor that ``step``'s checks saw."""
    for seen in observations[step].values():
        for item in seen:
            value = item.get("value")
            if isinstance(value, dict) and value.get("tensor"):
                value["tensor"][0] = change(value["tensor"][0])
                return observations
    raise AssertionError(f"step {step} observed no tensor")


def next_float32(value):
    return float(np.nextafter(np.float32(value), np.float32(np.inf)))


def test_no_solution_marker_reaches_learners():
    for path in list((ROOT / "minigrad").rglob("*.py")) + list((ROOT / "course").rglob("*.ipynb")):
        text = path.read_text()
        assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text, path


def test_no_solution_text_reaches_learners():
    """Each region's distinctive lines (those found nowhere else in its file) are gone, and no chapter's
    mistakes (whose mutants hold the reference's lines), guarded expressions or last hints reach the learner
    edition, which has its last hints sealed instead."""
    chapters = len(build.chapter_sources())  # one folder of steps per chapter
    for name in editions.REFERENCE_ONLY:
        assert sorted((ROOT / "minigrad").rglob(name)) == [], name
        assert len(sorted(build.PACKAGE.rglob(name))) == chapters, name
    assert len(sorted((ROOT / "minigrad").rglob(build.LAST_HINTS))) == chapters
    for source in build.PACKAGE.rglob("*.py"):
        if source.name in editions.REFERENCE_ONLY:
            continue
        text = source.read_text()
        learner_file = ROOT / "minigrad" / source.relative_to(build.PACKAGE)
        if not learner_file.exists():  # a check module: sealed, whole, in its chapter's checks.dat
            sealed = sealing.unseal((learner_file.parent / sealing.CHECKS).read_text())
            assert sealed["modules"][source.stem] == text and "BEGIN SOLUTION" not in text, source
            continue
        learner = learner_file.read_text()
        outside = editions.render(text, keep=frozenset())
        for step, _, _, body, _ in editions.regions(text):
            for line in body:
                if len(line.strip()) > 12 and line not in outside:
                    assert line not in learner, f"step {step} leaks into minigrad/{source.name}: {line.strip()}"


def test_the_files_a_learner_edits_say_nothing_of_pytorchs_insides():
    """PyTorch's texts about its own C++ sources, DDP or optimizer file live in ``torch_texts.py``."""
    insides = re.compile(r"csrc|\.cpp\b|DistributedDataParallel|torch/optim")
    edited = {path for path in build.PACKAGE.rglob("*.py") if editions.regions(path.read_text())}
    assert len(edited) > 10
    assert [path.name for path in edited if insides.search(path.read_text())] == []


def test_stubs_keep_signatures_and_docstrings():
    stub = (ROOT / "minigrad" / "autograd" / "engine.py").read_text()
    assert "def compute_dependencies(root):" in stub
    assert "Count, for every node reachable from ``root``" in stub
    assert 'raise NotImplementedError("step 2.1: ' in stub


def test_every_step_has_checks_and_a_notebook_cell():
    from tools import notebooks

    in_notebooks = set()
    for source in build.chapter_sources():
        in_notebooks |= {s for s in notebooks.check_steps(notebooks.read_source(source)) if not s.startswith("q")}
    chapters_written = {ids.chapter_of(s) for s in in_notebooks}
    for step in STEPS:
        if ids.chapter_of(step) in chapters_written:
            assert step in CHECKED_STEPS, f"step {step} has no checks"
            assert step in in_notebooks, f"step {step} has no check cell in its chapter"


def test_render_rejects_unbalanced_markers():
    with pytest.raises(ValueError, match="never ends"):
        editions.render("# BEGIN SOLUTION 1.1\nx = 1\n")
    with pytest.raises(ValueError, match="without BEGIN"):
        editions.render("x = 1\n# END SOLUTION\n")


def run_checks(package_parent, *steps):
    """The verdicts of the checks of ``steps`` ("all": of every step) on the package in ``package_parent``, by
    step, in one process as ``python -m minigrad.steps`` runs them."""
    done = subprocess.run([sys.executable, "-m", "minigrad.steps", *steps], cwd=package_parent, capture_output=True,
                          text=True, env={"PYTHONPATH": str(package_parent), "PATH": ""}, timeout=300)
    verdicts = [json.loads(line) for line in done.stdout.strip().splitlines()]
    return {v["step"]: v for v in verdicts}


def test_the_learner_edition_fails_every_step_at_a_stub():
    """The committed learner edition: each step's checks stop at the stub of that step or an earlier one."""
    for step, verdict in run_checks(ROOT, "all").items():
        assert verdict["status"] == "not_implemented", verdict
        assert order(verdict["missing"]) <= order(step), verdict


@pytest.mark.parametrize("step", [*CHECKED_STEPS, "all"])
def test_steps_solved_in_order_pass_and_the_next_stops_at_its_own_stub(step, tmp_path):
    """A learner's package with the steps before ``step`` solved ("all": every step), the later ones stubs.

    ``python -m minigrad.steps`` checks, in that order: the last solved step, first in a fresh Python, so on
    its own, where it passes; then ``step``, "not implemented" naming itself; then every earlier step, which
    passes. One package per step thus shows each step passing on its own once solved, failing at its own
    stub before, and needing no later step.
    """
    solved_steps = {s for s in STEPS if step == "all" or order(s) < order(step)}
    compiled_editions.write_package(tmp_path / "minigrad", keep=solved_steps)
    solved = [s for s in CHECKED_STEPS if s in solved_steps]
    unsolved = [] if step == "all" else [step]
    verdicts = run_checks(tmp_path, *solved[-1:], *unsolved, *solved[:-1])
    for passing in solved:
        assert verdicts[passing]["status"] == "passed", verdicts[passing]
    for stopped in unsolved:
        assert verdicts[stopped]["status"] == "not_implemented" and verdicts[stopped]["missing"] == step, verdicts[stopped]


def test_a_quiet_region_becomes_a_stub_that_does_nothing():
    """Code every backward runs cannot raise before it is written: its stub is a commented ``pass``."""
    rendered = editions.render("def release(saved):\n    # BEGIN SOLUTION 4.4 quiet\n    saved.clear()\n"
                               "    # END SOLUTION\n")
    assert "saved.clear()" not in rendered and "raise" not in rendered
    assert ids.stub_marker("4.4") in rendered
    namespace = {}
    exec(rendered, namespace)
    saved = [1]
    assert namespace["release"](saved) is None and saved == [1]


def test_a_learners_checks_are_sealed_not_plain():
    """In the learner edition each chapter folder holds its checks and observations sealed, and nothing else but
    its package file, its first hints, its sealed last hints and its catalogue: no check's code is one glance
    away from a stub."""
    for folder in sorted((ROOT / "minigrad" / "steps").glob("chapter*")):
        names = {p.name for p in folder.iterdir() if p.name != "__pycache__"}
        assert names == {*editions.PLAIN, sealing.CHECKS, build.LAST_HINTS, "zh.po"}, folder
        sealed = sealing.unseal((folder / sealing.CHECKS).read_text())
        reference = build.PACKAGE / "steps" / folder.name
        assert sealed["expected"] == json.loads((reference / "expected.json").read_text())
        assert set(sealed["modules"]) == {p.stem for p in reference.glob("*.py")} - {
            "__init__", "hints", *(name.removesuffix(".py") for name in editions.REFERENCE_ONLY)}


def test_every_function_a_learner_edits_states_its_contract_in_both_languages():
    """The function around each stub has a docstring, with a Chinese paragraph as well as the English one."""
    missing = []
    for path in sorted((ROOT / "minigrad").rglob("*.py")):
        source = path.read_text()
        stubs = [n for n, line in enumerate(source.splitlines(), 1)
                 if ids.stubbed_step(line) and ("raise NotImplementedError" in line or "pass  #" in line)]
        functions = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)]
        for line in stubs:
            around = max((f for f in functions if f.lineno <= line <= f.end_lineno), key=lambda f: f.lineno)
            doc = ast.get_docstring(around) or ""
            if not (re.search(r"[\u4e00-\u9fff]", doc) and re.search(r"[A-Za-z]{4}", doc)):
                missing.append(f"{path.relative_to(ROOT)}: {around.name}")
    assert missing == []
