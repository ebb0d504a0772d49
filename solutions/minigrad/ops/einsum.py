"""``einsum``: products and sums written as subscripts, ``"ij,jk->ik"`` for a matrix product.

The equation is first rewritten with letters only: each ``...`` becomes letters no
subscript uses (right-aligned, as broadcasting aligns dimensions), and an implicit
output is spelled out (the ellipsis first, then the letters used once, in alphabetical
order). numpy computes the result; a size-1 dimension broadcasts against a larger one.

The gradient of an operand is an einsum too: the output's gradient contracted with the
other operands, back to the operand's subscripts. Two cases need more than that. A
letter only this operand has (summed over within it, ``"ij->i"``) is brought back by a
vector of ones, which broadcasts the gradient along it; a letter repeated in one operand
(a diagonal, ``"ii->i"``) gets a fresh letter and an identity matrix tying the two, which
puts the gradient on the diagonal and zeros elsewhere. So every gradient is one einsum,
recorded like any other under ``create_graph``.

PyTorch records an einsum as the permutes, views and batched products it runs; minigrad
records one ``EinsumBackward0`` node, a name PyTorch does not have.
"""
import string

import numpy as np

from ..autograd.graph import Node, recorded
from ..autograd.saved_tensor import SavedTensor
from ..public_names import public
from ..shape import sum_to
from ..tensor import Tensor


class EinsumBackward0(Node):
    """out = einsum(equation, *operands): each operand's gradient is an einsum of the others and the gradient."""

    __slots__ = ()
    saved_names = ("equation",)

    def __init__(self, equation, inputs, output, sizes, operands):
        self._saved = (equation, inputs, output, sizes) + tuple(SavedTensor(x) for x in operands)

    def backward(self, grad):
        _, inputs, output, sizes, *operands = self.saved_tensors
        grads = []
        for i, needed in enumerate(self.needs_input_grad):
            if not needed:
                grads.append(None)
                continue
            equation, constants = _gradient_equation(inputs, output, i, sizes)
            others = operands[:i] + operands[i + 1:]
            made = [_constant(kind, n, self._dtype) for kind, n in constants]
            grads.append(sum_to(_contract(equation, [grad, *others, *made]), tuple(operands[i].shape)))
        return tuple(grads)


def _gradient_equation(inputs, output, i, sizes):
    """The einsum that gives operand ``i``'s gradient from the output's gradient and the other operands,
    and the constants it needs after them: ``("ones", n)`` for a letter only this operand has,
    ``("eye", n)`` for each repeat of a letter within it."""
    others = inputs[:i] + inputs[i + 1:]
    available = set(output).union(*others)
    spare = (c for c in string.ascii_letters if c not in available and c not in inputs[i])
    target, terms, constants, seen = "", [], [], set()
    for letter in inputs[i]:
        if letter in seen:  # a diagonal: a fresh letter, tied to this one by an identity matrix
            fresh = next(spare)
            target += fresh
            terms.append(letter + fresh)
            constants.append(("eye", sizes[letter]))
            continue
        seen.add(letter)
        target += letter
        if letter not in available:  # summed within this operand alone: broadcast back by ones
            terms.append(letter)
            constants.append(("ones", sizes[letter]))
            available.add(letter)
    return ",".join([output, *others, *terms]) + "->" + target, constants


def _constant(kind, n, dtype):
    return np.ones(n, dtype) if kind == "ones" else np.eye(n, dtype=dtype)


def _contract(equation, operands):
    """The einsum of arrays with numpy, or, when a tensor is among them (create_graph), recorded."""
    if any(isinstance(x, Tensor) for x in operands):
        return einsum(equation, *[x if isinstance(x, Tensor) else Tensor._wrap(x) for x in operands])
    return np.einsum(equation, *operands, optimize=len(operands) > 2)


@public("einsum")
def einsum(equation, *operands):
    """Sum of products over the letters the output leaves out; operands as arguments or in one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    arrays = [x._array for x in operands]
    inputs, output = _spelled_out(equation, [a.shape for a in arrays])
    sizes = _sizes(inputs, arrays)
    stretched = [np.broadcast_to(a, tuple(sizes[c] for c in s)) for a, s in zip(arrays, inputs)]
    plain = ",".join(inputs) + "->" + output
    value = np.einsum(plain, *stretched, optimize=len(arrays) > 2)
    out = Tensor._wrap(np.array(value, dtype=np.result_type(*arrays)))  # a copy: numpy may return a view
    return recorded(out, tuple(operands), EinsumBackward0, plain, inputs, output, sizes, operands)


def _spelled_out(equation, shapes):
    """The input subscripts and the output's, letters only (see the module's docstring)."""
    text = equation.replace(" ", "")
    left, arrow, right = text.partition("->")
    terms = left.split(",")
    if len(terms) != len(shapes):
        more = "more" if len(shapes) > len(terms) else "fewer"
        raise RuntimeError(f"einsum(): {more} operands were provided than specified in the equation")
    used = {c for c in text if c in string.ascii_letters}
    spare = [c for c in string.ascii_letters if c not in used]
    widths = [_ellipsis_width(term, shape, i) for i, (term, shape) in enumerate(zip(terms, shapes))]
    filler = "".join(spare[: max(widths, default=0)])
    inputs = [term.replace("...", filler[len(filler) - w:]) for term, w in zip(terms, widths)]
    if arrow:
        output = right.replace("...", filler)
        _check_output(output, "".join(inputs))
    else:
        named = left.replace("...", "").replace(",", "")
        output = filler + "".join(sorted(c for c in set(named) if named.count(c) == 1))
    return inputs, output


def _ellipsis_width(term, shape, index):
    """How many dimensions the ``...`` of one operand stands for (0 without one)."""
    named = len(term.replace("...", ""))
    if "..." not in term:
        if named != len(shape):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({named}) does not match the number of "
                f"dimensions ({len(shape)}) for operand {index} and no ellipsis was given"
            )
        return 0
    if named > len(shape):
        raise RuntimeError(
            f"einsum(): the number of subscripts in the equation ({named}) is more than the number of "
            f"dimensions ({len(shape)}) for operand {index}"
        )
    return len(shape) - named


def _check_output(output, letters):
    for c in output:
        if output.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
        if c not in letters:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input operand")


def _sizes(inputs, arrays):
    """Each letter's size: a letter of size 1 broadcasts against a larger one, as in PyTorch."""
    sizes = {}
    for i, (term, array) in enumerate(zip(inputs, arrays)):
        own = {}
        for c, n in zip(term, array.shape):
            if own.setdefault(c, n) != n:
                raise RuntimeError(
                    f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, {own[c]} != {n}"
                )
            seen = sizes.get(c, 1)
            if n != 1 and seen != 1 and n != seen:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {n} for operand {i} which does not broadcast with "
                    f"previously seen size {seen}"
                )
            if n != 1 or c not in sizes:
                sizes[c] = n
    return sizes
