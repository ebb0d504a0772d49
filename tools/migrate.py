"""Carry a learner's finished steps from a copy of their package made before the files moved into the new one.

On 2026-11-28 the exercises moved into fewer files (the rules into ``rules/chapterN.py``; see CHANGELOG.md). A learner
who wrote steps before then keeps a copy of their ``minigrad/`` folder, updates the course, and runs::

    minigrad-migrate OLD_COPY            # or: .venv/bin/python -m tools.migrate OLD_COPY

Each stub of the new package is looked for, by its step, where it was before the move (``MOVED``, and
``layouts/stubs_before_2026_11_28.json``: every stub function as it was then). The lines the learner wrote in place of
the old stub are put in place of the new one, indented anew; a stub the learner had not written stays. A function
changed outside its exercise cannot be matched line by line: it is named, to be copied by hand, and the exit code is 1.
"""
import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = json.loads((Path(__file__).parent / "layouts" / "stubs_before_2026_11_28.json").read_text())

# (new file, new function) -> (old file, old function): every stub function that changed place or name.
MOVED = {
    **{("rules/chapter1.py", new): (old_file, f"{node}.backward") for new, old_file, node in [
        ("mul_backward", "ops/arithmetic.py", "MulBackward0"), ("add_backward", "ops/arithmetic.py", "AddBackward0"),
        ("sub_backward", "ops/arithmetic.py", "SubBackward0"), ("div_backward", "ops/arithmetic.py", "DivBackward0"),
        ("pow_backward", "ops/powers.py", "PowBackward0"), ("pow_tensor_backward", "ops/powers.py", "PowBackward1"),
        ("exp_backward", "ops/pointwise.py", "ExpBackward0"), ("log_backward", "ops/pointwise.py", "LogBackward0"),
        ("sqrt_backward", "ops/pointwise.py", "SqrtBackward0"), ("tanh_backward", "ops/pointwise.py", "TanhBackward0"),
        ("abs_backward", "ops/pointwise.py", "AbsBackward0"), ("clamp_backward", "ops/pointwise.py", "ClampBackward1")]},
    **{("rules/chapter2.py", new): (old_file, f"{node}.backward") for new, old_file, node in [
        ("mm_backward", "ops/linalg.py", "MmBackward0"), ("sum_backward", "ops/reductions.py", "SumBackward0"),
        ("sum_dim_backward", "ops/reductions.py", "SumBackward1"), ("mean_backward", "ops/reductions.py", "MeanBackward0"),
        ("mean_dim_backward", "ops/reductions.py", "MeanBackward1"), ("relu_backward", "ops/pointwise.py", "ReluBackward0"),
        ("sigmoid_backward", "ops/pointwise.py", "SigmoidBackward0"),
        ("logits_loss_backward", "nn/logits_loss.py", "BinaryCrossEntropyWithLogitsBackward0"),
        ("softmax_backward", "nn/softmax.py", "SoftmaxBackward0"),
        ("log_softmax_backward", "nn/softmax.py", "LogSoftmaxBackward0")]},
    ("rules/chapter2.py", "_restored"): ("ops/reductions.py", "_restored"),
    **{("rules/chapter2.py", name): ("nn/logits_loss.py", name) for name in ("scaled", "_logits_slope", "_target_slope")},
    ("rules/chapter4.py", "zero_"): ("ops/inplace.py", "zero_"),
    **{("rules/chapter4.py", new): (old_file, f"{node}.{method}") for new, old_file, node, method in [
        ("mul_jvp", "ops/arithmetic.py", "MulBackward0", "jvp"), ("div_jvp", "ops/arithmetic.py", "DivBackward0", "jvp"),
        ("pow_jvp", "ops/powers.py", "PowBackward0", "jvp"), ("mm_jvp", "ops/linalg.py", "MmBackward0", "jvp"),
        ("unsqueeze_backward", "ops/views.py", "UnsqueezeBackward0", "backward"),
        ("squeeze_backward", "ops/views.py", "SqueezeBackward1", "backward"),
        ("expand_backward", "ops/views.py", "ExpandBackward0", "backward"),
        ("permute_backward", "ops/views.py", "PermuteBackward0", "backward"),
        ("transpose_backward", "ops/views.py", "TransposeBackward0", "backward")]},
    ("autograd/engine.py", "check_gradient"): ("autograd/__init__.py", "check_gradient"),
    ("autograd/engine.py", "_Handles.remove"): ("autograd/multi_grad_hook.py", "_Handles.remove"),
    ("autograd/engine.py", "register_multi_grad_hook"): ("autograd/multi_grad_hook.py", "register_multi_grad_hook"),
    **{("autograd/jacobians.py", f"Dual.{name}"): ("autograd/dual_numbers.py", f"Dual.{name}")
       for name in ("__add__", "__mul__", "sin", "exp")},
    ("autograd/function.py", "once_differentiable.wrapper"): ("autograd/once_differentiable.py",
                                                              "once_differentiable.wrapper"),
    ("autograd/function.py", "_behind_error"): ("autograd/once_differentiable.py", "_behind_error"),
    **{("autograd/saved_hooks.py", f"SavedForms.{name}"): ("autograd/saved_forms.py", f"SavedForms.{name}")
       for name in ("_pack_if_hooked", "_pack", "register_hooks")},
    ("autograd/saved_tensor.py", "release_saved"): ("autograd/graph.py", "Node._release"),
    ("autograd/saved_tensor.py", "share_counter"): ("autograd/view_tracking.py", "view_of"),
    ("autograd/saved_tensor.py", "count_write"): ("ops/inplace_history.py", "_write"),
}
# Names a stub's code spelled otherwise where it was: (new file, new function) -> {old name: new name}.
RENAMED = {
    ("autograd/saved_tensor.py", "release_saved"): {"self": "node"},
    ("autograd/saved_tensor.py", "share_counter"): {"out": "view"},
    ("autograd/saved_hooks.py", "SavedForms._pack_if_hooked"): {"_hooks_in_effect": "_in_effect"},
    ("autograd/saved_hooks.py", "SavedForms._pack"): {"saved_hooks.Packed": "Packed"},
    ("autograd/saved_hooks.py", "SavedForms.register_hooks"): {"saved_hooks.ALREADY_FREED": "ALREADY_FREED",
                                                               "saved_hooks.ALREADY_HOOKED": "ALREADY_HOOKED"},
}
STUB = re.compile(r"^(?P<indent>\s*)(raise NotImplementedError\(\"step (?P<step>\S+): your code goes here"
                  r"|pass  # step (?P<quiet>\S+): your code goes here)")


def functions(text):
    """``{qualified name: (first line, last line)}`` of every function in ``text`` (1-based, inclusive)."""
    found = {}

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if isinstance(child, ast.FunctionDef):
                    found[name] = (child.lineno, child.end_lineno)
                walk(child, name + ".")

    walk(ast.parse(text), "")
    return found


def stub_at(lines):
    """(index, indent, step) of the stub line among ``lines``, or None."""
    for index, line in enumerate(lines):
        match = STUB.match(line)
        if match:
            return index, match["indent"], match["step"] or match["quiet"]
    return None


def written(old_stub, learner):
    """The lines the learner wrote in place of the stub in ``old_stub`` (both a function's lines), and the
    indent of that stub; None if the learner's function differs from the stub outside the exercise."""
    index, indent, _ = stub_at(old_stub)
    before, after = old_stub[:index], old_stub[index + 1:]
    if learner[:len(before)] != before or (after and learner[len(learner) - len(after):] != after):
        return None
    return learner[len(before):len(learner) - len(after)], indent


def reindented(lines, old, new):
    """``lines`` moved from indentation ``old`` to ``new`` (blank lines stay blank)."""
    return [new + line[len(old):] if line.startswith(old) else line for line in lines]


def carry(old_package, package):
    """Carry every finished step of ``old_package`` into ``package``; returns ``{step: (outcome, where)}``, outcome
    one of "carried", "not started", "by hand"."""
    before = {(entry["file"], entry["function"]): entry["text"].split("\n") for entry in BEFORE}
    steps_then = {entry["step"] for entry in BEFORE}
    outcomes = {}
    for path in sorted(Path(package).rglob("*.py")):
        name = path.relative_to(package).as_posix()
        text = path.read_text()
        if "your code goes here" not in text:
            continue
        lines, spans = text.split("\n"), functions(text)
        # From the last function up, so that the line numbers of those above stay right.
        for function, (first, last) in sorted(spans.items(), key=lambda item: -item[1][0]):
            found = stub_at(lines[first - 1:last])
            if found is None or _inner(function, first + found[0], spans):
                continue
            index, indent, step = found
            if step not in steps_then:  # a step added since the move (chapter 7's): nothing of it to carry
                outcomes.setdefault(step, []).append(("not started", f"{name}: {function}"))
                continue
            old_file, old_function = MOVED.get((name, function), (name, function))
            outcome = _carried(Path(old_package) / old_file, old_function, before.get((old_file, old_function)),
                               RENAMED.get((name, function), {}))
            if isinstance(outcome, tuple):
                code, old_indent = outcome
                lines[first - 1 + index:first + index] = reindented(code, old_indent, indent)
                outcome = "carried"
            outcomes.setdefault(step, []).append((outcome, f"{name}: {function}"))
        path.write_text("\n".join(lines))
    return outcomes


def _inner(function, line, spans):
    """Whether ``line`` of ``function`` lies in a function nested in it (whose own stub that is)."""
    return any(other.startswith(function + ".") and first <= line <= last for other, (first, last) in spans.items())


def _carried(old_path, function, old_stub, renames):
    """The learner's lines for one stub, with their indent; or "not started", or "by hand"."""
    if old_stub is None or not old_path.exists():
        return "by hand"
    text = old_path.read_text()
    span = functions(text).get(function)
    if span is None:
        return "by hand"
    learner = text.split("\n")[span[0] - 1:span[1]]
    if stub_at(learner) is not None:
        return "not started"
    found = written(old_stub, learner)
    if found is None:
        return "by hand"
    code, indent = found
    for old, new in renames.items():
        code = [re.sub(rf"(?<![\w.]){re.escape(old)}\b", new, line) for line in code]
    return code, indent


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="a copy of your minigrad/ folder made before the move")
    parser.add_argument("--into", default=str(ROOT / "minigrad"), help="the package to write into (default: this "
                                                                       "course's minigrad/)")
    args = parser.parse_args(argv)
    old = Path(args.old)
    if (old / "minigrad" / "autograd").exists():
        old = old / "minigrad"
    if not (old / "autograd" / "graph.py").exists():
        sys.exit(f"{args.old}: not a copy of minigrad/ (there is no autograd/graph.py in it).\n"
                 f"{args.old}：不是 minigrad/ 的副本（其中没有 autograd/graph.py）。")
    if (old / "rules").exists():
        sys.exit(f"{args.old}: already in the new layout (it has rules/); nothing to carry.\n"
                 f"{args.old}：已经是新的布局（有 rules/），没有要搬的东西。")
    outcomes = carry(old, Path(args.into))
    by_hand = []
    for step in sorted(outcomes, key=_order):
        kinds = {outcome for outcome, _ in outcomes[step]}
        if "by hand" in kinds:
            by_hand += [where for outcome, where in outcomes[step] if outcome == "by hand"]
        print(f"{step}: " + ("carried / 已搬入" if kinds == {"carried"} else "not started / 未开始"
                             if kinds == {"not started"} else "partly: see below / 部分完成：见下文"))
    if by_hand:
        print("Copy these by hand (changed outside the exercise) / 这些请手工复制（练习之外的部分被改动过）:")
        print("\n".join(f"  {where}" for where in by_hand))
        return 1
    return 0


def _order(step):
    chapter, _, rest = step.partition(".")
    return (int(step[1:]), 99) if step.startswith("C") else (int(chapter), int(rest))


if __name__ == "__main__":
    sys.exit(main())
