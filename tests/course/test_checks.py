"""The checks' shape: they report plain data, the verdict compares it with the reference's.

A wrong solution fails with a sentence naming what differs; a package that recognises
the usual inputs fails on inputs drawn from other seeds; every message a learner can
read is in every catalogue, with the same placeholders.
"""
import inspect
import json
import re
import subprocess
import sys

import pytest

from conftest import EDITION, ROOT
from minigrad import steps
from minigrad.steps import ids
from minigrad.messages import say
from minigrad.steps.chapter1.checks import NOT_SUMMED
from minigrad.steps.judge import judge
from tools import build, catalogues, editions, update_catalogues

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="judges the reference edition's checks")
STEPS = sorted(steps.load_all(), key=ids.order)


@pytest.mark.parametrize("step", STEPS)
def test_other_seeds_draw_other_inputs(step):
    """Each step has a check whose inputs come from ``see.rng``: a graded run's hidden seeds change what it sees."""
    usual = steps.observe_step(step, 0)
    assert any(steps.observe_step(step, seed) != usual for seed in (11, 12, 13)), step


@pytest.mark.parametrize("seed", [0, 7])
def test_the_reference_agrees_with_itself_on_any_seed(seed):
    for step in STEPS:
        seen = steps.observe_step(step, seed)
        assert judge(step, seen, steps.observe_step(step, seed), "en")["status"] == "passed", step


def _edition_with(tmp_path, step, old, new):
    """The reference package with one line of ``step``'s solution changed: a learner's mistake."""
    editions.write_package(build.PACKAGE, tmp_path / "minigrad", keep=set(editions.steps_in(build.PACKAGE)))
    for path in (tmp_path / "minigrad").rglob("*.py"):
        text = path.read_text()
        if old in text:
            path.write_text(text.replace(old, new, 1))
            return tmp_path
    raise AssertionError(f"no line {old!r}")


def _verdict(package_parent, step, language="en"):
    done = subprocess.run([sys.executable, "-m", "minigrad.steps", step, "--lang", language], cwd=package_parent,
                          capture_output=True, text=True, env={"PYTHONPATH": str(package_parent), "PATH": ""},
                          timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_forgotten_sum_to_is_named_with_the_shapes(tmp_path):
    parent = _edition_with(tmp_path, "1.4", "grad_other = sum_to(grad * self_, self.other_shape) if need_other else None",
                           "grad_other = grad * self_ if need_other else None")
    verdict = _verdict(parent, "1.4")
    assert verdict["status"] == "failed"
    assert verdict["message"] == (f"✗ Step 1.4: {say(NOT_SUMMED, 'en')}\n"
                                  "d(a*b)/db must be summed back to b's shape (3,): shape (2, 3), expected (3,)"), verdict
    chinese = _verdict(parent, "1.4", "zh")
    assert chinese["message"] == (f"✗ 第 1.4 步：{say(NOT_SUMMED, 'zh')}\n"
                                  "d(a*b)/db 必须求和回 b 的形状 (3,)：形状为 (2, 3)，应为 (3,)"), chinese


def test_a_crash_in_the_learners_code_says_where(tmp_path):
    parent = _edition_with(tmp_path, "2.4", "grad_self = grad @ _transpose(mat2) if need_self else None",
                           "grad_self = grad @ _transpose(mat2) if need_self else nothing")
    verdict = _verdict(parent, "2.4")
    assert verdict["status"] == "failed" and "your code raised NameError" in verdict["message"], verdict
    assert "rules/chapter2.py" in verdict["message"], verdict


def test_observations_that_do_not_fit_the_checks_are_refused():
    reference = steps.expected_observations()["2.1"]
    forged = {name: [{"label": "passed", "value": True}, {"end": "done"}] for name in reference}
    assert judge("2.1", forged, reference, "en")["status"] == "failed"
    assert judge("2.1", "passed", reference, "en")["status"] == "failed"


@pytest.mark.parametrize("folder", list(catalogues.DOMAINS), ids=lambda folder: catalogues.DOMAINS[folder])
def test_every_message_is_translated_with_the_same_placeholders(folder):
    """The learner's catalogue and the instructor's (what the classroom commands print)."""
    code = {m.id for m in update_catalogues.extracted(folder) if m.id}
    assert code and catalogues.catalogues(folder)
    for path in catalogues.catalogues(folder):
        catalog = catalogues.merged(path)
        translated = {m.id: m.string for m in catalog if m.id}
        assert code <= set(translated), f"{path}: run python -m tools.update_catalogues; missing {sorted(code - set(translated))}"
        for msgid in code:
            assert translated[msgid], f"{path}: {msgid!r} is not translated"
            assert re.findall(r"{\w+}", msgid) == re.findall(r"{\w+}", translated[msgid]) or \
                sorted(re.findall(r"{\w+}", msgid)) == sorted(re.findall(r"{\w+}", translated[msgid])), msgid
        assert not [m.id for m in catalog if m.id and m.fuzzy], f"{path}: fuzzy translations"


def test_the_learner_edition_ships_the_compiled_catalogue():
    for po in catalogues.catalogues():
        mo = ROOT / "minigrad" / po.relative_to(build.PACKAGE).with_suffix(".mo")
        assert catalogues.messages_of(mo.read_bytes()) == catalogues.messages_of(catalogues.compiled(po)), mo


def test_an_unstarted_challenge_does_not_stop_the_notebook():
    """The learner edition: a challenge's check says it is optional and lets "Run all" go on; a step's stops it."""
    challenge = next(s for s in sorted(steps.load_all(), key=ids.order) if ids.is_challenge(s))
    script = f"import minigrad\nminigrad.check({challenge!r})\nprint('went on')\nminigrad.check('1.1')\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.stdout.splitlines() == [f"· Challenge {challenge} is optional and not started yet; nothing is graded "
                                        f"here. Take it when you want more: minigrad.hint(\"{challenge}\") gives a "
                                        "first idea.", "went on"], done.stdout
    assert "StepNotImplemented" in done.stderr


LOOPED_EN = """✗ Step 2.1: the checks were stopped after 2 s, and an honest one takes under a second: your code runs a \
loop that never ends.
The usual causes at this step:
- a node read from the top of the stack but never taken off it
- a node pushed again every time an edge reaches it, so a shared node is walked over and over"""
LOOPED_ZH = """✗ 第 2.1 步：检查运行 2 秒后被停止，而代码正确时不到一秒就能检查完：你的代码里有一个永远不会结束的循环。
这一步的常见原因：
- 从栈顶读取了节点，却从未把它从栈（stack）中取出
- 每当有一条边到达某个节点，就把它再压入栈一次，于是被共用的节点被一遍又一遍地遍历"""


@pytest.mark.parametrize("language, told", [("en", LOOPED_EN), ("zh", LOOPED_ZH)], ids=["en", "zh"])
def test_a_step_that_never_ends_is_stopped_and_named_as_a_loop(tmp_path, language, told):
    """Step 2.1 reading the stack's top without popping it: ``check`` stops it (after 2 s here, its own limit
    below) and names a loop that never ends, with that step's usual causes. The step may be given as a number."""
    editions.write_package(build.PACKAGE, tmp_path / "minigrad", keep=set(editions.steps_in(build.PACKAGE)))
    engine = tmp_path / "minigrad" / "autograd" / "engine.py"
    engine.write_text(engine.read_text().replace("        node = stack.pop()\n", "        node = stack[-1]\n", 1))
    script = ("import minigrad\ntry:\n    minigrad.check(2.1, timeout=2)\n"
              "except Exception as error:\n    print(type(error).__name__)\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "", "MINIGRAD_LANG": language})
    assert done.stdout == f"CheckFailed\n{told}\n", done.stdout + done.stderr


def test_a_steps_checks_are_stopped_within_seconds():
    """An honest step's checks take under a second from a fresh interpreter: ``check`` waits 15 s at most."""
    check_module = sys.modules["minigrad.check"]
    assert inspect.signature(check_module.check).parameters["timeout"].default == check_module.STEP_SECONDS <= 15
