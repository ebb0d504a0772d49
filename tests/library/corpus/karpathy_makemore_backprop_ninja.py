# Karpathy, makemore part 4 (becoming a backprop ninja): manual gradients of a cross-entropy chain compared with autograd by cmp().
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n, vocab, n_hidden = 8, 10, 16
Xb = torch.randn((n, 6), generator=g)
Yb = torch.randint(0, vocab, (n,), generator=g)
W1 = torch.randn((6, n_hidden), generator=g) * 0.5
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab), generator=g) * 0.1
b2 = torch.randn(vocab, generator=g) * 0.1
parameters = [W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True


def cmp(s, dt, t):
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f'{s:15s} | approximate: {str(app):5s} | maxdiff small: {maxdiff < 1e-6}')


hprebn = Xb @ W1 + b1
h = torch.tanh(hprebn)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h, hprebn]:
    t.retain_grad()
loss.backward()
print(f"{loss.item():.4f}")

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhprebn = (1.0 - h ** 2) * dh
dW1 = Xb.T @ dhprebn
db1 = dhprebn.sum(0)
for name, d, t in [('logprobs', dlogprobs, logprobs), ('probs', dprobs, probs), ('counts_sum_inv', dcounts_sum_inv, counts_sum_inv),
                   ('counts_sum', dcounts_sum, counts_sum), ('counts', dcounts, counts), ('norm_logits', dnorm_logits, norm_logits),
                   ('logit_maxes', dlogit_maxes, logit_maxes), ('logits', dlogits, logits), ('h', dh, h), ('W2', dW2, W2),
                   ('b2', db2, b2), ('hprebn', dhprebn, hprebn), ('W1', dW1, W1), ('b1', db1, b1)]:
    cmp(name, d, t)
loss_fast = F.cross_entropy(logits, Yb)
print('loss difference small:', (loss_fast - loss).abs().item() < 1e-6)
dlogits_fast = F.softmax(logits, 1)
dlogits_fast[range(n), Yb] -= 1
dlogits_fast /= n
cmp('logits (fast)', dlogits_fast, logits)
