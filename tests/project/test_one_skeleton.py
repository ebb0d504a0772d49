"""Every operation records its node through one helper, ``autograd.graph.recorded``.

The skeleton (test ``should_record``, make the node, link it) is written once; an operation
calls the helper. ``should_record`` is still called where it chooses a route rather than
records a node, and ``record`` (the link alone) where a caller has decided for itself: both
places are listed here, so a new copy of the skeleton fails this test.
"""
import ast

import minigrad as torch
from conftest import ROOT

PACKAGE = ROOT / "solutions" / "minigrad"

# (module, function): where should_record chooses between two ways of doing an operation.
ROUTES = {
    ("rules/chapter4.py", "zero_"),  # a write with no history, or one recorded through apply
    ("ops/inplace.py", "setitem"),
    ("ops/inplace_history.py", "apply"),  # an in-place write: recorded on a copy of the old value, or not
    ("autograd/function.py", "apply"),  # a custom Function: its ctx and outputs are set up either way
}
# (module, function): where a node is linked whatever grad mode and the inputs say.
LINKS = {
    ("autograd/function.py", "_behind_error"),
    ("autograd/forward_ad.py", "make_dual"),
    ("ops/inplace_history.py", "_set_history"),
}


def calls(source, name):
    """(function, line) of every call of ``name`` in ``source``, by the function that makes it."""
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == name:
                found.append((function, child.lineno))
            visit(child, inner)

    visit(ast.parse(source), None)
    return found


def callers(name):
    """(module, function) of every call of ``name`` in the package, outside the graph module and the checks."""
    places = set()
    for path in PACKAGE.rglob("*.py"):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "autograd/graph.py" or module.startswith("steps/"):
            continue
        places |= {(module, function) for function, _ in calls(path.read_text(encoding="utf-8"), name)}
    return places


def test_should_record_is_called_only_where_it_chooses_a_route():
    assert callers("should_record") == ROUTES


def test_a_node_is_linked_by_hand_only_where_the_caller_decides():
    assert callers("record") == LINKS


def test_a_skeleton_written_out_is_found():
    planted = "def exp(input):\n    out = wrap(input)\n    if should_record(input):\n        record(out, Node(), input)\n"
    assert calls(planted, "should_record") == [("exp", 3)]
    assert calls(planted, "record") == [("exp", 4)]


def test_nothing_is_saved_for_an_operation_that_records_nothing():
    """The node, and what it saves, is made only when it is recorded: under no_grad a pack hook never runs."""
    packed = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        with torch.no_grad():
            (x.exp() * x / x).sum()
        assert packed == []
        (x.exp() * x).sum()
    assert len(packed) == 3  # exp's result, then x and exp(x) for the product
