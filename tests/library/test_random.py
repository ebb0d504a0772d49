"""minigrad.random against PyTorch's CPU generator, bit for bit.

Three groups of tests:
- recorded: PyTorch's values saved by tools/record_torch_rng.py, checked for both
  profiles; these run without torch.
- live: the same functions against an installed torch over many seeds and shapes
  (skipped without torch). They use the profile matching torch's CPU kernels, so
  ATEN_CPU_CAPABILITY=default checks the "default" profile.
- unit: the exact-arithmetic helpers and the generator's bookkeeping.
Arrays are compared by their bytes, so -0.0 != 0.0 and every last bit counts.
"""
import ctypes
import ctypes.util
import json
import math
import pathlib
import platform
from fractions import Fraction

import numpy as np
import pytest

import minigrad
from minigrad import random as mr

REFERENCE = pathlib.Path(__file__).parents[1] / "data" / "torch_rng_reference.json"
SEEDS = range(21)
SHAPES = [(1,), (3,), (15,), (16,), (17,), (31,), (32,), (33,), (5, 3), (4, 5, 6), (1000,), (12345,)]
DTYPES = ["float32", "float64"]


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.fixture
def profile():
    """Restore the module's profile after a test that changes it."""
    saved = mr.get_profile()
    yield mr.set_profile
    mr.set_profile(saved)


# ---------------------------------------------------------------- recorded PyTorch values

def kaiming_bounds(fan_in):
    """nn.Linear.reset_parameters' bounds, computed the way torch.nn.init does."""
    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
    weight_bound = math.sqrt(3.0) * (gain / math.sqrt(fan_in))
    return weight_bound, 1 / math.sqrt(fan_in)


def linear_init(gen, fan_in, fan_out):
    """nn.Linear(fan_in, fan_out)'s weight then bias, as uniform_ draws."""
    weight_bound, bias_bound = kaiming_bounds(fan_in)
    weight = gen._uniform((fan_out, fan_in), np.float32, -weight_bound, weight_bound)
    bias = gen._uniform((fan_out,), np.float32, -bias_bound, bias_bound)
    return weight, bias


def dropout_mask(gen, p, shape):
    """Where dropout keeps an element: a float64 uniform below 1 - p."""
    return gen._bernoulli(1 - p, shape, np.bool_)


def run_minigrad(gen, call):
    """Replay one recorded call (see tools/record_torch_rng.py) on a numpy-level generator."""
    op, shape = call["op"], tuple(call.get("shape", ()))
    dtype = np.dtype(call.get("dtype", "float32"))
    if op == "rand":
        return gen._uniform(shape, dtype)
    if op == "randn":
        return gen._normal(shape, dtype)
    if op == "normal":
        return gen._normal(shape, dtype, call["mean"], call["std"])
    if op == "uniform_":
        return gen._uniform(shape, dtype, call["low"], call["high"])
    if op == "randint":
        return gen._randint(call["low"], call["high"], shape)
    if op == "randperm":
        return gen._randperm(call["n"])
    if op == "bernoulli_p":
        return gen._bernoulli(call["p"], shape, dtype)
    if op == "bernoulli_probs":
        probabilities = np.linspace(0, 1, call["n"]).astype(dtype)
        return gen._bernoulli(probabilities, probabilities.shape, dtype)
    if op == "dropout":
        return dropout_mask(gen, call["p"], (call["n"],))
    if op == "linear":
        weight, bias = linear_init(gen, call["in"], call["out"])
        return np.concatenate([weight.ravel(), bias])
    if op == "state":
        return gen.get_state()
    raise ValueError(f"unknown op {op}")


def decode(record):
    if "hex" in record:
        array = np.frombuffer(bytes.fromhex(record["hex"]), record["dtype"])
    else:
        array = np.array(record["values"], record["dtype"])
    return array.reshape(record["shape"])


def recorded_cases():
    return json.loads(REFERENCE.read_text())["cases"]


@pytest.mark.parametrize("profile_name", mr.PROFILES)
@pytest.mark.parametrize("case", recorded_cases(), ids=lambda case: case["name"])
def test_recorded_torch_values(case, profile_name, profile):
    profile(profile_name)
    expected = [decode(result) for result in case["results"]]
    if profile_name == "default":
        for index, result in case.get("default_results", {}).items():
            expected[int(index)] = decode(result)
    gen = mr.Generator()
    if case["seed"] is not None:
        gen.manual_seed(case["seed"])
    for call, want in zip(case["calls"], expected):
        assert same_bits(run_minigrad(gen, call), want), call


# ---------------------------------------------------------------- live PyTorch

@pytest.fixture(scope="module")
def torch_module():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


@pytest.fixture
def torch(torch_module, profile):
    """torch, with minigrad.random set to the profile of the kernels this torch runs."""
    avx2 = torch_module.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")
    profile("avx2" if avx2 else "default")
    return torch_module


def mismatches(pairs):
    """Labels of the (label, torch tensor, numpy array) triples whose bits differ."""
    return [label for label, want, got in pairs if not same_bits(want.numpy(), got)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("function", ["rand", "randn"])
def test_rand_randn_grid(torch, function, dtype):
    gen = mr.Generator()
    draw = gen._uniform if function == "rand" else gen._normal
    pairs = []
    for seed in SEEDS:
        for shape in SHAPES:
            torch.manual_seed(seed)
            gen.manual_seed(seed)
            want = getattr(torch, function)(shape, dtype=getattr(torch, dtype))
            pairs.append(((seed, shape), want, draw(shape, dtype)))
    assert mismatches(pairs) == []


@pytest.mark.parametrize("dtype", DTYPES)
def test_randn_across_chunks(torch, dtype):
    """Sizes beyond one NORMAL_CHUNK, which the vectorised path transforms in pieces."""
    gen = mr.Generator()
    for seed, n in [(0, mr.NORMAL_CHUNK + 37), (1, 2 * mr.NORMAL_CHUNK)]:
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        assert same_bits(torch.randn(n, dtype=getattr(torch, dtype)).numpy(), gen._normal((n,), dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_normal_with_mean_and_std(torch, dtype):
    gen = mr.Generator()
    pairs = []
    for seed in SEEDS:
        for shape in SHAPES[:-1]:
            torch.manual_seed(seed)
            gen.manual_seed(seed)
            want = torch.normal(0.5, 2.5, shape, dtype=getattr(torch, dtype))
            pairs.append(((seed, shape), want, gen._normal(shape, dtype, 0.5, 2.5)))
    assert mismatches(pairs) == []


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("low, high", [(-7 ** -0.5, 7 ** -0.5), (-3.0, 5.5), (2.0, 2.25)])
def test_uniform_with_bounds(torch, dtype, low, high):
    gen = mr.Generator()
    pairs = []
    for seed in SEEDS:
        for shape in [(3,), (17,), (1000,)]:
            torch.manual_seed(seed)
            gen.manual_seed(seed)
            want = torch.empty(shape, dtype=getattr(torch, dtype)).uniform_(low, high)
            pairs.append(((seed, shape), want, gen._uniform(shape, dtype, low, high)))
    assert mismatches(pairs) == []


@pytest.mark.parametrize("low, high", [
    (0, 2), (0, 10), (-5, 5), (3, 1000), (0, 2**28 - 1), (0, 2**28), (0, 2**28 + 1), (0, 2**31),
    (0, 2**32 + 5), (-2**40, 2**40), (0, 2**62), (-2**63, 2**63 - 1)])
def test_randint(torch, low, high):
    gen = mr.Generator()
    for seed in (0, 1, 2):
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        assert same_bits(torch.randint(low, high, (50,)).numpy(), gen._randint(low, high, (50,)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 1000, 100_000])
def test_randperm(torch, n):
    gen = mr.Generator()
    for seed in (0, 5):
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        assert same_bits(torch.randperm(n).numpy(), gen._randperm(n))


@pytest.mark.parametrize("dtype", DTYPES)
def test_bernoulli_float_p(torch, dtype):
    gen = mr.Generator()
    for seed, p in [(0, 0.3), (1, 0.5), (2, 0.9)]:
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        want = torch.empty(4, 250, dtype=getattr(torch, dtype)).bernoulli_(p)
        assert same_bits(want.numpy(), gen._bernoulli(p, (4, 250), dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_bernoulli_tensor_p(torch, dtype):
    probabilities = np.random.default_rng(0).random((30, 40)).astype(dtype)
    gen = mr.Generator()
    for seed in (0, 1):
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        want = torch.bernoulli(torch.from_numpy(probabilities))
        assert same_bits(want.numpy(), gen._bernoulli(probabilities, probabilities.shape, dtype))


def test_dropout_mask_and_linear_init(torch):
    gen = mr.Generator()
    for seed in SEEDS:
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        layer = torch.nn.Linear(7, 5)
        weight, bias = linear_init(gen, 7, 5)
        assert same_bits(layer.weight.detach().numpy(), weight)
        assert same_bits(layer.bias.detach().numpy(), bias)
        kept = torch.nn.functional.dropout(torch.ones(3, 400), p=0.2) != 0
        assert same_bits(kept.numpy(), dropout_mask(gen, 0.2, (3, 400)))


def test_state_bytes_round_trip(torch):
    gen = mr.Generator()
    assert same_bits(torch.Generator().get_state().numpy(), gen.get_state())
    for seed in (0, 123, 2**40 + 17, -5):
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        for _ in range(4):
            assert same_bits(torch.get_rng_state().numpy(), gen.get_state())
            torch.randn(3), gen._normal((3,))  # leaves a cached normal, then uses it
            torch.rand(300), gen._uniform((300,))
        assert torch.initial_seed() == gen.initial_seed()
    # Restore each side from the other's bytes, then keep drawing in step.
    torch.manual_seed(9)
    torch.randn(5)
    gen.set_state(torch.get_rng_state().numpy())
    assert same_bits(torch.get_rng_state().numpy(), gen.get_state())
    gen._normal((7,))
    torch.set_rng_state(torch.from_numpy(gen.get_state()))
    assert same_bits(torch.randn(9).numpy(), gen._normal((9,)))


def test_mixed_calls_share_one_stream(torch):
    gen = mr.Generator()
    steps = [
        (lambda: torch.randn(3), lambda: gen._normal((3,))),
        (lambda: torch.rand(2), lambda: gen._uniform((2,))),
        (lambda: torch.randn(1), lambda: gen._normal((1,))),  # the cached normal
        (lambda: torch.randint(0, 10, (4,)), lambda: gen._randint(0, 10, (4,))),
        (lambda: torch.randn(1, dtype=torch.float64), lambda: gen._normal((1,), "float64")),
        (lambda: torch.randn(20), lambda: gen._normal((20,))),
        (lambda: torch.rand(3, dtype=torch.float64), lambda: gen._uniform((3,), "float64")),
        (lambda: torch.randn(1), lambda: gen._normal((1,))),
        (lambda: torch.randperm(6), lambda: gen._randperm(6)),
        (lambda: torch.randint(-2**40, 2**40, (3,)), lambda: gen._randint(-2**40, 2**40, (3,))),
        (lambda: torch.normal(-1.0, 0.3, (3,), dtype=torch.float64), lambda: gen._normal((3,), "float64", -1.0, 0.3)),
        (lambda: torch.normal(2.0, 3.0, (5,)), lambda: gen._normal((5,), "float32", 2.0, 3.0)),
        (lambda: torch.empty(5).bernoulli_(0.4), lambda: gen._bernoulli(0.4, (5,), "float32")),
        (lambda: torch.randn(33, dtype=torch.float64), lambda: gen._normal((33,), "float64")),
        (lambda: torch.randn(1), lambda: gen._normal((1,))),
    ]
    for seed in range(6):
        torch.manual_seed(seed)
        gen.manual_seed(seed)
        for index, (torch_call, minigrad_call) in enumerate(steps):
            assert same_bits(torch_call().numpy(), minigrad_call()), (seed, index)
            assert same_bits(torch.get_rng_state().numpy(), gen.get_state()), (seed, index)


# ---------------------------------------------------------------- live PyTorch, tensor level

def test_tensor_functions(torch):
    for seed in (0, 1):
        torch.manual_seed(seed)
        minigrad.manual_seed(seed)
        pairs = [
            ("rand", torch.rand(2, 3), minigrad.rand(2, 3)),
            ("randn", torch.randn((4, 5), dtype=torch.float64), minigrad.randn((4, 5), dtype=minigrad.float64)),
            ("randint high", torch.randint(7, (3, 3)), minigrad.randint(7, (3, 3))),
            ("randint low high", torch.randint(-4, 4, size=(9,)), minigrad.randint(-4, 4, size=(9,))),
            ("randperm", torch.randperm(12), minigrad.randperm(12)),
            ("randn_like", torch.randn_like(torch.zeros(17)), minigrad.randn_like(minigrad.zeros(17))),
            ("rand_like", torch.rand_like(torch.zeros(3, dtype=torch.float64)),
             minigrad.rand_like(minigrad.zeros(3, dtype=minigrad.float64))),
            ("normal floats", torch.normal(1.0, 0.5, size=(6,)), minigrad.normal(1.0, 0.5, size=(6,))),
            ("normal tensors", torch.normal(torch.arange(20.0), torch.full((20,), 0.1)),
             minigrad.normal(minigrad.arange(20.0), minigrad.full((20,), 0.1))),
            ("normal tensor mean", torch.normal(torch.arange(4.0), 2.0), minigrad.normal(minigrad.arange(4.0), 2.0)),
            ("bernoulli", torch.bernoulli(torch.full((2, 8), 0.25)), minigrad.bernoulli(minigrad.full((2, 8), 0.25))),
            ("bernoulli p", torch.bernoulli(torch.zeros(10), p=0.6), minigrad.bernoulli(minigrad.zeros(10), p=0.6)),
            ("state", torch.get_rng_state(), minigrad.get_rng_state()),
        ]
        assert [label for label, want, got in pairs if not same_bits(want.numpy(), got._array)] == []


def test_tensor_generator_and_rng_state(torch):
    torch_gen, gen = torch.Generator().manual_seed(11), mr.Generator().manual_seed(11)
    assert same_bits(torch.randn(40, generator=torch_gen).numpy(), minigrad.randn(40, generator=gen)._array)
    torch.manual_seed(2)
    torch.randn(1)
    minigrad.set_rng_state(minigrad.tensor(torch.get_rng_state().numpy()))
    assert same_bits(torch.randn(5).numpy(), minigrad.randn(5)._array)


@pytest.mark.parametrize("view", ["contiguous", "transposed", "strided"])
def test_in_place_fillers(torch, view):
    """A non-contiguous target is filled in memory order, and normal_ takes the scalar path."""
    def make(module):
        base = module.zeros(6, 8)
        return {"contiguous": base, "transposed": base.t(), "strided": base[:, ::2]}[view]

    minigrad_fillers = [
        lambda t: mr.uniform_(t, -1.0, 2.0), lambda t: mr.normal_(t, 0.5, 3.0),
        lambda t: mr.bernoulli_(t, 0.3), lambda t: mr.bernoulli_(t, minigrad.full(tuple(t.shape), 0.7)),
        lambda t: mr.normal_(t)]
    torch_fillers = [
        lambda t: t.uniform_(-1.0, 2.0), lambda t: t.normal_(0.5, 3.0),
        lambda t: t.bernoulli_(0.3), lambda t: t.bernoulli_(torch.full(tuple(t.shape), 0.7)),
        lambda t: t.normal_()]
    torch.manual_seed(4)
    minigrad.manual_seed(4)
    for index, (fill_torch, fill_minigrad) in enumerate(zip(torch_fillers, minigrad_fillers)):
        want, got = make(torch), make(minigrad)
        version = got._version
        assert fill_minigrad(got) is got
        assert got._version == version + 1
        fill_torch(want)
        assert same_bits(want.numpy(), got._array), index


# ---------------------------------------------------------------- exact arithmetic and kernels

def exact_fma(a, b, c):
    return Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))


def test_fma64_rounds_once():
    values = np.random.default_rng(1).standard_normal((3, 2000)) * np.exp2(
        np.random.default_rng(2).integers(-30, 30, (3, 2000)))
    a, b, c = values
    c[:500] = -(a[:500] * b[:500])  # cancellation: the result is the product's rounding error
    got = mr._fma64(a, b, c)
    want = [float(exact_fma(*abc)) for abc in zip(a, b, c)]  # Fraction -> float rounds correctly
    assert same_bits(got, np.array(want))


def round_to_float32(value):
    """The float32 nearest to a Fraction, ties to even."""
    guess = np.float32(float(value))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))]
    return min(candidates, key=lambda f: (abs(Fraction(float(f)) - value), int(f.view(np.uint32)) & 1))


def test_fma32_rounds_once():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 3000)).astype(np.float32)
    c = (rng.standard_normal(3000) * 1e-3).astype(np.float32)
    # Products that land exactly halfway between two floats, nudged by far less than
    # a float64 ulp: rounding to float64 first would lose the nudge.
    odd = np.float32(2.0**-12) * np.arange(1, 200, 2, dtype=np.float32)
    a[:100], b[:100] = np.float32(1) + odd, np.float32(1) + odd[::-1]
    c[:100] = np.float32(2.0**-60) * np.where(np.arange(100) % 2, 1, -1).astype(np.float32)
    want = np.array([round_to_float32(exact_fma(*abc)) for abc in zip(a, b, c)])
    assert same_bits(mr._fma32(a, b, c), want)
    assert not same_bits(mr._fma32_fast(a[:100], b[:100], c[:100]), want[:100])


def test_fast_fma_is_exact_in_the_cephes_kernel(monkeypatch):
    """The claim in _fma32_fast's docstring, on a sample of the 2^24 possible inputs."""
    steps = np.arange(0, 1 << 24, 17, dtype=np.float32) * np.float32(2.0**-24)
    u1, theta = np.float32(1) - steps, np.float32(2 * math.pi) * steps
    fast = (mr._cephes_log(u1), *mr._cephes_sincos(theta))
    monkeypatch.setattr(mr, "_fma32_fast", mr._fma32)
    exact = (mr._cephes_log(u1), *mr._cephes_sincos(theta))
    assert all(same_bits(f, e) for f, e in zip(fast, exact))


def glibc_libm():
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        pytest.skip("the default profile ports glibc")
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    for name in ("logf", "sinf", "cosf"):
        getattr(libm, name).restype = ctypes.c_float
        getattr(libm, name).argtypes = [ctypes.c_float]
    return libm


def test_glibc_port_matches_this_libm():
    """logf, sinf and cosf on a sample of the floats the default kernel passes them."""
    libm = glibc_libm()
    steps = np.arange(0, 1 << 24, 127, dtype=np.float32) * np.float32(2.0**-24)
    u1 = np.float32(1) - steps
    theta = (2 * math.pi * steps.astype(np.float64)).astype(np.float32)
    sin, cos = mr._glibc_sincosf(theta)
    for name, inputs, ours in [("logf", u1, mr._glibc_logf(u1)), ("sinf", theta, sin), ("cosf", theta, cos)]:
        theirs = np.array([getattr(libm, name)(float(x)) for x in inputs], np.float32)
        assert same_bits(ours, theirs), name


# ---------------------------------------------------------------- generator bookkeeping

def test_default_seed_and_manual_seed():
    gen = mr.Generator()
    assert gen.initial_seed() == mr.DEFAULT_SEED == 67280421310721
    assert gen.manual_seed(-1) is gen and gen.initial_seed() == 2**64 - 1
    assert mr.manual_seed(5) is mr.default_generator and mr.initial_seed() == 5


def test_seed_is_random_and_reproducible():
    gen = mr.Generator()
    chosen = gen.seed()
    first = gen._uniform((4,))
    assert gen.initial_seed() == chosen
    assert same_bits(gen.manual_seed(chosen)._uniform((4,)), first)
    assert mr.seed() == mr.initial_seed()


def test_state_layout():
    gen = mr.Generator().manual_seed(7)
    gen._normal((1,))  # draws one pair of uniforms (four words) and caches a normal
    state = gen.get_state()
    assert state.dtype == np.uint8 and state.shape == (mr.STATE_SIZE,)
    header = state[:24].view(np.uint32)
    assert state[:8].view(np.uint64)[0] == 7
    assert list(header[2:4]) == [mr.MT_N + 1 - 4, 1]  # words left + 1, seeded
    assert state[16:24].view(np.uint64)[0] == 4  # next word to read
    assert state[5040:5044].view(np.int32)[0] == 1
    restored = mr.Generator().set_state(state)
    assert same_bits(restored.get_state(), state)
    assert same_bits(restored._normal((5,)), gen._normal((5,)))


def test_state_keeps_next_after_using_all_words():
    gen = mr.Generator().manual_seed(0)
    assert gen.get_state()[16:24].view(np.uint64)[0] == 0
    gen._uniform((mr.MT_N,))
    assert gen.get_state()[16:24].view(np.uint64)[0] == mr.MT_N


def test_bad_arguments():
    gen = mr.Generator()
    with pytest.raises(ValueError):
        gen.set_state(np.zeros(10, np.uint8))
    with pytest.raises(ValueError):
        gen._randint(3, 3, (2,))
    with pytest.raises(TypeError):
        gen._normal((2,), np.int64)
    with pytest.raises(ValueError):
        mr.set_profile("neon")
    with pytest.raises(ValueError):
        mr.Generator("cuda")


def test_profile_changes_only_float32_kernels(profile):
    draws = {}
    for name in mr.PROFILES:
        profile(name)
        gen = mr.Generator().manual_seed(0)
        draws[name] = [gen._normal((64,), np.float32), gen._normal((64,), np.float64), gen._uniform((64,))]
    assert not same_bits(draws["avx2"][0], draws["default"][0])
    assert same_bits(draws["avx2"][1], draws["default"][1])
    assert same_bits(draws["avx2"][2], draws["default"][2])


def test_profile_from_environment(monkeypatch):
    monkeypatch.setenv("MINIGRAD_RNG_PROFILE", "default")
    assert mr._initial_profile() == "default"
    monkeypatch.setenv("MINIGRAD_RNG_PROFILE", "sse2")
    with pytest.raises(ValueError):
        mr._initial_profile()


def test_randperm_is_a_permutation():
    perm = mr.Generator()._randperm(5000)
    assert perm.dtype == np.int64 and sorted(perm.tolist()) == list(range(5000))
