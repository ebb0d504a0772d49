"""Record PyTorch's CPU random numbers, so tests/library/test_random.py can check them without torch.

Run it where torch is installed (x86-64 with AVX2, the torch version the course pins):

    python tools/record_torch_rng.py

Each case seeds PyTorch's default generator and makes a few calls on it. The script
runs every case twice: here, where PyTorch uses its AVX2 kernels, and in a child
process with ATEN_CPU_CAPABILITY=default, where it uses its portable ones; those are
the two profiles of minigrad.random. It writes tests/data/torch_rng_reference.json:
each case's calls and results, plus "default_results" for the calls where the
portable kernels give other bits. Floats and state bytes are stored as hex of their
bytes, integers and booleans as lists; one case per line.
"""
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import torch

OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_rng_reference.json"
SHAPES = [[1], [3], [15], [16], [17], [31], [33], [5, 3], [4, 5, 6]]
BOUND = 1 / math.sqrt(7)


def _case(name, seed, calls):
    """seed None means the state of a fresh torch.Generator()."""
    return {"name": name, "seed": seed, "calls": calls}


def _grid_cases():
    for seed in (0, 1, 42):
        for op in ("rand", "randn"):
            for dtype in ("float32", "float64"):
                calls = [{"op": op, "shape": shape, "dtype": dtype} for shape in SHAPES]
                if seed == 0:
                    calls.append({"op": op, "shape": [1000], "dtype": dtype})
                yield _case(f"{op}-{dtype}-seed{seed}", seed, calls)


def _mixed_calls():
    """A sequence that passes the cached normal between calls of different kinds."""
    f32, f64 = "float32", "float64"
    return [
        {"op": "randn", "shape": [3], "dtype": f32}, {"op": "rand", "shape": [2], "dtype": f32},
        {"op": "randn", "shape": [1], "dtype": f32}, {"op": "state"},
        {"op": "randint", "low": 0, "high": 100, "shape": [5]}, {"op": "randn", "shape": [20], "dtype": f32},
        {"op": "randn", "shape": [3], "dtype": f64}, {"op": "state"},
        {"op": "rand", "shape": [3], "dtype": f64}, {"op": "randperm", "n": 7},
        {"op": "randn", "shape": [1], "dtype": f64}, {"op": "normal", "mean": 1.0, "std": 2.0, "shape": [4], "dtype": f32},
        {"op": "uniform_", "low": -2.0, "high": 3.0, "shape": [5], "dtype": f32},
        {"op": "bernoulli_p", "p": 0.5, "shape": [8], "dtype": f32}, {"op": "randn", "shape": [16], "dtype": f64},
        {"op": "state"},
    ]


def cases():
    yield _case("default-generator", None, [
        {"op": "state"}, {"op": "rand", "shape": [5], "dtype": "float32"},
        {"op": "randn", "shape": [20], "dtype": "float32"}, {"op": "randn", "shape": [5], "dtype": "float64"},
        {"op": "state"}])
    yield from _grid_cases()
    for dtype in ("float32", "float64"):
        yield _case(f"normal-mean-std-{dtype}", 0, [
            {"op": "normal", "mean": 0.5, "std": 2.5, "shape": shape, "dtype": dtype}
            for shape in ([3], [17], [5, 3], [100])])
        yield _case(f"uniform-bounds-{dtype}", 0, [
            {"op": "uniform_", "low": -BOUND, "high": BOUND, "shape": shape, "dtype": dtype}
            for shape in ([3], [17], [100])])
    yield _case("randint", 0, [
        {"op": "randint", "low": low, "high": high, "shape": [20]}
        for low, high in ((0, 10), (-5, 5), (0, 2**28 - 1), (0, 2**28), (0, 2**31), (-2**40, 2**40), (0, 2**62))])
    yield _case("randperm", 0, [{"op": "randperm", "n": n} for n in (0, 1, 2, 10, 1000)])
    yield _case("bernoulli", 0, [
        {"op": "bernoulli_p", "p": 0.3, "shape": [100], "dtype": "float32"},
        {"op": "bernoulli_probs", "n": 100, "dtype": "float32"},
        {"op": "bernoulli_probs", "n": 100, "dtype": "float64"}])
    yield _case("dropout", 0, [{"op": "dropout", "p": p, "n": 1000} for p in (0.3, 0.5)])
    for seed in (3, 7):
        yield _case(f"mixed-seed{seed}", seed, _mixed_calls())
    for seed in range(5):
        yield _case(f"linear-7-5-seed{seed}", seed, [{"op": "linear", "in": 7, "out": 5}])
    yield _case("state-after-624-words", 0, [
        {"op": "rand", "shape": [624], "dtype": "float32"}, {"op": "state"},
        {"op": "rand", "shape": [1], "dtype": "float32"}, {"op": "state"}])


def run_torch(call):
    """One call on PyTorch's default generator, as a numpy array."""
    op = call["op"]
    dtype = getattr(torch, call.get("dtype", "float32"))
    if op == "rand":
        return torch.rand(call["shape"], dtype=dtype).numpy()
    if op == "randn":
        return torch.randn(call["shape"], dtype=dtype).numpy()
    if op == "normal":
        return torch.normal(call["mean"], call["std"], call["shape"], dtype=dtype).numpy()
    if op == "uniform_":
        return torch.empty(call["shape"], dtype=dtype).uniform_(call["low"], call["high"]).numpy()
    if op == "randint":
        return torch.randint(call["low"], call["high"], call["shape"]).numpy()
    if op == "randperm":
        return torch.randperm(call["n"]).numpy()
    if op == "bernoulli_p":
        return torch.empty(call["shape"], dtype=dtype).bernoulli_(call["p"]).numpy()
    if op == "bernoulli_probs":
        probabilities = np.linspace(0, 1, call["n"]).astype(call["dtype"])
        return torch.bernoulli(torch.from_numpy(probabilities)).numpy()
    if op == "dropout":
        return (torch.nn.functional.dropout(torch.ones(call["n"]), call["p"]) != 0).numpy()
    if op == "linear":
        layer = torch.nn.Linear(call["in"], call["out"])
        return np.concatenate([layer.weight.detach().numpy().ravel(), layer.bias.detach().numpy()])
    if op == "state":
        return torch.get_rng_state().numpy()
    raise ValueError(f"unknown op {op}")


def encode(array):
    array = np.ascontiguousarray(array)
    record = {"dtype": str(array.dtype), "shape": list(array.shape)}
    if array.dtype.kind in "iub" and array.dtype != np.uint8:
        record["values"] = array.ravel().tolist()
    else:
        record["hex"] = array.tobytes().hex()
    return record


def run_case(case):
    if case["seed"] is None:
        torch.set_rng_state(torch.Generator().get_state())
    else:
        torch.manual_seed(case["seed"])
    return [encode(run_torch(call)) for call in case["calls"]]


def record_here():
    return {case["name"]: run_case(case) for case in cases()}


def record_default_kernels():
    """The same cases in a child process whose PyTorch uses its portable kernels."""
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    torch.set_num_threads(1)
    if "--child" in sys.argv:
        assert torch.backends.cpu.get_cpu_capability() == "DEFAULT"
        json.dump(record_here(), sys.stdout)
        return
    capability = torch.backends.cpu.get_cpu_capability()
    if capability not in ("AVX2", "AVX512"):
        sys.exit(f"run this on an x86-64 CPU with AVX2 (PyTorch reports {capability})")
    avx2, default = record_here(), record_default_kernels()
    lines = []
    for case in cases():
        name = case["name"]
        case["results"] = avx2[name]
        differing = {i: result for i, result in enumerate(default[name]) if result != avx2[name][i]}
        if differing:
            case["default_results"] = differing
        lines.append(json.dumps(case))
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(f'{{"torch_version": "{torch.__version__}", "cases": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"wrote {len(lines)} cases to {OUTPUT} ({OUTPUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
