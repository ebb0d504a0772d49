"""The layers: ``Linear``, the activations, ``Flatten``, ``Dropout``, and ``Sequential`` to chain them."""
import math
import operator
from collections import OrderedDict

from ..autograd.grad_mode import no_grad
from ..creation import empty, tensor
from ..ops import pointwise
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Linear(Module):
    """y = x Wᵀ + b: each of ``out_features`` outputs is a weighted sum of all ``in_features`` inputs.

    ``weight`` is (out_features, in_features) and ``bias`` (out_features), both
    initialised uniform in ±1/√in_features, drawn exactly as PyTorch draws them.
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_ with a=√5 is uniform in ±1/√fan_in (pytorch/pytorch#57109)
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class ReLU(Module):
    """max(0, x); with ``inplace``, written into the input itself (which is returned)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return input.relu_() if self.inplace else pointwise.relu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)): squashes to (0, 1)."""

    def forward(self, input):
        return pointwise.sigmoid(input)


class Tanh(Module):
    """tanh(x): squashes to (-1, 1)."""

    def forward(self, input):
        return pointwise.tanh(input)


class Softmax(Module):
    """Probabilities along ``dim``: exp(x) / Σ exp(x)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=4)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """Log-probabilities along ``dim``: the input ``NLLLoss`` expects."""

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=4)


class Flatten(Module):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one: (N, 28, 28) -> (N, 784)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout(Module):
    """While training, zero each element with probability ``p`` (and scale the rest by 1/(1-p)).

    In eval mode (``model.eval()``) it passes the input through unchanged.
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class BatchNorm1d(Module):
    """Normalise each feature over the batch, then scale by ``weight`` and shift by ``bias``.

    Training uses the batch's mean and (biased) variance and updates the running ones
    (``momentum`` of the new, with the unbiased variance); eval mode uses the running ones.
    Written with the operations, so its graph is theirs (PyTorch records one
    ``NativeBatchNormBackward0``); the values are the same.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.register_parameter("weight", None)
        self.register_parameter("bias", None)
        if affine:
            self.weight = Parameter(empty(num_features).fill_(1.0))
            if bias:  # PyTorch 2.13: an affine BatchNorm may scale without shifting
                self.bias = Parameter(empty(num_features).fill_(0.0))
        if track_running_stats:
            self.register_buffer("running_mean", empty(num_features).fill_(0.0))
            self.register_buffer("running_var", empty(num_features).fill_(1.0))
            self.register_buffer("num_batches_tracked", tensor(0))

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        dims = (0, *range(2, input.dim()))
        if self.training or not self.track_running_stats:
            mean, var = input.mean(dims), input.var(dims, unbiased=False)
            if self.training and self.track_running_stats:
                self._update_running_stats(input, mean, var)
        else:
            mean, var = self.running_mean, self.running_var
        shape = (1, -1) + (1,) * (input.dim() - 2)
        out = (input - mean.view(shape)) / (var.view(shape) + self.eps).sqrt()
        if self.weight is not None:
            out = out * self.weight.view(shape)
        if self.bias is not None:
            out = out + self.bias.view(shape)
        return out

    def _update_running_stats(self, input, mean, var):
        count = input.numel() / input.shape[1]
        with no_grad():
            self.num_batches_tracked.add_(1)
            self.running_mean.mul_(1 - self.momentum).add_(mean * self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(var * (self.momentum * count / max(count - 1, 1)))

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm2d(BatchNorm1d):
    """BatchNorm1d for images (N, C, H, W): each channel normalised over the batch and the pixels."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class Sequential(Module):
    """Modules run one after the other, each on the output of the one before.

    ``Sequential(a, b)`` names them "0", "1"; ``Sequential(OrderedDict(fc=a, act=b))``
    keeps the given names.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, index):
        """``model[0]`` is the first module; ``model[1:]`` a Sequential of the rest (names kept)."""
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        size = len(self)
        index = operator.index(index)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules.values())[index]

    def __setitem__(self, index, module):
        """``model[2] = nn.Linear(...)``: replace a module, keeping its name and place."""
        size = len(self)
        index = operator.index(index)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        self.add_module(list(self._modules)[index], module)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self
