"""Chapter 1's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from . import checks as chapter1
from . import kinks, rules

SHAPE = "shape.py"
ARITHMETIC = "rules/chapter1.py"
POWERS = "rules/chapter1.py"
POINTWISE = "rules/chapter1.py"
ADD_SELF = "        grad_self = sum_to(grad, self.self_shape)\n"
ADD_SCALED = "        scaled = grad if alpha == 1 else grad * alpha  # alpha 1 (nearly always): no multiplication\n"
SUB_SCALED = "        scaled = -grad if alpha == 1 else -grad * alpha\n"
DIV_OTHER = "grad_other = sum_to(-grad * self_ / (other * other), self.other_shape)"
POW0 = "return grad * (exponent * power(self_, exponent - 1))"
POW1_SELF = "grad_self = zeros_where(exponent == 0, grad * (exponent * self_ ** (exponent - 1)))"
POW1_EXPONENT = "grad_exponent = grad * zeros_where((self_ == 0) & (exponent >= 0), result * log_self)"
EXP_RULE, LOG_RULE = "return grad * result\n\n", "return grad / self_\n\n"
SQRT_RULE, TANH_RULE = "return grad / (2 * result)\n", "return grad * (1 - result * result)\n"
SUM_BY_KIND = ("    if isinstance(grad, (np.ndarray, np.generic)):\n"
               "        summed = grad.sum(axis=axes, keepdims=True) if axes else grad\n"
               "    else:\n        summed = grad.sum(dim=axes, keepdim=True) if axes else grad\n")
INSIDE = "(self_ >= (-np.inf if low is None else low)) * (self_ <= (np.inf if high is None else high))"

MUTANTS = {
    "sum_to with numpy only": ("1.3", [(SHAPE, "summed = grad.sum(dim=axes, keepdim=True) if axes else grad",
                                        "summed = np.sum(grad, axis=axes, keepdims=True) if axes else grad")],
                               chapter1.ONLY_ARRAYS),
    "sum_to with numpy's keepdims=1": ("1.3", [(SHAPE, SUM_BY_KIND, "    summed = grad.sum(axis=axes, keepdims=1) if axes else grad\n")],
                                       chapter1.KEEPDIM_NOT_A_BOOL),
    "sum_to relies on numpy's sum over no axes": (
        "1.3", [(SHAPE, "    if grad.shape == shape:\n        return grad\n", ""),
                (SHAPE, SUM_BY_KIND, "    summed = grad.sum(axis=axes, keepdims=True)\n")], chapter1.SUMMED_EVERYTHING),
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
    "* returns a list of one": ("1.4", [(ARITHMETIC, "    return grad_self, grad_other\n", "    return [grad_self]\n")],
                                chapter1.TWO_GRADIENTS),
    "+ forgets sum_to on its first input": ("1.5", [(ARITHMETIC, ADD_SELF, "        grad_self = grad\n")],
                                            chapter1.NOT_SUMMED),
    "+ forgets sum_to on its second input": (
        "1.5", [(ARITHMETIC, ADD_SCALED + "        grad_other = sum_to(scaled, self.other_shape)\n",
                 ADD_SCALED + "        grad_other = scaled\n")], chapter1.NOT_SUMMED),
    "+ ignores alpha": ("1.5", [(ARITHMETIC, ADD_SCALED, "        scaled = grad\n")], rules.ALPHA_IGNORED),
    "- forgets its sign": ("1.5", [(ARITHMETIC, SUB_SCALED, SUB_SCALED.replace("-grad", "grad"))], rules.SIGN_FORGOTTEN),
    "- ignores alpha": ("1.5", [(ARITHMETIC, SUB_SCALED, "        scaled = -grad\n")], rules.ALPHA_IGNORED),
    "+ computes a gradient nobody needs": (
        "1.5", [(ARITHMETIC, "    if need_self:\n        grad_self = sum_to(grad, self.self_shape)\n",
                 "    grad_self = sum_to(grad, self.self_shape)\n")], rules.UNNEEDED),
    "+ returns a list": ("1.5", [(ARITHMETIC, "    return grad_self, grad_other\n\n\n# SubBackward0",
                                  "    return [grad_self, grad_other]\n\n\n# SubBackward0")],
                         chapter1.A_LIST),
    "+ with numpy functions": ("1.5", [(ARITHMETIC, ADD_SCALED,
                                        "        scaled = __import__('numpy').multiply(grad, alpha)\n")],
                               chapter1.ONLY_ARRAYS),
    "- with tensor methods": ("1.5", [(ARITHMETIC, SUB_SCALED, "        scaled = grad.neg() * alpha\n")],
                              chapter1.ONLY_TENSORS),
    "/ with the sign of the quotient rule wrong": (
        "1.6", [(ARITHMETIC, DIV_OTHER, DIV_OTHER.replace("-grad", "grad"))], rules.QUOTIENT_SIGN),
    "/ without the square": ("1.6", [(ARITHMETIC, DIV_OTHER, DIV_OTHER.replace("(other * other)", "other"))],
                             rules.QUOTIENT_SQUARE),
    "/ forgets sum_to": ("1.6", [(ARITHMETIC, "sum_to(grad / other, self.self_shape)", "grad / other")],
                         chapter1.NOT_SUMMED),
    "/ computes a gradient nobody needs": (
        "1.6", [(ARITHMETIC, "    if need_other:\n        grad_other = sum_to(-grad",
                 "    if True:\n        grad_other = sum_to(-grad")], rules.UNNEEDED),
    "/ with numpy functions": ("1.6", [(ARITHMETIC, "sum_to(grad / other,",
                                        "sum_to(__import__('numpy').divide(grad, other),")], chapter1.ONLY_ARRAYS),
    "/ returns a list": ("1.6", [(ARITHMETIC, DIV_OTHER + "\n    return grad_self, grad_other",
                                  DIV_OTHER + "\n    return [grad_self, grad_other]")], chapter1.A_LIST),
    "** keeps the exponent": ("1.7", [(POWERS, POW0, "return grad * (exponent * power(self_, exponent))")],
                              rules.NOT_LOWERED),
    "** forgets the factor n": ("1.7", [(POWERS, POW0, "return grad * power(self_, exponent - 1)")], rules.NO_FACTOR),
    "** 0 by the formula": ("1.7", [(POWERS, "    if exponent == 0:", "    if False:")], rules.ZERO_EXPONENT),
    "** of tensors by the formula at 0": (
        "1.7", [(POWERS, POW1_SELF, "grad_self = grad * (exponent * self_ ** (exponent - 1))"),
                (POWERS, POW1_EXPONENT, "grad_exponent = grad * (result * log_self)")], rules.AT_ZERO),
    "** of tensors keeps the exponent": ("1.7", [(POWERS, "self_ ** (exponent - 1)))", "self_ ** exponent))")],
                                         rules.NOT_LOWERED),
    "** of tensors forgets sum_to": ("1.7", [(POWERS, "grad_self = sum_to(grad_self, self.self_shape)", "pass")],
                                     chapter1.NOT_SUMMED),
    "** of tensors computes a gradient nobody needs": (
        "1.7", [(POWERS, "    if need_exponent:", "    if True:")], rules.UNNEEDED),
    "** of tensors with numpy's log only": (
        "1.7", [(POWERS, "dispatch(self_, np.log, pointwise.log)", "np.log(self_)")], chapter1.ONLY_ARRAYS),
    "** of tensors with minigrad's log only": ("1.7", [(POWERS, "dispatch(self_, np.log, pointwise.log)",
                                                        "pointwise.log(self_)")], chapter1.ONLY_TENSORS),
    "** of tensors with np.where": (
        "1.7", [(POWERS, POW1_SELF, POW1_SELF.replace("zeros_where(exponent == 0,", "np.where(exponent == 0, 0,"))],
        chapter1.WRONG_KIND),
    "exp applied to its saved result": ("1.8", [(POINTWISE, EXP_RULE, "return grad * dispatch(result, np.exp, pointwise.exp)\n\n")],
                                        rules.EXP_VALUE),
    "log multiplies by its input": ("1.8", [(POINTWISE, LOG_RULE, "return grad * self_\n\n")], rules.LOG_VALUE),
    "log divides by its result": ("1.8", [(POINTWISE, LOG_RULE, "return grad / dispatch(self_, np.log, pointwise.log)\n\n")],
                                  rules.LOG_VALUE),
    "exp with numpy functions": ("1.8", [(POINTWISE, EXP_RULE, "return np.multiply(grad, result)\n\n")],
                                 chapter1.ONLY_ARRAYS),
    "log returns a list": ("1.8", [(POINTWISE, LOG_RULE, "return [grad / self_]\n\n")], chapter1.A_LIST),
    "sqrt without its factor 1/2": ("1.8", [(POINTWISE, SQRT_RULE, "return grad / result\n")], rules.SQRT_HALF),
    "sqrt takes the square root of its saved result": (
        "1.8", [(POINTWISE, SQRT_RULE, "return grad / (2 * result ** 0.5)\n")], rules.SQRT_VALUE),
    "tanh computed from the input instead of the result": (
        "1.8", [(POINTWISE, TANH_RULE, "return grad * (1 - dispatch(result, np.tanh, pointwise.tanh) ** 2)\n")], rules.TANH_VALUE),
    "abs with a slope of 1 at 0": ("C1", [(POINTWISE, "return grad * dispatch(self_, np.sign, sign)",
                                           "return grad * ((self_ >= 0) * 2.0 - 1.0)")], kinks.ABS_AT_ZERO),
    "clamp without its bounds": ("C1", [(POINTWISE, INSIDE, "(self_ > (-np.inf if low is None else low)) * "
                                         "(self_ < (np.inf if high is None else high))")], kinks.BOUNDS_EXCLUDED),
    "clamp with a bound of None": ("C1", [(POINTWISE, INSIDE, "(self_ >= low) * (self_ <= high)")], kinks.NO_BOUND),
}
