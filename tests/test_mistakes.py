"""The usual mistakes, each made on purpose in a copy of the reference, are named at their step.

Each mutant is the reference package with a few lines changed the way a learner gets them
wrong. Its step's checks run in a fresh process on the copy, as ``minigrad.check`` runs them;
the verdict must fail at that step with the sentence that names the mistake (and says what
to reread), in both languages, never with a traceback from numpy or from the engine.
"""
import json
import subprocess
import sys

import pytest

import compiled_editions
from conftest import EDITION
from minigrad.messages import say
from minigrad.steps import chapter1, chapter2, chapter3, chapter4, chapter5, chapter6, ids
from tools import build, editions

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="mutates the reference edition")

RECURSIVE_WALK = '''    dependencies = {root: 0}

    def visit(node):
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in dependencies:
                dependencies[next_node] = 0
                visit(next_node)
            dependencies[next_node] += 1

    visit(root)
    return dependencies
'''
STACK_WALK = '''    dependencies = {root: 0}
    stack = [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in dependencies:
                dependencies[next_node] = 0
                stack.append(next_node)
            dependencies[next_node] += 1
    return dependencies
'''
BUFFER = '''            buffer = buffers.get(next_node)
            if buffer is None:
                buffer = buffers[next_node] = [None] * next_node._num_outputs
'''
DELIVERED = '''            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                ready.push(next_node)
'''
LEAF_HOOK = "            return add_hook(self._hooks, hook)"
NON_LEAF_HOOK = "        return add_hook(hooks_of(self.grad_fn).tensor_pre.setdefault(self._output_nr, {}), hook)"
QUIET_STUB = "pass  # " + ids.stub_marker("4.4")
RELEASE_ALL = "        for value in self._saved:\n            if type(value) is SavedTensor:\n                value.release()\n"
SHAPE, ARITHMETIC, ENGINE, LINALG = "shape.py", "ops/arithmetic.py", "autograd/engine.py", "ops/linalg.py"
MODE, GRAPH, SAVED, FUNCTION, TENSOR = ("autograd/grad_mode.py", "autograd/graph.py", "autograd/saved_tensor.py",
                                        "autograd/function.py", "tensor.py")
QUEUE_AS_LIST = (ENGINE, "heapq.heappush(self._heap, (-node._seq, self._pushed, node))", "self._heap.append(node)")

# name -> (step, [(file, text of the reference, the learner's version)], the message naming the mistake)
MUTANTS = {
    "sum_to with numpy only": ("1.3", [(SHAPE, "summed = grad.sum(dim=axes, keepdim=True) if axes else grad",
                                        "summed = np.sum(grad, axis=axes, keepdims=True) if axes else grad")],
                               chapter1.ONLY_ARRAYS),
    "sum_to forgets the axes of size 1": ("1.3", [(SHAPE, "if n == 1 and grad.shape[lead + i] != 1", "if False")],
                                          chapter1.SUM_TO_AXES),
    "* forgets sum_to on its first input": ("1.4", [(ARITHMETIC, "sum_to(grad * other, self.self_shape)", "grad * other")],
                                            chapter1.NOT_SUMMED),
    "* forgets sum_to on its second input": ("1.4", [(ARITHMETIC, "sum_to(grad * self_, self.other_shape)", "grad * self_")],
                                             chapter1.NOT_SUMMED),
    "* with numpy functions": ("1.4", [(ARITHMETIC, "sum_to(grad * other,", "sum_to(__import__('numpy').multiply(grad, other),"),
                                       (ARITHMETIC, "sum_to(grad * self_,", "sum_to(__import__('numpy').multiply(grad, self_),")],
                               chapter1.ONLY_ARRAYS),
    "* with tensor methods": ("1.4", [(ARITHMETIC, "sum_to(grad * other,", "sum_to(grad.mul(other),")], chapter1.ONLY_TENSORS),
    "* returns a list of one": ("1.4", [(ARITHMETIC, "        return grad_self, grad_other\n", "        return [grad_self]\n")],
                                chapter1.TWO_GRADIENTS),
    "recursive dependencies": ("2.1", [(ENGINE, STACK_WALK, RECURSIVE_WALK)], chapter2.RECURSION_DEPENDENCIES),
    "recursive dependencies, seen by the engine": ("2.3", [(ENGINE, STACK_WALK, RECURSIVE_WALK)], chapter2.RECURSION_ENGINE),
    "ready queue first in, first out": ("2.3", [QUEUE_AS_LIST, (ENGINE, "return heapq.heappop(self._heap)[2]",
                                                                "return self._heap.pop(0)")], chapter2.FIFO),
    "ready queue oldest first": ("2.3", [(ENGINE, "(-node._seq, self._pushed, node)", "(node._seq, self._pushed, node)")],
                                 chapter2.OLDEST_FIRST),
    "ready queue as a stack": ("2.3", [QUEUE_AS_LIST, (ENGINE, "return heapq.heappop(self._heap)[2]",
                                                       "return self._heap.pop()")], chapter2.STACK),
    "a node runs before its gradients have all arrived": (
        "2.3", [(ENGINE, BUFFER, BUFFER + "                ready.push(next_node)\n"),
                (ENGINE, DELIVERED, "            dependencies[next_node] -= 1\n")], chapter2.RAN_EARLY),
    "gradients overwritten in the buffers": ("2.3", [(ENGINE, "buffer[nr] = grad if buffer[nr] is None else buffer[nr] + grad",
                                                      "buffer[nr] = grad")], chapter2.OVERWRITTEN),
    "a buffer made only when a gradient arrives": (
        "2.3", [(ENGINE, BUFFER, ""),
                (ENGINE, "                grad = validate(node, next_node, nr, grad)\n",
                 "                grad = validate(node, next_node, nr, grad)\n"
                 "                buffer = buffers.get(next_node)\n"
                 "                if buffer is None:\n"
                 "                    buffer = buffers[next_node] = [None] * next_node._num_outputs\n")],
        chapter2.NO_BUFFER),
    "a node that receives only None is skipped": (
        "2.3", [(ENGINE, "            if next_node is None:\n                continue\n            buffer",
                 "            if next_node is None or grad is None:\n                continue\n            buffer")],
        chapter2.NEVER_RAN),
    "mm without a transpose": ("2.4", [(LINALG, "grad @ _transpose(mat2)", "grad @ mat2")], chapter2.TRANSPOSE_SHAPES),
    "mm with the transpose on the wrong side": ("2.4", [(LINALG, "_transpose(self_) @ grad", "grad @ _transpose(self_)")],
                                                chapter2.TRANSPOSE_SHAPES),
    "mm with numpy functions": ("2.4", [(LINALG, "grad @ _transpose(mat2)", "np.matmul(grad, np.transpose(mat2))"),
                                        (LINALG, "_transpose(self_) @ grad", "np.matmul(np.transpose(self_), grad)")],
                                chapter1.ONLY_ARRAYS),
    "no_grad switches grad mode on when it ends": ("3.1", [(MODE, "        _set_enabled(self._prev)\n",
                                                           "        _set_enabled(True)\n")], chapter3.SWITCHED_ON),
    "no_grad leaves grad mode off after an exception": (
        "3.1", [(MODE, "        _set_enabled(self._prev)\n",
                 "        if exc[0] is None:\n            _set_enabled(self._prev)\n")], chapter3.LEFT_OFF),
    "no_grad swallows exceptions": ("3.1", [(MODE, "        _set_enabled(self._prev)\n",
                                             "        _set_enabled(self._prev)\n        return True\n")],
                                    chapter3.SWALLOWED),
    ".grad overwritten": ("4.2", [(GRAPH, 'np.add(variable._grad._array, grad, out=variable._grad._array, casting="unsafe")',
                                   "variable._grad._array[...] = grad")], chapter4.REPLACED),
    "saved tensors half freed": ("4.4", [(SAVED, "self._tensor = self._array = None", "self._array = None")],
                                 chapter4.TENSOR_KEPT),
    "saved tensors kept": ("4.4", [(GRAPH, RELEASE_ALL, "        for value in self._saved:\n            pass\n")],
                           chapter4.NOTHING_RELEASED),
    "4.4 half written": ("4.4", [(GRAPH, RELEASE_ALL, f"        {QUIET_STUB}\n")], chapter4.NOTHING_RELEASED),
    "a single gradient not wrapped in a tuple": (
        "5.3", [(FUNCTION, "        if type(results) is not tuple:\n            results = (results,)\n", "")],
        chapter5.NOT_WRAPPED),
    "a leaf's hook stored in a dict thrown away": (
        "6.2", [(TENSOR, "            if self._hooks is None:\n                self._hooks = {}\n" + LEAF_HOOK,
                 "            return add_hook(self._hooks or {}, hook)")], chapter6.NO_EFFECT),
    "a leaf's hook registered twice": ("6.2", [(TENSOR, LEAF_HOOK, "            add_hook(self._hooks, hook)\n" + LEAF_HOOK)],
                                       chapter6.TWICE),
    "a non-leaf's hook registered twice": (
        "6.2", [(TENSOR, NON_LEAF_HOOK, NON_LEAF_HOOK.replace("return ", "") + "\n" + NON_LEAF_HOOK)], chapter6.TWICE),
    "a non-leaf's hook stored with the leaf's": (
        "6.2", [(TENSOR, NON_LEAF_HOOK, "        self._hooks = self._hooks or {}\n        return add_hook(self._hooks, hook)")],
        chapter6.NEVER_CALLED),
}

JUDGE_BOTH = """
import json, sys
from minigrad import steps
from minigrad.steps.judge import judge
step = sys.argv[1]
seen = steps.observe_step(step, 0)
expected = steps.expected_observations()[step]
print(json.dumps({language: judge(step, seen, expected, language) for language in ("en", "zh")}))
"""


def mutant(tmp_path, changes):
    """The reference package in ``tmp_path`` with each ``(file, old, new)`` of ``changes`` made once."""
    package = tmp_path / "minigrad"
    compiled_editions.write_package(package, keep=set(editions.steps_in(build.PACKAGE)))
    for name, old, new in changes:
        path = package / name
        text = path.read_text()
        assert old in text, f"no text {old!r} in {name}"
        path.write_text(text.replace(old, new, 1))
    return tmp_path


def verdicts(package_parent, step):
    """The verdict on ``step`` of the package in ``package_parent``, in English and in Chinese."""
    done = subprocess.run([sys.executable, "-c", JUDGE_BOTH, step], cwd=package_parent, capture_output=True,
                          text=True, env={"PYTHONPATH": str(package_parent), "PATH": ""}, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_named_at_its_step(tmp_path, step, changes, message):
    """The mutant made by ``changes`` fails ``step`` with ``message``, in both languages, and no traceback."""
    said = verdicts(mutant(tmp_path, changes), step)
    assert said["en"]["status"] == "failed", said["en"]
    assert said["en"]["message"].startswith(f"✗ Step {step}: {say(message, 'en')}"), said["en"]["message"]
    assert said["zh"]["message"].startswith(f"✗ 第 {step} 步：{say(message, 'zh')}"), said["zh"]["message"]
    assert "Traceback" not in said["en"]["message"]


@pytest.mark.parametrize("name", MUTANTS)
def test_the_mistake_is_named_at_its_step(tmp_path, name):
    assert_named_at_its_step(tmp_path, *MUTANTS[name])


def test_untouched_stubs_of_4_4_are_not_implemented(tmp_path):
    parent = mutant(tmp_path, [(GRAPH, RELEASE_ALL, f"        {QUIET_STUB}\n"),
                               (SAVED, "        self._tensor = self._array = None\n", f"        {QUIET_STUB}\n")])
    assert verdicts(parent, "4.4")["en"]["status"] == "not_implemented"


def test_a_mistake_of_the_engine_is_not_blamed_on_4_2(tmp_path):
    parent = mutant(tmp_path, MUTANTS["gradients overwritten in the buffers"][1])
    assert verdicts(parent, "4.2")["en"]["status"] == "passed"

