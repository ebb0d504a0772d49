# karpathy/nn-zero-to-hero makemore parts 2-3, written with modules: nn.Embedding, nn.Linear, nn.Tanh in a Sequential, F.cross_entropy, SGD steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

words = ["noah", "liam", "oliver", "elijah", "james", "william", "benjamin", "lucas", "henry", "theodore"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(stoi)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words[:8])
Xdev, Ydev = build_dataset(words[8:])
print(vocab_size, Xtr.shape, Ytr.shape, Xdev.shape)


class FlattenConsecutive(nn.Module):
    def forward(self, x):
        B, T, C = x.shape
        return x.view(B, T * C)


torch.manual_seed(42)
n_embd, n_hidden = 4, 32
model = nn.Sequential(
    nn.Embedding(vocab_size, n_embd),
    FlattenConsecutive(),
    nn.Linear(n_embd * block_size, n_hidden, bias=False),
    nn.BatchNorm1d(n_hidden),
    nn.Tanh(),
    nn.Linear(n_hidden, vocab_size),
)
with torch.no_grad():
    model[-1].weight *= 0.1
print(model)
print(sum(p.nelement() for p in model.parameters()))

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(20):
    ix = torch.randint(0, Xtr.shape[0], (16,))
    logits = model(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 5 == 0:
        print(f"{i:2d}: {loss.item():.4f}")

model.eval()
with torch.no_grad():
    for name, (X, Y) in {"train": (Xtr, Ytr), "dev": (Xdev, Ydev)}.items():
        print(name, f"{F.cross_entropy(model(X), Y).item():.4f}")
    print(model[0].weight.grad is None, model[0].weight.grad.shape)
    g = torch.Generator().manual_seed(2147483647)
    context = [0] * block_size
    out = []
    for _ in range(12):
        probs = F.softmax(model(torch.tensor([context])), dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        if ix == 0:
            break
        out.append(itos[ix])
    print("".join(out))
