# Karpathy, makemore part 2 (MLP): a character embedding table indexed by a batch, tanh hidden layer, F.cross_entropy, minibatches.
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail"]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
V = len(stoi)
block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + '.':
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
X = torch.tensor(X)
Y = torch.tensor(Y)
print(X.shape, X.dtype, Y.shape)
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((V, 2), generator=g)
W1 = torch.randn((6, 50), generator=g)
b1 = torch.randn(50, generator=g)
W2 = torch.randn((50, V), generator=g)
b2 = torch.randn(V, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
emb = C[X]
print(emb.shape, torch.cat(torch.unbind(emb, 1), 1).shape, emb.view(-1, 6).shape)
for i in range(30):
    ix = torch.randint(0, X.shape[0], (16,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
emb = C[X]
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(f"{F.cross_entropy(h @ W2 + b2, Y).item():.4f}")
