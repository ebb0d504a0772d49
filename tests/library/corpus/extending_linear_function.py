# PyTorch docs, notes/extending "Extending torch.autograd": a Linear Function with setup_context and needs_input_grad, checked by gradcheck, inside a Module.
import torch
from torch import nn
from torch.autograd import Function, gradcheck

torch.manual_seed(0)
seen = []


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        seen.append(ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


def linear(input, weight, bias=None):
    return LinearFunction.apply(input, weight, bias)


inputs = (torch.randn(4, 3, dtype=torch.double, requires_grad=True),
          torch.randn(5, 3, dtype=torch.double, requires_grad=True))
print(gradcheck(linear, inputs, eps=1e-6, atol=1e-4))
print("needs_input_grad:", sorted(set(seen)))


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return f'input_features={self.input_features}, output_features={self.output_features}, bias={self.bias is not None}'


layer = Linear(3, 2)
print(layer)
out = layer(torch.randn(4, 3))
print(out.grad_fn)
out.sum().backward()
print("needs_input_grad:", seen[-1])
print(layer.weight.grad, layer.bias.grad)
