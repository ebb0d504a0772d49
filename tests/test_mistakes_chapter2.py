"""Chapter 2's usual mistakes, each made on purpose in a copy of the reference, are named at their step.

The same machinery as ``test_mistakes.py`` (a mutant copy of the reference, its step's checks
run in a fresh process, the verdict read in both languages), for the mistakes of a node with
several outputs (2.3) and of the backward rules a small model needs (2.5–2.8).
"""
import pytest
from conftest import EDITION
from test_mistakes import assert_named_at_its_step, mutant, verdicts

from minigrad.steps import chapter1, chapter2
from minigrad.steps import chapter2_challenge as challenge
from minigrad.steps import chapter2_rules as rules

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="mutates the reference edition")

ENGINE, REDUCTIONS, POINTWISE, LOSS = "autograd/engine.py", "ops/reductions.py", "ops/pointwise.py", "nn/logits_loss.py"
SOFTMAX = "nn/softmax.py"
SOFTMAX_RULE = "return result * (grad - _sum_kept(grad * result, dim))"
RESTORE_KEPT = "    if keepdim or not shape:\n        return grad\n"
RELU = "return grad * dispatch(result, np.sign, sign)"

# name -> (step, [(file, text of the reference, the learner's version)], the message naming the mistake)
MUTANTS = {
    "two outputs' gradients in slot 0": (
        "2.3", [(ENGINE, "buffer[nr] = grad if buffer[nr] is None else buffer[nr] + grad",
                 "buffer[0] = grad if buffer[0] is None else buffer[0] + grad")], chapter2.SLOT_ZERO),
    "sum's gradient not expanded": ("2.5", [(REDUCTIONS, "        return _expand(grad, shape)\n", "        return grad\n")],
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
        "2.7", [(POINTWISE, "        return grad * result * (1 - result)\n",
                 "        s = 1 / (1 + np.exp(-result))\n        return grad * s * (1 - s)\n")], rules.SIGMOID_AGAIN),
    "logits loss without the mean's 1/n": ("2.8", [(LOSS, "            scale = scale / _numel(z)\n", "            pass\n")],
                                           rules.LOSS_NOT_MEAN),
    "logits loss with the wrong sign": ("2.8", [(LOSS, "return _sigmoid(z) - y", "return y - _sigmoid(z)")], rules.LOSS_SIGN),
    "logits loss without the weights": ("2.8", [(LOSS, "scale = grad if weight is None else grad * weight", "scale = grad")],
                                        rules.LOSS_UNWEIGHTED),
    "target's gradient with the wrong sign": ("2.8", [(LOSS, "        return -z\n", "        return z\n")], rules.TARGET_SIGN),
    "softmax element by element": ("C2", [(SOFTMAX, SOFTMAX_RULE, "return grad * result * (1 - result)")],
                                   challenge.SOFTMAX_ELEMENTWISE),
    "softmax summed along another dimension": (
        "C2", [(SOFTMAX, SOFTMAX_RULE, "return result * (grad - _sum_kept(grad * result, 1 - dim))")], challenge.SUM_WRONG_DIM),
    "log_softmax with the saved logs as probabilities": (
        "C2", [(SOFTMAX, "dispatch(result, np.exp, pointwise.exp) * _sum_kept(grad, dim)", "result * _sum_kept(grad, dim)")],
        challenge.LOG_SOFTMAX_NO_EXP),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_the_mistake_is_named_at_its_step(tmp_path, name):
    assert_named_at_its_step(tmp_path, *MUTANTS[name])


def test_a_mistake_of_a_rule_is_not_blamed_on_the_engine(tmp_path):
    """Step 2.3 runs no sum, mean, relu, sigmoid or loss: a wrong rule leaves it passing."""
    parent = mutant(tmp_path, MUTANTS["sum's gradient not expanded"][1] + MUTANTS["relu times its result"][1])
    assert verdicts(parent, "2.3")["en"]["status"] == "passed"
