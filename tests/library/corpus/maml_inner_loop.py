# MAML (Finn et al.; the learn2learn and higher style loops): an inner SGD step by autograd.grad(create_graph=True), the outer loss on the adapted weights, the meta-gradient against first-order MAML.
import torch
import torch.nn.functional as F

torch.manual_seed(0)

w1 = (torch.randn(8, 1) * 0.5).requires_grad_()
b1 = torch.zeros(8, requires_grad=True)
w2 = (torch.randn(1, 8) * 0.5).requires_grad_()
b2 = torch.zeros(1, requires_grad=True)
params = [w1, b1, w2, b2]


def forward(x, params):
    w1, b1, w2, b2 = params
    return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


def sample_task():
    amplitude = torch.rand(1) * 4.0 + 1.0
    phase = torch.rand(1) * 3.0
    xs = torch.rand(10, 1) * 10.0 - 5.0
    ys = amplitude * torch.sin(xs + phase)
    return xs[:5], ys[:5], xs[5:], ys[5:]


inner_lr = 0.01
meta_opt = torch.optim.Adam(params, lr=1e-3)
tasks = [sample_task() for _ in range(2)]

# one inner step on the support set, keeping the graph of the step itself
x_s, y_s, x_q, y_q = tasks[0]
support_loss = F.mse_loss(forward(x_s, params), y_s)
grads = torch.autograd.grad(support_loss, params, create_graph=True)
print([g.grad_fn is not None for g in grads])
adapted = [p - inner_lr * g for p, g in zip(params, grads)]
print([type(a.grad_fn).__name__ for a in adapted])
query_loss = F.mse_loss(forward(x_q, adapted), y_q)
meta_grads = torch.autograd.grad(query_loss, params, retain_graph=True)
print(f"support {support_loss.item():.4f} query {query_loss.item():.4f}")
print(meta_grads[3])

# first-order MAML drops the second derivative: the grads are constants
grads_fo = torch.autograd.grad(F.mse_loss(forward(x_s, params), y_s), params)
print([g.requires_grad for g in grads_fo])
adapted_fo = [p - inner_lr * g for p, g in zip(params, grads_fo)]
fo_grads = torch.autograd.grad(F.mse_loss(forward(x_q, adapted_fo), y_q), params)
print(torch.allclose(fo_grads[3], meta_grads[3]), (fo_grads[0] - meta_grads[0]).abs().max().item() > 0)

# the meta-update averages the query losses over tasks
for it in range(2):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for x_s, y_s, x_q, y_q in tasks:
        grads = torch.autograd.grad(F.mse_loss(forward(x_s, params), y_s), params, create_graph=True)
        adapted = [p - inner_lr * g for p, g in zip(params, grads)]
        meta_loss = meta_loss + F.mse_loss(forward(x_q, adapted), y_q)
    meta_loss = meta_loss / len(tasks)
    meta_loss.backward()
    meta_opt.step()
    print(f"meta step {it}: {meta_loss.item():.4f}, |grad w1| {w1.grad.norm().item():.4f}")
print(b2.grad)
