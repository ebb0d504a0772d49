# PyTorch docs, notes/autograd "Multithreaded Autograd": backward from several Python threads, each on its own graph.
import threading

import torch

results = []
lock = threading.Lock()


def train_fn():
    x = torch.ones(5, 5, requires_grad=True)
    y = (x + 3) * (x + 4) * 0.5
    y.sum().backward()
    with lock:
        results.append(x.grad[0, 0].item())


threads = [threading.Thread(target=train_fn) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(results)

shared = torch.ones(3, requires_grad=True)


def grad_only():
    (g,) = torch.autograd.grad((shared * shared).sum(), shared)
    with lock:
        results.append(g.tolist())


threads = [threading.Thread(target=grad_only) for _ in range(3)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(results[4:], shared.grad)
