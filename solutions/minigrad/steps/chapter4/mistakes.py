"""Chapter 4's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from .. import ids
from ..chapter1 import checks as chapter1
from . import checks as chapter4
from . import forward, shapes

QUIET_STUB = "pass  # " + ids.stub_marker("4.4")
RELEASE_ALL = "    for value in node._saved:\n        if type(value) is SavedTensor:\n            value.release()\n"
GRAPH = "autograd/graph.py"
SAVED = "autograd/saved_tensor.py"
ARITHMETIC = "rules/chapter4.py"
LINALG = "rules/chapter4.py"
POWERS = "rules/chapter4.py"
JACOBIANS = "autograd/jacobians.py"
VIEWS = "rules/chapter4.py"
INVERSE = "    return grad.permute(inverse) if isinstance(grad, Tensor) else grad.transpose(inverse)\n"
SQUEEZE_BACK = "    return grad.reshape(grad.shape[:dim] + (1,) + grad.shape[dim:])\n"
MUL_BOTH = ("    if tangent_self is not None:\n        out = out + tangent_self * other\n"
            "    if tangent_other is not None:\n        out = out + self_ * tangent_other\n")
ROW_SEED = "        seed = zeros_like(y)\n        seed.view(-1)[i] = 1\n"
COLUMN_SEED = "        tangent = zeros_like(x)\n        tangent.view(-1)[j] = 1\n"

MUTANTS = {
    "a seed made from a list in numpy's dtype": (
        "4.1", [("autograd/engine.py", "        gradient = _as_tensor(gradient, dtype=output.dtype)\n",
                 "        return __import__('numpy').asarray(gradient)\n")], chapter4.SEED_DTYPE),
    ".grad overwritten": ("4.2", [(GRAPH, 'np.add(variable._grad._array, grad, out=variable._grad._array, casting="unsafe")',
                                   "variable._grad._array[...] = grad")], chapter4.REPLACED),
    "saved tensors half freed": ("4.4", [(SAVED, "self._tensor = self._array = None", "self._array = None")],
                                 chapter4.TENSOR_KEPT),
    "saved tensors kept": ("4.4", [(SAVED, RELEASE_ALL, "    for value in node._saved:\n        pass\n")],
                           chapter4.NOTHING_RELEASED),
    "4.4 half written": ("4.4", [(SAVED, RELEASE_ALL, f"    {QUIET_STUB}\n")], chapter4.NOTHING_RELEASED),
    "in-place addition not counted as a version": (
        "4.2", [(GRAPH, "        variable._grad._bump_version()\n", "")], chapter4.VERSION_NOT_COUNTED),
    "a .grad with a history replaced out of place": (
        "4.2", [(GRAPH, "    if isinstance(grad, Tensor):\n",
                 "    if isinstance(grad, Tensor) or variable._grad.requires_grad:\n")], chapter4.HISTORY_DROPPED),
    "a recorded gradient added in place": (
        "4.2", [(GRAPH, "        variable._grad = variable._grad + grad\n",
                 "        np.add(variable._grad._array, grad._array, out=variable._grad._array)\n")],
        chapter4.SUM_NOT_RECORDED),
    "product rule missing a term": (
        "4.5", [(ARITHMETIC, "        out = out + self_ * tangent_other\n", "        out = out\n")],
        forward.TERM_MISSING),
    "a None tangent computed with": (
        "4.5", [(ARITHMETIC, MUL_BOTH, "    out = tangent_self * other + self_ * tangent_other\n")],
        forward.NONE_TANGENT),
    "a None tangent made zeros": (
        "4.5", [(ARITHMETIC, MUL_BOTH, "    if tangent_other is None:\n        tangent_other = 0 * self_\n"
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
    "rows laid out input first": (
        "4.6", [(JACOBIANS, "return stack(rows).reshape(y.shape + x.shape)",
                 "return stack(rows, dim=-1).reshape(x.shape + y.shape)")], forward.TRANSPOSED),
    "the row seed reused": (
        "4.6", [(JACOBIANS, ROW_SEED, "        seed.view(-1)[i] = 1\n"),
                (JACOBIANS, "    rows = []\n", "    rows = []\n    seed = zeros_like(y)\n")], forward.SEED_REUSED),
    "a seed of ones": (
        "4.6", [(JACOBIANS, "        seed.view(-1)[i] = 1\n", "        seed = seed + 1\n")], forward.NOT_ONE_HOT),
    "retain_graph forgotten": ("4.6", [(JACOBIANS, "retain_graph=True, ", "")], forward.RETAIN_FORGOTTEN),
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
    "permute applies dims instead of their inverse": (
        "4.8", [(VIEWS, INVERSE, INVERSE.replace("(inverse)", "(dims)"))], shapes.NOT_INVERTED),
    "permute with numpy's transpose only": (
        "4.8", [(VIEWS, INVERSE, "    return grad.transpose(inverse)\n")], chapter1.ONLY_ARRAYS),
    "expand's gradient not summed": ("4.8", [(VIEWS, "    return sum_to(grad, sizes)\n", "    return grad\n")],
                                     shapes.EXPAND_NOT_SUMMED),
    "expand's gradient summed without keeping the axes of size 1": (
        "4.8", [(VIEWS, "    return sum_to(grad, sizes)\n",
                 "    lead = grad.ndim - len(sizes)\n"
                 "    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(sizes) if n == 1)\n"
                 "    return grad.sum(axes)\n")], shapes.SIZE_ONE_DROPPED),
    "unsqueeze's gradient squeezes every axis of size 1": (
        "4.8", [(VIEWS, "    return grad.squeeze(dim)\n", "    return grad.squeeze()\n")], shapes.UNSQUEEZE_AXIS),
    "squeeze's axis put back at the end": (
        "4.8", [(VIEWS, SQUEEZE_BACK, "    return grad.reshape(grad.shape + (1,))\n")], shapes.SQUEEZE_AXIS),
    "squeeze's axis put back even when nothing was squeezed": (
        "4.8", [(VIEWS, "    if grad.ndim == len(sizes):  # the size at dim was not 1: nothing was squeezed\n"
                        "        return grad\n", "")], shapes.NOTHING_SQUEEZED),
}
