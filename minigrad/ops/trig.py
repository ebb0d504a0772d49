"""Trigonometric and hyperbolic functions (sin, cos, sinh, cosh) and their backward nodes.

Each node saves its input: the derivative of each is the other function of the same input.
"""
import numpy as np

from ..autograd.graph import Node
from ..public_names import public
from ._operands import dispatch
from .pointwise import _float, _unary


class SinBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.cos, cos)

    def jvp(self, tangent):
        (self_,) = self.saved_tensors
        return tangent * np.cos(self_)


class CosBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * -dispatch(self_, np.sin, sin)


class SinhBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.cosh, cosh)


class CoshBackward0(Node):
    __slots__ = ()
    saved_names = ("self",)

    def backward(self, grad):
        (self_,) = self.saved_tensors
        return grad * dispatch(self_, np.sinh, sinh)


@public("sin", methods="sin")
def sin(input):
    return _unary(SinBackward0, input, np.sin(_float(input._array)), "self")


@public("cos", methods="cos")
def cos(input):
    return _unary(CosBackward0, input, np.cos(_float(input._array)), "self")


@public("sinh", methods="sinh")
def sinh(input):
    return _unary(SinhBackward0, input, np.sinh(_float(input._array)), "self")


@public("cosh", methods="cosh")
def cosh(input):
    return _unary(CoshBackward0, input, np.cosh(_float(input._array)), "self")
