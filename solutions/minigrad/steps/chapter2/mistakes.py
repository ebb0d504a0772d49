"""Chapter 2's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from ..chapter1 import checks as chapter1
from . import challenge, rules
from . import checks as chapter2

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
ENGINE = "autograd/engine.py"
LINALG = "rules/chapter2.py"
REDUCTIONS = "rules/chapter2.py"
POINTWISE = "rules/chapter2.py"
LOSS = "rules/chapter2.py"
SOFTMAX = "rules/chapter2.py"
QUEUE_AS_LIST = (ENGINE, "heapq.heappush(self._heap, (-node._seq, self._pushed, node))", "self._heap.append(node)")
SOFTMAX_RULE = "return result * (grad - _sum_kept(grad * result, dim))"
RESTORE_KEPT = "    if keepdim or not shape:\n        return grad\n"
RELU = "return grad * dispatch(result, np.sign, sign)"

MUTANTS = {
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
    "nodes not freed after they run": ("2.3", [(ENGINE, "        if not keep_graph:\n            node._release()\n", "")],
                                       chapter2.NOT_FREED),
    "nodes freed even when the graph is kept": (
        "2.3", [(ENGINE, "        if not keep_graph:\n            node._release()\n", "        node._release()\n")],
        chapter2.FREED_KEPT),
    "gradients not checked on their way": (
        "2.3", [(ENGINE, "                grad = validate(node, next_node, nr, grad)\n", "")], chapter2.NOT_VALIDATED),
    "mm without a transpose": ("2.4", [(LINALG, "grad @ _transpose(mat2)", "grad @ mat2")], chapter2.TRANSPOSE_SHAPES),
    "mm with the transpose on the wrong side": ("2.4", [(LINALG, "_transpose(self_) @ grad", "grad @ _transpose(self_)")],
                                                chapter2.TRANSPOSE_SHAPES),
    "mm with .T": ("2.4", [(LINALG, "grad @ _transpose(mat2)", "grad @ mat2.T"), (LINALG, "_transpose(self_) @ grad", "self_.T @ grad")],
                   chapter2.BATCH_TRANSPOSE),
    "mm with numpy functions": ("2.4", [(LINALG, "grad @ _transpose(mat2)", "np.matmul(grad, np.transpose(mat2))"),
                                        (LINALG, "_transpose(self_) @ grad", "np.matmul(np.transpose(self_), grad)")],
                                chapter1.ONLY_ARRAYS),
    "two outputs' gradients in slot 0": (
        "2.3", [(ENGINE, "buffer[nr] = grad if buffer[nr] is None else buffer[nr] + grad",
                 "buffer[0] = grad if buffer[0] is None else buffer[0] + grad")], chapter2.SLOT_ZERO),
    "sum's gradient not expanded": ("2.5", [(REDUCTIONS, "    return _expand(grad, shape)\n", "    return grad\n")],
                                    rules.NOT_EXPANDED),
    "keepdim=False dimensions not put back": ("2.5", [(REDUCTIONS, RESTORE_KEPT, "    return grad\n")], rules.NOT_REINSERTED),
    "dimensions put back with tensor methods only": ("2.5", [(REDUCTIONS, "    if isinstance(grad, Tensor):\n", "    if True:\n")],
                                                     chapter1.ONLY_TENSORS),
    "dimensions put back with numpy only": ("2.5", [(REDUCTIONS, "    if isinstance(grad, Tensor):\n", "    if False:\n")],
                                            rules.TURNED_INTO_ARRAY),
    "mean not divided": ("2.6", [(REDUCTIONS, "return _expand(grad / numel, shape)", "return _expand(grad, shape)")],
                         rules.NOT_DIVIDED),
    "mean over dimensions divided by numel": (
        "2.6", [(REDUCTIONS, "_restored(grad, shape, dims, keepdim) / count", "_restored(grad, shape, dims, keepdim) / numel")],
        rules.WRONG_COUNT),
    "mean over dimensions not divided": (
        "2.6", [(REDUCTIONS, "_restored(grad, shape, dims, keepdim) / count", "_restored(grad, shape, dims, keepdim)")],
        rules.NOT_DIVIDED),
    "relu passes the gradient at 0": ("2.7", [(POINTWISE, RELU, "return grad * (result >= 0)")], rules.RELU_AT_ZERO),
    "relu masked by the gradient's sign": ("2.7", [(POINTWISE, RELU, "return grad * (grad > 0)")], rules.RELU_WRONG_VALUE),
    "relu times its result": ("2.7", [(POINTWISE, RELU, "return grad * result")], rules.RELU_WRONG_VALUE),
    "relu with numpy only": ("2.7", [(POINTWISE, RELU, "return grad * np.sign(result)")], chapter1.ONLY_ARRAYS),
    "sigmoid's slope from the input's formula": (
        "2.7", [(POINTWISE, "    return grad * result * (1 - result)\n",
                 "    s = 1 / (1 + np.exp(-result))\n    return grad * s * (1 - s)\n")], rules.SIGMOID_AGAIN),
    "logits loss without the mean's 1/n": ("2.8", [(LOSS, "    scale = scale / _numel(z)\n", "    pass\n")],
                                           rules.LOSS_NOT_MEAN),
    "logits loss with the wrong sign": ("2.8", [(LOSS, "return _sigmoid(z) - y", "return y - _sigmoid(z)")], rules.LOSS_SIGN),
    "logits loss without the weights": ("2.8", [(LOSS, "scale = grad if weight is None else grad * weight", "scale = grad")],
                                        rules.LOSS_UNWEIGHTED),
    "target's gradient with the wrong sign": ("2.8", [(LOSS, "    return -z\n", "    return z\n")], rules.TARGET_SIGN),
    "softmax element by element": ("C2", [(SOFTMAX, SOFTMAX_RULE, "return grad * result * (1 - result)")],
                                   challenge.SOFTMAX_ELEMENTWISE),
    "softmax summed along another dimension": (
        "C2", [(SOFTMAX, SOFTMAX_RULE, "return result * (grad - _sum_kept(grad * result, 1 - dim))")], challenge.SUM_WRONG_DIM),
    "log_softmax with the saved logs as probabilities": (
        "C2", [(SOFTMAX, "dispatch(result, np.exp, pointwise.exp) * _sum_kept(grad, dim)", "result * _sum_kept(grad, dim)")],
        challenge.LOG_SOFTMAX_NO_EXP),
}
