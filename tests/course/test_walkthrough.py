"""The committed walkthrough (``docs/walkthrough.<lang>.md``) is what the course says today, in both languages."""
import subprocess
import sys

import pytest

from conftest import EDITION, ROOT

if EDITION == "learner":  # the walkthrough reads the reference's mistakes
    pytest.skip("reads the reference edition's mistakes", allow_module_level=True)


def test_the_walkthrough_is_up_to_date():
    done = subprocess.run([sys.executable, "-m", "tools.walkthrough", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_step_is_walked_through_in_both_languages():
    from tools import walkthrough

    for language in walkthrough.LANGUAGES:
        text = walkthrough.walkthrough(language)
        assert text.count("\n## ") == len(walkthrough.steps.load_all()), language
        assert text.count("\n3. ") == len(walkthrough.steps.load_all()), language  # every step's third hint
