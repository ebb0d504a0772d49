"""Checks for chapter 4's forward mode: the rules J·t of a few operators (4.5), and whole
Jacobians by rows with reverse mode (4.6) and by columns with forward mode (4.7)."""
import numpy as np

from ...autograd import forward_ad
from ...autograd.jacobians import Dual
from ...autograd.jacobians import jacobian_forward, jacobian_reverse
from ...messages import N_
from ...tensor import Tensor
from .. import draw, step
from ..backward_calls import as_in_backward


def _leaf(values, requires_grad=False):
    return Tensor._wrap(np.asarray(values, dtype=np.float32), requires_grad)


def _like(x, values):
    """A constant of ``x``'s dtype: central differences run the same function in float64."""
    return Tensor._wrap(np.asarray(values, dtype=x._array.dtype))


TERM_MISSING = N_(
    "one term is missing: both inputs had a tangent, but only one of them moved the output; each input that "
    "moves contributes a term of its own (reread exercise 4.5)."
)
NONE_TANGENT = N_(
    "an input without a tangent (None) made the rule fail: None means that input does not move, so its term is "
    "simply left out; do not compute with None, nor build zeros in its place (what that term multiplies may "
    "not even have been saved) (reread exercise 4.5)."
)
DIVISION_SIGN = N_(
    "the divisor's term has the wrong sign: check which way x / y moves when y grows a little "
    "(reread exercise 4.5)."
)
DIVISION_SQUARE = N_(
    "the divisor's term divides by the wrong power of y: differentiate 1 / y with respect to y again "
    "(reread exercise 4.5)."
)
TANGENT_FORGOTTEN = N_(
    "the derivative came back on its own, as if the tangent were 1: a forward rule gives the change of the "
    "output when the input moves by its tangent (reread exercise 4.5)."
)
FACTORS_SWAPPED = N_(
    "the matrix products have their factors in the wrong order: a matrix product does not commute, so a "
    "tangent stays on the side of the factor it moves (reread exercise 4.5)."
)


def _tangent_of(rule, *tangents):
    """A node's forward rule called as ``unpack_dual`` calls it: grad mode off, arrays in and out."""
    with as_in_backward():
        return rule(*tangents)


def _jvp(see, node, *tangents):
    """``node.jvp(*tangents)``, a failure on a None tangent named, never a traceback."""
    return see.attempt(lambda: _tangent_of(node.jvp, *tangents), ((TypeError, ValueError, AttributeError), NONE_TANGENT))


@step("4.5")
def the_product_rule_of_mul(see):
    x, y = _leaf([1.0, -2.0, 3.0], True), _leaf([0.5, 4.0, -1.0], True)
    dx, dy = np.array([1.0, 0.5, -2.0], np.float32), np.array([2.0, -1.0, 0.5], np.float32)
    node = (x * y).grad_fn
    see(_jvp(see, node, dx, dy), N_("the tangent of x * y"),
        mistakes=[(dx * y._array, TERM_MISSING), (x._array * dy, TERM_MISSING)])
    see(_jvp(see, node, dx, None), N_("the tangent of x * y when only x has a tangent"))
    see(_jvp(see, node, None, dy), N_("the tangent of x * y when only y has a tangent"))
    constant = (x * _leaf([3.0, 3.0, 3.0])).grad_fn  # y needs no gradient: x was not saved
    see(_jvp(see, constant, dx, None), N_("the tangent of x * c, c a constant"))


@step("4.5")
def the_quotient_rule_of_div(see):
    x, y = _leaf([1.0, -2.0, 3.0], True), _leaf([2.0, 4.0, -0.5], True)
    dx, dy = np.array([1.0, 0.5, -2.0], np.float32), np.array([2.0, -1.0, 0.5], np.float32)
    node = (x / y).grad_fn
    a, b = x._array, y._array
    see(_jvp(see, node, None, dy), N_("the tangent of x / y when only y has a tangent"),
        mistakes=[(dy * a / (b * b), DIVISION_SIGN), (-dy * a / b, DIVISION_SQUARE), (dy * a / b, DIVISION_SIGN)])
    see(_jvp(see, node, dx, dy), N_("the tangent of x / y"),
        mistakes=[(dx / b + dy * a / (b * b), DIVISION_SIGN), (dx / b - dy * a / b, DIVISION_SQUARE),
                  (dx / b, TERM_MISSING), (-dy * a / (b * b), TERM_MISSING)])
    see(_jvp(see, node, dx, None), N_("the tangent of x / y when only x has a tangent"))
    constant = (x / _leaf([2.0, 2.0, 2.0])).grad_fn  # x was not saved
    see(_jvp(see, constant, dx, None), N_("the tangent of x / c, c a constant"))


@step("4.5")
def the_product_rule_of_mm(see):
    a, b = _leaf([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0]], True), _leaf([[1.0, 0.0], [2.0, -1.0], [0.5, 1.5]], True)
    da, db = _leaf(draw.values(see.rng, (2, 3)))._array, _leaf(draw.values(see.rng, (3, 2)))._array
    node = (a @ b).grad_fn
    attempted = ((TypeError, ValueError, AttributeError), FACTORS_SWAPPED)
    see(see.attempt(lambda: _tangent_of(node.jvp, da, db), attempted), N_("the tangent of A @ B"),
        mistakes=[(da @ b._array, TERM_MISSING), (a._array @ db, TERM_MISSING)])
    see(_jvp(see, node, da, None), N_("the tangent of A @ B when only A has a tangent"))
    see(_jvp(see, node, None, db), N_("the tangent of A @ B when only B has a tangent"))


@step("4.5")
def the_chain_rule_of_pow(see):
    x = _leaf([1.0, -2.0, 0.0, 3.0], True)
    dx = np.array([0.5, 2.0, 1.0, -1.0], np.float32)
    see(_jvp(see, (x ** 3).grad_fn, dx), N_("the tangent of x ** 3"), mistakes=[(3 * x._array ** 2, TANGENT_FORGOTTEN)])
    see(_jvp(see, (x ** 0).grad_fn, dx), N_("the tangent of x ** 0 (zero everywhere, even where x is 0)"))


def _through(f, x, t):
    """The tangent of ``f(x)`` when ``x`` moves along ``t``, by minigrad's forward mode."""
    with forward_ad.dual_level():
        return forward_ad.unpack_dual(f(forward_ad.make_dual(x, t))).tangent


def _mixed(x):
    """Each rule of 4.5 once: x ** 2 / (1 + x) times a matrix product."""
    m = x.reshape(2, 2)
    return (m ** 2 / (m * m + 1)) @ m * x.reshape(2, 2)


def _moved(f, x, t, h):
    return f(Tensor._wrap(x._array.astype(np.float64) + h * t._array.astype(np.float64)))._array


@step("4.5")
def forward_mode_through_a_function_drawn_at_random(see):
    x = _leaf(draw.values(see.rng, (4,)))
    t = _leaf(draw.values(see.rng, (4,)))
    tangent = see.attempt(lambda: _through(_mixed, x, t), ((TypeError, ValueError, AttributeError), NONE_TANGENT))
    see.near(tangent, N_("the tangent of a function drawn at random, by forward mode"), atol=1e-4)
    central = (_moved(_mixed, x, t, 1e-4) - _moved(_mixed, x, t, -1e-4)) / 2e-4
    see.that(isinstance(tangent, Tensor) and np.allclose(tangent._array, central, rtol=1e-3, atol=1e-3),
             N_("the tangent agrees with central differences"))


TRANSPOSED = N_(
    "the Jacobian is transposed: PyTorch lays it out output first, J[i, j] = d y[i] / d x[j], so its shape is "
    "the output's shape followed by the input's (reread exercises 4.6 and 4.7)."
)
SEED_REUSED = N_(
    "each row or column holds the sum of all those before it: the one-hot seed (or .grad) was reused without "
    "being reset, so the previous 1s are still there (reread exercises 4.6 and 4.7)."
)
NOT_ONE_HOT = N_(
    "every row or column is the sum of all of them: the seed was not one-hot (a single 1 at one element, 0 "
    "everywhere else), so it asked for all of them at once (reread exercises 4.6 and 4.7)."
)
RETAIN_FORGOTTEN = N_(
    "the second vector-Jacobian product found the graph already freed: every product but the last must pass "
    "retain_graph=True, since all rows go back through the same graph (reread exercise 4.6)."
)
NONE_COLUMN = N_(
    "unpack_dual gave None as the tangent of an output that does not depend on x: that column of the Jacobian "
    "is zeros, of the output's shape (reread exercise 4.7)."
)
NOT_A_TENSOR = N_("jacobian must return a tensor")
NO_HISTORY = N_("the Jacobian carries no history (requires_grad is False), and x.grad is left alone")
CENTRAL = N_("the Jacobian agrees with central differences")


class _SecondBackward(Exception):
    """A backward through a graph already freed: the retain_graph forgotten between the rows."""


def _rows(f, x):
    try:
        return jacobian_reverse(f, x)
    except RuntimeError as error:
        if "a second time" in str(error):
            raise _SecondBackward from None
        raise


def _central(f, x, h=1e-5):
    """The Jacobian by central differences, in float64: output's shape, then the input's."""
    base = x._array.astype(np.float64)
    columns = []
    for j in range(base.size):
        step_ = np.zeros(base.size)
        step_[j] = h
        step_ = step_.reshape(base.shape)
        columns.append((f(Tensor._wrap(base + step_))._array - f(Tensor._wrap(base - step_))._array) / (2 * h))
    out = np.stack(columns, axis=-1)
    return out.reshape(out.shape[:-1] + base.shape)


def _mistaken(truth, shape_out, axis):
    """What the usual mistakes give for the Jacobian ``truth``, as float32 tensors."""
    flat = truth.reshape(int(np.prod(shape_out)), -1)
    summed = np.broadcast_to(flat.sum(axis=axis, keepdims=True), flat.shape)
    mistakes = [(_leaf(flat.T), TRANSPOSED), (_leaf(flat.T.reshape(truth.shape)), TRANSPOSED),
                (_leaf(np.cumsum(flat, axis=axis).reshape(truth.shape)), SEED_REUSED),
                (_leaf(summed.reshape(truth.shape)), NOT_ONE_HOT)]
    return [(wrong, message) for wrong, message in mistakes if wrong._array.size > 1]


def _see_jacobian(see, jacobian, f, x, axis):
    """What is seen of a Jacobian: a tensor, its shape and values, its agreement with central differences."""
    see.require(isinstance(jacobian, Tensor), NOT_A_TENSOR)
    truth = _central(f, x)
    shape_out = truth.shape[:truth.ndim - x._array.ndim]
    see(jacobian, N_("the Jacobian"), mistakes=_mistaken(truth, shape_out, axis))
    see.that(jacobian.shape == truth.shape and np.allclose(jacobian._array, truth, rtol=1e-3, atol=1e-3), CENTRAL)
    see.that(not jacobian.requires_grad and x.grad is None, NO_HISTORY)


def _wide(x):
    """R^3 -> R^2: more inputs than outputs."""
    return (_like(x, [[1.0, -1.0, 2.0], [0.5, 0.0, 1.0]]) @ (x * x).reshape(3, 1)).reshape(2) / (x.sum() + 10)


def _square(x):
    """R^2x2 -> R^2x2, with an asymmetric Jacobian: a transposed one shows."""
    return x @ (x * _like(x, [[1.0, 2.0], [-1.0, 0.5]]))


@step("4.6")
def rows_of_jacobians(see):
    x = _leaf([1.0, -2.0, 0.5], requires_grad=True)
    _see_jacobian(see, see.attempt(lambda: _rows(_wide, x), (_SecondBackward, RETAIN_FORGOTTEN)), _wide, x, 0)
    x = _leaf([[1.0, 2.0], [-0.5, 1.5]])
    _see_jacobian(see, see.attempt(lambda: _rows(_square, x), (_SecondBackward, RETAIN_FORGOTTEN)), _square, x, 0)


@step("4.6")
def rows_at_a_point_drawn_at_random(see):
    x = _leaf(draw.values(see.rng, (3,)) / 3 + 1)
    _see_jacobian(see, see.attempt(lambda: _rows(_wide, x), (_SecondBackward, RETAIN_FORGOTTEN)), _wide, x, 0)


def _columns(see, f, x):
    return see.attempt(lambda: jacobian_forward(f, x), ((TypeError, AttributeError), NONE_COLUMN))


@step("4.7")
def columns_of_jacobians(see):
    for x, f in ((_leaf([1.0, -2.0, 0.5]), _wide), (_leaf([[1.0, 2.0], [-0.5, 1.5]]), _square)):
        jacobian = _columns(see, f, x)
        _see_jacobian(see, jacobian, f, x, 1)
        rows = jacobian_reverse(f, x)
        see.that(np.allclose(jacobian._array, rows._array, rtol=1e-4, atol=1e-5),
                 N_("by columns (forward mode) and by rows (reverse mode), the same Jacobian"))


@step("4.7")
def columns_of_a_function_that_ignores_its_input(see):
    constant = _leaf([[1.0, 2.0]])
    see(_columns(see, lambda x: constant, _leaf([1.0, 2.0, 3.0])), N_("the Jacobian of a function that ignores x"))


@step("4.7")
def columns_at_a_point_drawn_at_random(see):
    x = _leaf(draw.values(see.rng, (2, 2)))
    _see_jacobian(see, _columns(see, _square, x), _square, x, 1)


# ---------------------------------------------------------------- challenge C4: dual numbers

DUAL_NOT_RETURNED = N_("each operation on a Dual must return a Dual (its value and its tangent)")


def _polynomial(x):
    """x·x + 3·x + 2, built from + and * alone (the Dual's, or the tensors')."""
    return x * x + x * 3 + 2


def _waves(x):
    """exp(sin(x)·x) + sin(x), through every operation of the challenge."""
    return (x.sin() * x).exp() + x.sin()


def _dual_run(f, x, t):
    out = f(Dual(x._array.astype(np.float64), t._array.astype(np.float64)))
    return out if isinstance(out, Dual) else None


@step("C4")
def dual_numbers_agree_with_forward_ad(see):
    x = _leaf(draw.values(see.rng, (4,)))
    t = _leaf(draw.values(see.rng, (4,)))
    for f, label in ((_polynomial, N_("the tangent of x·x + 3·x + 2, carried by Dual numbers")),
                     (_waves, N_("the tangent of exp(sin(x)·x) + sin(x), carried by Dual numbers"))):
        out = _dual_run(f, x, t)
        see.require(out is not None, DUAL_NOT_RETURNED)
        tangent = np.asarray(out.tangent, dtype=np.float64)
        see.near(tangent, label, atol=1e-4)
        see.that(tangent.shape == (4,) and np.allclose(tangent, _through(f, x, t)._array, rtol=1e-4, atol=1e-4),
                 N_("the Dual's tangent agrees with minigrad's forward mode (forward_ad)"))
