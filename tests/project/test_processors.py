"""The reference observations hold on another processor.

numpy chooses its float32 kernels (``power``, ``exp``, ``sqrt``, ...) when it starts, by the CPU features
it finds: a processor with AVX-512 and one without give results one ulp apart. ``expected.json`` is
recorded on one machine and judged on every learner's, so the two must agree by the judge's rule. Here the
reference's observations are recorded again with every wider path this processor has turned off
(``NPY_DISABLE_CPU_FEATURES``, in the names ``numpy.show_runtime()`` prints), as an older processor would
run them, and compared with the committed ones; and every step passes on the reference in that mode.
"""
import json
import os
import subprocess
import sys

import pytest
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

from conftest import ROOT
from minigrad.steps import expected_observations
from minigrad.steps.judge import agree

WIDER_PATHS = [feature for feature in __cpu_dispatch__ if __cpu_features__.get(feature)]
FEATURES_SEEN = "from numpy._core._multiarray_umath import __cpu_features__ as f; import json; print(json.dumps(f))"


def on_narrower_paths(*arguments):
    """``python -m minigrad.steps ...`` on the reference, with numpy's wider paths turned off."""
    if not WIDER_PATHS:
        pytest.skip("this processor has none of numpy's optional paths to turn off: it already runs the narrowest")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "solutions"), NPY_DISABLE_CPU_FEATURES=" ".join(WIDER_PATHS))
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=env,
                          cwd=ROOT / "solutions", timeout=300, check=True).stdout


def test_the_wider_paths_are_in_fact_turned_off():
    seen = json.loads(on_narrower_paths("-c", FEATURES_SEEN))
    assert {feature: seen[feature] for feature in WIDER_PATHS} == dict.fromkeys(WIDER_PATHS, False)


def test_the_committed_observations_agree_with_another_processor_s():
    recorded = expected_observations()
    fresh = json.loads(on_narrower_paths("-m", "minigrad.steps", "record"))
    assert sorted(recorded) == sorted(fresh)
    assert [step for step in recorded if not agree(recorded[step], fresh[step])] == []


def test_every_step_passes_on_another_processor():
    verdicts = [json.loads(line) for line in on_narrower_paths("-m", "minigrad.steps", "all").splitlines()]
    assert verdicts and [v["step"] for v in verdicts if v["status"] != "passed"] == []
