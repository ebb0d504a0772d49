"""Everything the course says about each step, in both languages, as one JSON file: the proof that moving a
step's pieces around changed none of it.

    .venv/bin/python tests/support/step_dump.py tests/data/step_dump.json

For each step: the names of its checks; the verdict of the reference edition and of the learner edition
(the step's stub), in English and Chinese; every label and named mistake its checks report, in both
languages; its hints, in both languages; and each named mistake its chapter's ``mistakes.py`` proves, with
its sentence in both languages. Rewrite the file before and after a move: its diff must be empty.
"""
import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "solutions"), str(ROOT)]

from minigrad import hints, steps  # noqa: E402
from minigrad.messages import say  # noqa: E402
from minigrad.steps.ids import order  # noqa: E402
from minigrad.steps.judge import judge  # noqa: E402

LANGUAGES = ("en", "zh")


def both(text):
    return {language: say(text, language) for language in LANGUAGES}


def learner_observations():
    """What the checks of every step see on the learner edition (``minigrad/``), in a Python of its own."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "seen.json"
        subprocess.run([sys.executable, "-m", "minigrad.steps", "observe", "all", "--out", str(out)], cwd=ROOT,
                       env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=True, capture_output=True)
        return json.loads(out.read_text())


def said_by_checks(seen):
    """Every label and named mistake in a step's observations (the reference's), in both languages."""
    texts = []
    for observations in seen.values():
        for item in observations:
            texts += [item[key] for key in ("label",) if isinstance(item.get(key), str)]
            texts += [message for _, message in item.get("mistakes", [])]
    return [both(text) for text in dict.fromkeys(texts)]


def mutants():
    """{step: {mutant's name: its sentence in both languages}} from every chapter's mistakes."""
    found = {}
    for chapter in range(1, 8):
        module = importlib.import_module(f"minigrad.steps.chapter{chapter}.mistakes")
        for mutant, (step, _, message) in module.MUTANTS.items():
            found.setdefault(step, {})[mutant] = both(message)
    return found


def dump():
    checks = steps.load_all()
    reference, expected, learner = steps.observe_all(), steps.expected_observations(), learner_observations()
    named = mutants()
    return {step: {
        "checks": [check.__name__ for check in checks[step]],
        "reference": {language: judge(step, reference[step], expected[step], language) for language in LANGUAGES},
        "stub": {language: judge(step, learner[step], expected[step], language) for language in LANGUAGES},
        "said": said_by_checks(reference[step]),
        "hints": [both(text) for text in hints.HINTS.get(step, ())],
        "mistakes": named.get(step, {}),
    } for step in sorted(checks, key=order)}


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(dump(), ensure_ascii=False, indent=1, sort_keys=True) + "\n")
