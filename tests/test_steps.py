"""Every exercise check, as a pytest item carrying its step's marker (``-m step_2_3``)."""
import pytest

from conftest import EDITION, step_marker
from minigrad import steps

CHECKS = [
    pytest.param(check, id=f"{step}-{check.__name__}", marks=getattr(pytest.mark, step_marker(step)))
    for step, checks in steps.load_all().items()
    for check in checks
]


@pytest.mark.parametrize("check", CHECKS)
def test_check(check):
    if EDITION == "learner":
        with pytest.raises(NotImplementedError, match=r"step \d+\.\d+"):
            check()
    else:
        check()
