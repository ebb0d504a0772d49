"""Chapter 4's usual mistakes (accumulation, forward-mode rules, Jacobians), each named at its step.

Built like ``test_mistakes.py``: a mutant copy of the reference with a few lines changed the
way a learner gets them wrong, whose step must fail with the sentence that names the mistake.
"""
import pytest

from conftest import EDITION
from minigrad.steps import chapter1, chapter4, chapter4_forward as forward, chapter4_shapes as shapes
from test_mistakes import assert_named_at_its_step

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="mutates the reference edition")

GRAPH, ARITHMETIC, LINALG, POWERS, JACOBIANS = (
    "autograd/graph.py", "ops/arithmetic.py", "ops/linalg.py", "ops/powers.py", "autograd/jacobians.py")
VIEWS = "ops/views.py"
INVERSE = "        return grad.permute(inverse) if isinstance(grad, Tensor) else grad.transpose(inverse)\n"
SQUEEZE_BACK = "        return grad.reshape(grad.shape[:dim] + (1,) + grad.shape[dim:])\n"
MUL_BOTH = ("        if tangent_self is not None:\n            out = out + tangent_self * other\n"
            "        if tangent_other is not None:\n            out = out + self_ * tangent_other\n")
ROW_SEED = "        seed = zeros_like(y)\n        seed.view(-1)[i] = 1\n"
COLUMN_SEED = "        tangent = zeros_like(x)\n        tangent.view(-1)[j] = 1\n"

MUTANTS = {
    # 4.2: in place unless the gradient is a tensor, counting a version
    "in-place addition not counted as a version": (
        "4.2", [(GRAPH, "        variable._grad._bump_version()\n", "")], chapter4.VERSION_NOT_COUNTED),
    "a .grad with a history replaced out of place": (
        "4.2", [(GRAPH, "    if isinstance(grad, Tensor):\n",
                 "    if isinstance(grad, Tensor) or variable._grad.requires_grad:\n")], chapter4.HISTORY_DROPPED),
    "a recorded gradient added in place": (
        "4.2", [(GRAPH, "        variable._grad = variable._grad + grad\n",
                 "        np.add(variable._grad._array, grad._array, out=variable._grad._array)\n")],
        chapter4.SUM_NOT_RECORDED),
    # 4.5: forward rules
    "product rule missing a term": (
        "4.5", [(ARITHMETIC, "            out = out + self_ * tangent_other\n", "            out = out\n")],
        forward.TERM_MISSING),
    "a None tangent computed with": (
        "4.5", [(ARITHMETIC, MUL_BOTH, "        out = tangent_self * other + self_ * tangent_other\n")],
        forward.NONE_TANGENT),
    "a None tangent made zeros": (
        "4.5", [(ARITHMETIC, MUL_BOTH, "        if tangent_other is None:\n            tangent_other = 0 * self_\n"
                 + MUL_BOTH)], forward.NONE_TANGENT),
    "division's term with the wrong sign": (
        "4.5", [(ARITHMETIC, "out = out - tangent_other * self_ / (other * other)",
                 "out = out + tangent_other * self_ / (other * other)")], forward.DIVISION_SIGN),
    "division's term without the square": (
        "4.5", [(ARITHMETIC, "out = out - tangent_other * self_ / (other * other)",
                 "out = out - tangent_other * self_ / other")], forward.DIVISION_SQUARE),
    "matrix factors swapped": (
        "4.5", [(LINALG, "out = out + tangent_self @ mat2", "out = out + mat2 @ tangent_self")],
        forward.FACTORS_SWAPPED),
    "the tangent not multiplied in": (
        "4.5", [(POWERS, "return tangent * (exponent * _power(self_, exponent - 1))",
                 "return exponent * _power(self_, exponent - 1)")], forward.TANGENT_FORGOTTEN),
    # 4.6: rows
    "rows laid out input first": (
        "4.6", [(JACOBIANS, "return stack(rows).reshape(y.shape + x.shape)",
                 "return stack(rows, dim=-1).reshape(x.shape + y.shape)")], forward.TRANSPOSED),
    "the row seed reused": (
        "4.6", [(JACOBIANS, ROW_SEED, "        seed.view(-1)[i] = 1\n"),
                (JACOBIANS, "    rows = []\n", "    rows = []\n    seed = zeros_like(y)\n")], forward.SEED_REUSED),
    "a seed of ones": (
        "4.6", [(JACOBIANS, "        seed.view(-1)[i] = 1\n", "        seed = seed + 1\n")], forward.NOT_ONE_HOT),
    "retain_graph forgotten": ("4.6", [(JACOBIANS, "retain_graph=True, ", "")], forward.RETAIN_FORGOTTEN),
    # 4.7: columns
    "columns laid out input first": (
        "4.7", [(JACOBIANS, "return stack(columns, dim=-1).reshape(y.shape + x.shape)",
                 "return stack(columns).reshape(y.shape + x.shape)")], forward.TRANSPOSED),
    "the column tangent reused": (
        "4.7", [(JACOBIANS, COLUMN_SEED, "        tangent.view(-1)[j] = 1\n"),
                (JACOBIANS, "    columns = []\n", "    columns = []\n    tangent = zeros_like(x)\n")],
        forward.SEED_REUSED),
    "a None tangent kept as a column": (
        "4.7", [(JACOBIANS, "columns.append(zeros_like(y) if column is None else column)", "columns.append(column)")],
        forward.NONE_COLUMN),
    # 4.8: the backward of shape operations
    "permute applies dims instead of their inverse": (
        "4.8", [(VIEWS, INVERSE, INVERSE.replace("(inverse)", "(dims)"))], shapes.NOT_INVERTED),
    "permute with numpy's transpose only": (
        "4.8", [(VIEWS, INVERSE, "        return grad.transpose(inverse)\n")], chapter1.ONLY_ARRAYS),
    "expand's gradient not summed": ("4.8", [(VIEWS, "        return sum_to(grad, sizes)\n", "        return grad\n")],
                                     shapes.EXPAND_NOT_SUMMED),
    "expand's gradient summed without keeping the axes of size 1": (
        "4.8", [(VIEWS, "        return sum_to(grad, sizes)\n",
                 "        lead = grad.ndim - len(sizes)\n"
                 "        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(sizes) if n == 1)\n"
                 "        return grad.sum(axes)\n")], shapes.SIZE_ONE_DROPPED),
    "unsqueeze's gradient squeezes every axis of size 1": (
        "4.8", [(VIEWS, "        return grad.squeeze(dim)\n", "        return grad.squeeze()\n")], shapes.UNSQUEEZE_AXIS),
    "squeeze's axis put back at the end": (
        "4.8", [(VIEWS, SQUEEZE_BACK, "        return grad.reshape(grad.shape + (1,))\n")], shapes.SQUEEZE_AXIS),
    "squeeze's axis put back even when nothing was squeezed": (
        "4.8", [(VIEWS, "        if grad.ndim == len(sizes):  # the size at dim was not 1: nothing was squeezed\n"
                        "            return grad\n", "")], shapes.NOTHING_SQUEEZED),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_the_mistake_is_named_at_its_step(tmp_path, name):
    assert_named_at_its_step(tmp_path, *MUTANTS[name])
