"""Trigonometric and hyperbolic functions (sin, cos, sinh, cosh) and their backward nodes.

Each node saves its input: the derivative of each is the other function of the same input.
"""
import numpy as np

from ..autograd.graph import recorded
from ..autograd.node_kinds import SavesInput
from ..public_names import public
from ._operands import dispatch
from .pointwise import _float, _wrap


class SinBackward0(SavesInput):
    __slots__ = ()

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.cos, cos)

    def jvp(self, tangent):
        (self_,) = self.saved_tensors
        return tangent * np.cos(self_)


class CosBackward0(SavesInput):
    __slots__ = ()

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * -dispatch(self_, np.sin, sin)


class SinhBackward0(SavesInput):
    __slots__ = ()

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.cosh, cosh)


class CoshBackward0(SavesInput):
    __slots__ = ()

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.sinh, sinh)


@public("sin", methods="sin")
def sin(input):
    return recorded(_wrap(np.sin(_float(input._array))), (input,), SinBackward0, input)


@public("cos", methods="cos")
def cos(input):
    return recorded(_wrap(np.cos(_float(input._array))), (input,), CosBackward0, input)


@public("sinh", methods="sinh")
def sinh(input):
    return recorded(_wrap(np.sinh(_float(input._array))), (input,), SinhBackward0, input)


@public("cosh", methods="cosh")
def cosh(input):
    return recorded(_wrap(np.cosh(_float(input._array))), (input,), CoshBackward0, input)
