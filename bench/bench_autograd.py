"""How fast is minigrad next to PyTorch? Seven workloads, one table.

    PYTHONPATH=solutions .venv/bin/python bench/bench_autograd.py [--save]

W1  per-operation overhead: 1,000 element-wise operations on a shape-(4,) tensor, forward
    and backward (the cost of Python, not of arithmetic);
W2  an MLP training step (64 -> 128 -> 1, ReLU, batch 256, BCE with logits, SGD), 50 steps;
W3  a 1024 x 1024 matrix product, forward and backward (the cost of the BLAS);
W4  backward through chains of 250k, 500k and 1M operations: it must finish, without
    recursion, in time linear in the length;
W5  the memory a 100,000-operation graph holds, and what backward gives back;
W6  a small GPT's training step (the capstone's: 2 blocks of causal self-attention with 4 heads,
    LayerNorm, a GELU MLP, tied embeddings; 64 wide, 32 tokens of context, batch 32; AdamW with
    decay groups, gradient clipping);
W7  a LeNet training step (d2l's: two 5x5 convolutions, sigmoid, 2x2 average pooling, three linear
    layers; batch 256 of 1x28x28, cross-entropy, SGD). ``--only W7`` also times numpy's floor: the
    same step's convolutions alone as im2col and matrix products in plain numpy.

Times are the best of several runs. W1-W3 run with one thread (PyTorch's
``set_num_threads(1)``, and numpy's BLAS limited by threadpoolctl when it is installed)
and with each library's default threads; the ratio is minigrad / PyTorch, measured in
the same run. W3 runs again in a child process without ``OPENBLAS_CORETYPE`` and
``OPENBLAS_L2_SIZE`` (see README.md), W5 in one fresh process per library.
"""
import argparse
import contextlib
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

import minigrad

try:
    import torch
except ImportError:
    torch = None

try:
    import threadpoolctl
except ImportError:
    threadpoolctl = None

LIBRARIES = {"minigrad": minigrad, **({"torch": torch} if torch is not None else {})}
TARGETS = {"W1": "<= 1.0", "W2": "<= 1.5", "W3": "<= 1.1", "W6": "<= 2.0", "W7": "<= 2.0"}
OPENBLAS_OVERRIDES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")  # read once, when numpy loads OpenBLAS
SAVED = Path(__file__).resolve().parent / "results" / "autograd.json"


def best_time(run, repeats):
    """The fastest of ``repeats`` runs, in seconds: the least disturbed measurement."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


@contextlib.contextmanager
def threads(count):
    """Limit PyTorch and numpy's BLAS to ``count`` threads (None: leave their defaults)."""
    if count is None:
        yield
        return
    previous = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(count)
    limits = threadpoolctl.threadpool_limits(count, user_api="blas") if threadpoolctl else contextlib.nullcontext()
    try:
        with limits:
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(previous)


# ---------------------------------------------------------------- W1: per-operation overhead


def chain_of_ops(lib, x, length):
    """``length`` element-wise operations, a mix of tensor-number and tensor-tensor ones."""
    y = x
    for _ in range(length // 4):
        y = y * 1.01
        y = y + x
        y = y.sin()
        y = y - 0.5
    return y.sum()


def timed_backward(loss):
    start = time.perf_counter()
    loss.backward()
    return time.perf_counter() - start


def w1(lib, repeats=40):
    x = lib.ones(4, requires_grad=True)
    forward = best_time(lambda: chain_of_ops(lib, x, 1000), repeats)
    backward = min(timed_backward(chain_of_ops(lib, x, 1000)) for _ in range(repeats))
    return {"forward": forward, "backward": backward, "total": forward + backward}


# ---------------------------------------------------------------- W2: an MLP training step


def w2(lib, steps=50, repeats=3):
    rng = np.random.default_rng(0)
    inputs = lib.tensor(rng.standard_normal((256, 64)).astype(np.float32))
    targets = lib.tensor((rng.random((256, 1)) > 0.5).astype(np.float32))
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(64, 128), lib.nn.ReLU(), lib.nn.Linear(128, 1))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)

    def train():
        for _ in range(steps):
            optimizer.zero_grad()
            loss = lib.nn.functional.binary_cross_entropy_with_logits(model(inputs), targets)
            loss.backward()
            optimizer.step()

    return {"total": best_time(train, repeats)}


# ---------------------------------------------------------------- W3: a big matrix product


def w3(lib, repeats=10):
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((1024, 1024)).astype(np.float32), requires_grad=True)
    b = lib.tensor(rng.standard_normal((1024, 1024)).astype(np.float32), requires_grad=True)
    seed = lib.ones(1024, 1024)

    def product():
        a.grad = b.grad = None
        (a @ b).backward(seed)

    product()  # wake the BLAS threads up
    return {"total": best_time(product, repeats)}


def blas_description():
    """numpy's BLAS: library, kernel ("architecture") and threads, from threadpoolctl."""
    if threadpoolctl is None:
        return "unknown (pip install threadpoolctl to see it)"
    pools = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas" and "numpy" in p["filepath"]]
    return ", ".join(
        f"{p['internal_api']} {p['version']}, {p.get('architecture')} kernel, {p['num_threads']} threads" for p in pools
    )


# ---------------------------------------------------------------- W4: very deep graphs


def w4(lib, lengths=(250_000, 500_000, 1_000_000)):
    """Build chains of ``y = y * 1.0``; time the forward and the backward of each."""
    result = {}
    for length in lengths:
        x = lib.ones(1, requires_grad=True)
        y = x
        start = time.perf_counter()
        for _ in range(length):
            y = y * 1.0
        built = time.perf_counter() - start
        backward = timed_backward(y.sum())
        assert float(x.grad[0]) == 1.0
        result[length] = {"forward": built, "backward": backward}
        del x, y
        gc.collect()
    return result


# ---------------------------------------------------------------- W5: memory


def rss():
    """The process's resident memory in bytes (psutil), or nan without psutil."""
    try:
        import psutil
    except ImportError:
        return float("nan")
    return psutil.Process().memory_info().rss


def w5(lib, measure, length=100_000):
    """Memory held by the graph before backward, after it, and after ``del``, in bytes.

    ``measure`` is "resident" (the process's RSS) or "traced" (tracemalloc: numpy's and
    Python's allocations, exactly, but none of PyTorch's). They are measured in separate
    processes: tracemalloc's own bookkeeping would swell the RSS.
    """
    gc.collect()
    if measure == "traced":
        tracemalloc.start()
    current = (lambda: tracemalloc.get_traced_memory()[0]) if measure == "traced" else rss
    start = current()
    x = lib.ones(4, requires_grad=True)
    y = x
    for _ in range(length // 2):
        y = (y * 1.0001).sin()  # both operations save a tensor for backward
    result = {"graph": current() - start}
    y.sum().backward()
    result["after backward"] = current() - start
    del y
    gc.collect()
    result["after del"] = current() - start
    return result


# ---------------------------------------------------------------- W6: a small GPT's training step


def gpt(lib, vocab=28, context=32, width=64, heads=4, blocks=2):
    """A GPT as nanoGPT writes one, small: token and position embeddings, pre-norm blocks of causal
    self-attention and a GELU MLP, a final LayerNorm, and an output layer tied to the token embedding."""
    nn, F = lib.nn, lib.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
            self.register_buffer("mask", lib.tril(lib.ones(context, context)).view(1, 1, context, context))

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(width, dim=2)
            q, k, v = (z.view(b, t, heads, c // heads).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / (c // heads) ** 0.5)
            att = F.softmax(att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf")), dim=-1)
            x = x + self.proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))
            return x + self.mlp(self.ln2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(context, width)
            self.blocks = nn.ModuleList([Block() for _ in range(blocks)])
            self.ln_f, self.head = nn.LayerNorm(width), nn.Linear(width, vocab, bias=False)
            self.head.weight = self.wte.weight

        def forward(self, idx):
            x = self.wte(idx) + self.wpe(lib.arange(idx.shape[1]))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln_f(x))

    return GPT()


def w6(lib, repeats=5, batch=32, context=32, vocab=28):
    rng = np.random.default_rng(0)
    tokens = rng.integers(0, vocab, (batch, context + 1))
    inputs, targets = lib.tensor(tokens[:, :-1]), lib.tensor(tokens[:, 1:])
    lib.manual_seed(0)
    model = gpt(lib, vocab, context)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    optimizer = lib.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                                lr=1e-3, betas=(0.9, 0.95))

    def step():
        logits = model(inputs)
        loss = lib.nn.functional.cross_entropy(logits.view(-1, vocab), targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        lib.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    step()
    return {"total": best_time(step, repeats)}


# ---------------------------------------------------------------- W7: a LeNet training step


def lenet(lib):
    nn = lib.nn
    return nn.Sequential(nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                         nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                         nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Linear(120, 84), nn.Sigmoid(),
                         nn.Linear(84, 10))


def w7(lib, repeats=10):
    rng = np.random.default_rng(0)
    images = lib.tensor(rng.standard_normal((256, 1, 28, 28)).astype(np.float32))
    labels = lib.tensor(rng.integers(0, 10, 256))
    lib.manual_seed(0)
    model = lenet(lib)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)

    def step():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()

    step()
    return {"total": best_time(step, repeats)}


def im2col(x, kernel, padding):
    """(N, C·K·K, OH·OW): every window of x as a column, a copy."""
    n, c, h, w = x.shape
    if padding:
        padded = np.zeros((n, c, h + 2 * padding, w + 2 * padding), x.dtype)
        padded[:, :, padding:padding + h, padding:padding + w] = x
        x = padded
    out = x.shape[2] - kernel + 1
    sn, sc, sh, sw = x.strides
    windows = np.lib.stride_tricks.as_strided(x, (n, c, kernel, kernel, out, out), (sn, sc, sh, sw, sh, sw))
    return windows.reshape(n, c * kernel * kernel, out * out)


def w7_numpy_floor(repeats=10):
    """The convolutions of W7's step in plain numpy: each forward (im2col, weight @ cols), each weight's gradient
    (grad @ colsᵀ over the batch) and the second one's input gradient (weightᵀ @ grad, then col2im)."""
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((256, 1, 28, 28)).astype(np.float32)
    x2 = rng.standard_normal((256, 6, 14, 14)).astype(np.float32)
    w1, w2 = (rng.standard_normal(s).astype(np.float32) for s in ((6, 25), (16, 150)))
    g1, g2 = (rng.standard_normal(s).astype(np.float32) for s in ((256, 6, 784), (256, 16, 100)))

    def step():
        for x, w, g, padding in ((x1, w1, g1, 2), (x2, w2, g2, 0)):
            cols = im2col(x, 5, padding)
            w @ cols  # forward
            np.matmul(g, np.swapaxes(im2col(x, 5, padding), 1, 2)).sum(0)  # weight's gradient, columns made again
        columns = (w2.T @ g2).reshape(256, 6, 5, 5, 10, 10)
        grad_input = np.zeros((256, 6, 14, 14), np.float32)
        for i in range(5):
            for j in range(5):
                grad_input[:, :, i:i + 10, j:j + 10] += columns[:, :, i, j]

    step()
    return best_time(step, repeats)


# ---------------------------------------------------------------- running and printing

WORKLOADS = {"W1": w1, "W2": w2, "W3": w3, "W6": w6, "W7": w7}


def compare(name):
    """A workload on every library, with one thread and with the defaults."""
    results = {}
    for setting, count in (("1 thread", 1), ("default threads", None)):
        with threads(count):
            results[setting] = {lib: WORKLOADS[name](module) for lib, module in LIBRARIES.items()}
    return results


def in_child(args, env=None):
    """Run this script with ``args`` in a fresh process and read the JSON it prints."""
    child = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(child.stdout)


def print_rows(name, results):
    """One row per part of a workload: minigrad, PyTorch and their ratio, per thread setting. Returns the
    ratios, ``{row: {setting: ratio}}``."""
    parts = results["1 thread"]["minigrad"]
    ratios = {}
    for part in parts:
        cells = []
        label = name if len(parts) == 1 else f"{name} {part}"
        for setting in ("1 thread", "default threads"):
            ours = results[setting]["minigrad"][part]
            theirs = results[setting].get("torch", {}).get(part)
            ratio = f"{ours / theirs:5.2f}" if theirs else ""
            cells.append(f"{ours * 1e3:9.2f} | {theirs * 1e3 if theirs else float('nan'):9.2f} | {ratio:>5}")
            if theirs:
                ratios.setdefault(label, {})[setting] = round(ours / theirs, 3)
        print(f"| {label:<26} | " + " | ".join(cells) + f" | {TARGETS.get(name[:2], ''):>6} |")
    return ratios


def print_header():
    print(f"numpy {np.__version__}; BLAS: {blas_description()}")
    if torch is not None:
        print(f"torch {torch.__version__}; {torch.get_num_threads()} threads by default; "
              f"CPU capability {torch.backends.cpu.get_cpu_capability()}; MKL {torch.backends.mkl.is_available()}")
    print(" ".join(f"{name}={os.environ.get(name)}" for name in OPENBLAS_OVERRIDES))
    print("\nTimes in ms, best of several runs; ratio = minigrad / PyTorch.\n")
    print("| workload                   |  minigrad |   PyTorch | ratio |  minigrad |   PyTorch | ratio | target |")
    print("|                            |  1 thread |  1 thread |       |   default |   default |       |        |")
    print("|----------------------------|-----------|-----------|-------|-----------|-----------|-------|--------|")


def print_deep_chains():
    print("\nW4: chains of y = y * 1.0 on a shape-(1,) tensor (PyTorch with 1 thread), times in s")
    print("| length    | minigrad forward | minigrad backward | per op   | PyTorch backward | per op   | ratio |")
    print("|-----------|------------------|-------------------|----------|------------------|----------|-------|")
    ours = w4(minigrad)
    with threads(1):
        theirs = w4(torch) if torch is not None else {}
    for length, mine in ours.items():
        cells = [f"{mine['forward']:16.2f}", f"{mine['backward']:17.2f}", f"{mine['backward'] / length * 1e6:5.2f} µs"]
        if length in theirs:
            other = theirs[length]["backward"]
            cells += [f"{other:16.2f}", f"{other / length * 1e6:5.2f} µs", f"{mine['backward'] / other:5.2f}"]
        print(f"| {length:>9,} | " + " | ".join(cells) + " |")
    longest = max(ours)
    return {"length": longest, "minigrad": ours[longest]["backward"] / longest * 1e6,
            "torch": theirs[longest]["backward"] / longest * 1e6 if longest in theirs else None}


def print_memory():
    print("\nW5: memory of a 100,000-operation graph, in MiB, each measurement in a fresh process")
    for name, measure in [(name, "resident") for name in LIBRARIES] + [("minigrad", "traced")]:
        result = in_child(["--only", "W5", "--lib", name, "--measure", measure])
        print(f"  {name:8} {measure:8}: " + ", ".join(f"{k} {v / 2**20:6.1f}" for k, v in result.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["W1", "W2", "W3", "W5", "W6", "W7"],
                        help="run one workload: W1, W2, W6 and W7 print their rows, W3 and W5 JSON (used for children)")
    parser.add_argument("--lib", choices=list(LIBRARIES), help="with --only W5: the library to measure")
    parser.add_argument("--measure", choices=["resident", "traced"], help="with --only W5: what to measure")
    parser.add_argument("--save", action="store_true",
                        help=f"also write the ratios to {SAVED.relative_to(SAVED.parents[2])} (README.md's speed table)")
    args = parser.parse_args()
    if args.only in ("W1", "W2", "W6", "W7"):
        print_header()
        print_rows(args.only, compare(args.only))
        if args.only == "W7":
            for setting, count in (("1 thread", 1), ("default threads", None)):
                with threads(count):
                    print(f"W7 numpy floor, {setting}: {w7_numpy_floor() * 1e3:.2f} ms (the convolutions alone, "
                          "im2col and matrix products)")
        return
    if args.only == "W3":
        print(json.dumps({"results": compare("W3"), "blas": blas_description()}))
        return
    if args.only == "W5":
        w5(LIBRARIES[args.lib], args.measure, length=100)  # one-time set-up costs are not the graph's
        print(json.dumps(w5(LIBRARIES[args.lib], args.measure)))
        return
    print_header()
    ratios = {}
    for name in WORKLOADS:
        ratios.update(print_rows(name, compare(name)))
    env = {k: v for k, v in os.environ.items() if k not in OPENBLAS_OVERRIDES}
    clean = in_child(["--only", "W3"], env)
    ratios.update(print_rows("W3 without OPENBLAS_* vars", clean["results"]))
    print(f"\nBLAS in the child without the OPENBLAS_* variables: {clean['blas']}")
    chain = print_deep_chains()
    print_memory()
    if args.save:
        save(ratios, chain)


def save(ratios, chain):
    """The run's ratios and W4's time per node, with the day and the machine, for README.md's speed table."""
    cores, model = len(os.sched_getaffinity(0)), cpu_model()
    run = {"date": time.strftime("%Y-%m-%d"), "machine": f"a {cores}-core {model}", "machine_zh": f" {cores} 核 {model} ",
           "blas": blas_description(), "targets": TARGETS, "ratios": ratios, "W4": chain}
    SAVED.parent.mkdir(exist_ok=True)
    SAVED.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n")
    print(f"\nwritten: {SAVED}; run `make build` to put it in README.md")


def cpu_model():
    """The processor's name, as Linux gives it."""
    with open("/proc/cpuinfo") as info:
        return next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "processor")

if __name__ == "__main__":
    main()
