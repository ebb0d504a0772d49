# karpathy/llm.c doc/layernorm/layernorm.py: LayerNorm forward with a cache, the backward (dx, dw, db) derived by hand, checked against autograd and F.layer_norm.
import torch
import torch.nn.functional as F

eps = 1e-5


class LayerNorm:
    @staticmethod
    def forward(x, w, b):
        B, T, C = x.size()
        mean = x.sum(-1, keepdim=True) / C
        xshift = x - mean
        var = (xshift ** 2).sum(-1, keepdim=True) / C
        rstd = (var + eps) ** -0.5
        norm = xshift * rstd
        out = norm * w + b
        cache = (x, w, mean, rstd)
        return out, cache

    @staticmethod
    def backward(dout, cache):
        x, w, mean, rstd = cache
        norm = (x - mean) * rstd
        db = dout.sum((0, 1))
        dw = (dout * norm).sum((0, 1))
        dnorm = dout * w
        dx = dnorm - dnorm.mean(-1, keepdim=True) - norm * (dnorm * norm).mean(-1, keepdim=True)
        dx *= rstd
        return dx, dw, db


torch.manual_seed(0)
B, T, C = 2, 3, 4
x = torch.randn(B, T, C, requires_grad=True)
w = torch.randn(C, requires_grad=True)
b = torch.randn(C, requires_grad=True)
out, cache = LayerNorm.forward(x, w, b)
print(out.shape, [t.shape for t in cache])
print(out.grad_fn.name())

dout = torch.randn(B, T, C)
fakeloss = (out * dout).sum()
fakeloss.backward()
dx, dw, db = LayerNorm.backward(dout, cache)
print("dx error:", (x.grad - dx).abs().max().item() < 1e-5)
print("dw error:", (w.grad - dw).abs().max().item() < 1e-5)
print("db error:", (b.grad - db).abs().max().item() < 1e-5)
print(dx.shape, dw.shape, db.shape)
print(dx.requires_grad, dw.requires_grad)
print(db)

# the library's own layer norm agrees, forward and backward
x2 = x.detach().clone().requires_grad_()
w2 = w.detach().clone().requires_grad_()
b2 = b.detach().clone().requires_grad_()
out2 = F.layer_norm(x2, (C,), w2, b2, eps)
print(out2.grad_fn.name())
print("forward:", (out2 - out).abs().max().item() < 1e-5)
(out2 * dout).sum().backward()
print("F dx:", (x2.grad - dx).abs().max().item() < 1e-5)
print("F dw:", (w2.grad - dw).abs().max().item() < 1e-5)
print("F db:", (b2.grad - db).abs().max().item() < 1e-5)
mean, rstd = cache[2], cache[3]
print(mean.squeeze(-1))
print(torch.allclose(rstd, 1 / torch.sqrt(x.var(-1, unbiased=False, keepdim=True) + eps)))
