"""Run one step's checks: ``python -m minigrad.steps 1.2 --lang zh``; print a JSON verdict
(``all``: every step's, one line each).

Used by ``minigrad.check`` in a fresh process. A stub's NotImplementedError names
the step still to write, which may be an earlier one this step builds on.
"""
import argparse
import json
import re
import traceback

from . import load_all
from .expect import Mismatch

MESSAGES = {
    "passed": ("✓ Step {step} passed ({n} checks).", "✓ 第 {step} 步通过（{n} 项检查）。"),
    "not_implemented": (
        "Step {missing} is not implemented yet: find the line marked \"step {missing}\" in the minigrad package "
        "(a `raise NotImplementedError`, or a `pass` that does nothing), replace it with your code, save the "
        "file, then run this cell again.",
        "第 {missing} 步还没有实现：在 minigrad 包里找到标着“step {missing}”的那一行（`raise NotImplementedError`，"
        "或者什么也不做的 `pass`），换成你的代码，保存文件后重新运行这个单元格。",
    ),
    "needs": (" (step {step} builds on it)", "（第 {step} 步要用到它）"),
    "failed": ("✗ Step {step}, check `{check}`: {detail}", "✗ 第 {step} 步，检查 `{check}`：{detail}"),
    "crashed": ("✗ Step {step}, check `{check}` raised {error}", "✗ 第 {step} 步，检查 `{check}` 抛出了 {error}"),
    "unknown": ("There is no step {step}.", "没有第 {step} 步。"),
}


def say(key, language, **fields):
    en, zh = MESSAGES[key]
    return (zh if language == "zh" else en).format(**fields)


def run(step_id, language):
    """Run every check of ``step_id``; return ``{"status": ..., "message": ...}``."""
    checks = load_all().get(step_id)
    if not checks:
        return {"status": "failed", "message": say("unknown", language, step=step_id)}
    for check in checks:
        try:
            check()
        except NotImplementedError as error:
            found = re.search(r"step (\d+\.\d+)", str(error))
            missing = found.group(1) if found else step_id
            message = say("not_implemented", language, missing=missing)
            if missing != step_id:
                message += say("needs", language, step=step_id)
            return {"status": "not_implemented", "message": message, "missing": missing}
        except Mismatch as mismatch:
            detail = mismatch.zh if language == "zh" else mismatch.en
            return {"status": "failed", "message": say("failed", language, step=step_id, check=check.__name__,
                                                        detail=detail)}
        except Exception as error:  # a bug in the learner's code: show where it happened
            where = traceback.format_exception(error)[-3:]
            return {"status": "failed", "message": say("crashed", language, step=step_id, check=check.__name__,
                                                        error=f"{type(error).__name__}: {error}") + "\n" + "".join(where)}
    return {"status": "passed", "message": say("passed", language, step=step_id, n=len(checks))}


def order(step_id):
    """``"2.10"`` after ``"2.9"``: steps sort by their numbers."""
    return tuple(int(part) for part in step_id.split("."))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("step", help='a step ("1.2"), or "all" for every step in order (one JSON line each)')
    parser.add_argument("--lang", default="en", choices=["en", "zh"])
    arguments = parser.parse_args()
    steps = sorted(load_all(), key=order) if arguments.step == "all" else [arguments.step]
    for step_id in steps:
        print(json.dumps(dict(run(step_id, arguments.lang), step=step_id), ensure_ascii=False))


if __name__ == "__main__":
    main()
