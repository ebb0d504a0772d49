# pytorch/tutorials, "Forward-mode Automatic Differentiation": dual tensors, modules with dual parameters, functional_call, a custom jvp, func.jvp.
import functools

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is tangent)
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, 2 * primal * tangent), fwAD.unpack_dual(dual_output).tangent)

model = nn.Linear(5, 5)
input = torch.randn(4, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent

model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2), jvp.shape)


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3, dtype=torch.double)
with fwAD.dual_level():
    dual_output = Fn.apply(fwAD.make_dual(primal, tangent))
    print(torch.allclose(fwAD.unpack_dual(dual_output).tangent, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False))
primal0, tangent0, primal1, tangent1 = (torch.randn(2, 2) for _ in range(4))
primal_out, tangent_out = torch.func.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(torch.allclose(tangent_out, 2 * primal0 * tangent0 + 2 * primal1 * tangent1))
new_fn = functools.partial(fn, y=primal1)
print(torch.func.jvp(new_fn, (primal0,), (tangent0,))[1].shape)
