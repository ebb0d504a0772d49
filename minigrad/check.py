"""``minigrad.check("1.2")``: run one exercise step's checks and say what happened.

The checks run in a fresh Python process that imports minigrad from the same folder
as this one. So they always see the files as they are on disk now (not the copy this
kernel imported before your last edit), and nothing a notebook changed in its own
process can change the verdict. The verdict is printed in the notebook's language.
"""
import json
import os
import subprocess
import sys

from .steps.answers import is_right

_language = os.environ.get("MINIGRAD_LANG", "en")


def set_language(language):
    """Choose the language of check messages: "en" or "zh"."""
    global _language
    if language not in ("en", "zh"):
        raise ValueError('language must be "en" or "zh"')
    _language = language


class StepNotImplemented(NotImplementedError):
    """A step (or a step it builds on) is still a stub."""


class CheckFailed(AssertionError):
    """A step runs but gives a wrong answer."""


def check(step, *, timeout=120):
    """Run the checks of ``step`` ("1.2") in a fresh interpreter; raise if they fail."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "minigrad.steps", step, "--lang", _language]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, cwd=package_root)
    except subprocess.TimeoutExpired:
        raise CheckFailed(_text(f"step {step}: the checks did not finish in {timeout} s (an endless loop?)",
                                f"第 {step} 步：检查在 {timeout} 秒内没有结束（是否有死循环？）")) from None
    verdict = _verdict(done)
    if verdict["status"] == "passed":
        print(verdict["message"])
        return None
    error = StepNotImplemented if verdict["status"] == "not_implemented" else CheckFailed
    raise error(verdict["message"]) from None


def check_answer(question, answer):
    """Check the answer to a practice question ("q3.1"); raise if it is missing or wrong."""
    if answer is None:
        raise StepNotImplemented(_text(f"question {question} is not answered yet: set the variable above and run "
                                       "both cells again.",
                                       f"题目 {question} 还没有作答：先给上面的变量赋值，再运行这两个单元格。")) from None
    if not is_right(question, answer):
        raise CheckFailed(_text(f"✗ {question}: {answer!r} is not the answer. Read the section again and retry.",
                                f"✗ {question}：{answer!r} 不是正确答案。请重读这一节后再试。")) from None
    print(_text(f"✓ {question}: right.", f"✓ {question}：回答正确。"))


def _verdict(done):
    """The runner's last output line is its verdict, as JSON."""
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
    return {"status": "failed", "message": _text("the checks crashed:\n", "检查程序崩溃了：\n") + "\n".join(tail)}


def _text(en, zh):
    return zh if _language == "zh" else en
