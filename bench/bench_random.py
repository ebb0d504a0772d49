"""Time minigrad's random numbers against PyTorch's (one thread), and print a table.

    PYTHONPATH=solutions python bench/bench_random.py

Each figure is the best of several repeats, per call. Targets: randn(1000, 1000)
within 20x of torch; randn(5, 3) under 100 us per call. Without torch installed,
only minigrad's column is printed.
"""
import timeit

import numpy as np

from minigrad import random as mr

try:
    import torch
except ImportError:
    torch = None

# (label, minigrad call, torch call): each draws from a generator seeded once.
CASES = [
    ("randn(1000, 1000) f32", lambda g: g._normal((1000, 1000), np.float32),
     lambda g: torch.randn(1000, 1000, generator=g)),
    ("randn(1000, 1000) f64", lambda g: g._normal((1000, 1000), np.float64),
     lambda g: torch.randn(1000, 1000, dtype=torch.float64, generator=g)),
    ("randn(5, 3) f32", lambda g: g._normal((5, 3), np.float32),
     lambda g: torch.randn(5, 3, generator=g)),
    ("rand(1000, 1000) f32", lambda g: g._uniform((1000, 1000), np.float32),
     lambda g: torch.rand(1000, 1000, generator=g)),
    ("rand(1000, 1000) f64", lambda g: g._uniform((1000, 1000), np.float64),
     lambda g: torch.rand(1000, 1000, dtype=torch.float64, generator=g)),
    ("uniform_(-b, b) 1e6 f32", lambda g: g._uniform((1000, 1000), np.float32, -0.3, 0.3),
     lambda g: torch.empty(1000, 1000).uniform_(-0.3, 0.3, generator=g)),
    ("randint(0, 10, 1e6)", lambda g: g._randint(0, 10, (1000, 1000)),
     lambda g: torch.randint(0, 10, (1000, 1000), generator=g)),
    ("randperm(10000)", lambda g: g._randperm(10000),
     lambda g: torch.randperm(10000, generator=g)),
]


def seconds_per_call(call, generator):
    """Best of five repeats, each long enough (>= 0.2 s) to average out the timer."""
    timer = timeit.Timer(lambda: call(generator))
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


def show(seconds):
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


def main():
    if torch is not None:
        torch.set_num_threads(1)
    print(f"profile: {mr.get_profile()}" + (f", torch {torch.__version__}, 1 thread" if torch else ", no torch"))
    print(f"{'operation':<26}{'torch':>12}{'minigrad':>12}{'ratio':>9}")
    for label, ours, theirs in CASES:
        mine = seconds_per_call(ours, mr.Generator().manual_seed(0))
        reference = seconds_per_call(theirs, torch.Generator().manual_seed(0)) if torch else None
        ratio = f"{mine / reference:.1f}x" if reference else "-"
        print(f"{label:<26}{show(reference):>12}{show(mine):>12}{ratio:>9}")


if __name__ == "__main__":
    main()
