# Karpathy, makemore part 3 (activations, gradients, BatchNorm): Kaiming-scaled weights, batch norm by hand, running statistics, saturated tanh units.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n_embd, n_hidden, vocab, block = 4, 32, 12, 3
C = torch.randn((vocab, n_embd), generator=g)
W1 = torch.randn((n_embd * block, n_hidden), generator=g) * (5 / 3) / ((n_embd * block) ** 0.5)
W2 = torch.randn((n_hidden, vocab), generator=g) * 0.01
b2 = torch.randn(vocab, generator=g) * 0
bngain = torch.ones((1, n_hidden))
bnbias = torch.zeros((1, n_hidden))
bnmean_running = torch.zeros((1, n_hidden))
bnstd_running = torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
Xtr = torch.randint(0, vocab, (64, block), generator=g)
Ytr = torch.randint(0, vocab, (64,), generator=g)
for i in range(20):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
print(f"{loss.item():.4f}")
print((h.abs() > 0.99).float().mean())
print(bnmean_running.shape, bnstd_running[0, :3])
print(W1.grad.std() / W1.data.std() > 0, bngain.grad.shape)
