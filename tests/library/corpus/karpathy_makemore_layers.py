# Karpathy, makemore part 3 "PyTorch-ifying the code": Linear/BatchNorm1d/Tanh classes by hand, retain_grad on layer outputs, update-to-data ratios.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in ** 0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)

    def __call__(self, x):
        if self.training:
            xmean = x.mean(0, keepdim=True)
            xvar = x.var(0, keepdim=True)
        else:
            xmean, xvar = self.running_mean, self.running_var
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps)
        self.out = self.gamma * xhat + self.beta
        if self.training:
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


vocab, n_embd, block, n_hidden = 12, 5, 3, 20
C = torch.randn((vocab, n_embd), generator=g)
layers = [Linear(n_embd * block, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
          Linear(n_hidden, vocab, bias=False), BatchNorm1d(vocab)]
with torch.no_grad():
    layers[-1].gamma *= 0.1
parameters = [C] + [p for layer in layers for p in layer.parameters()]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
X = torch.randint(0, vocab, (40, block), generator=g)
Y = torch.randint(0, vocab, (40,), generator=g)
ud = []
for i in range(10):
    ix = torch.randint(0, X.shape[0], (16,), generator=g)
    x = C[X[ix]].view(16, -1)
    for layer in layers:
        x = layer(x)
    loss = F.cross_entropy(x, Y[ix])
    for layer in layers:
        layer.out.retain_grad()
    for p in parameters:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in parameters:
            p.data += -0.1 * p.grad
        ud.append([((0.1 * p.grad).std() / p.data.std()).log10().item() for p in parameters])
print(f"{loss.item():.4f}", len(ud[-1]))
t = layers[2].out
print(f"saturated {(t.abs() > 0.97).float().mean() * 100:.2f}%", t.grad.shape)
