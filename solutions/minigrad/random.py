"""PyTorch's CPU random numbers, bit for bit, in numpy.

``torch.manual_seed(0); torch.randn(3)`` and ``minigrad.manual_seed(0);
minigrad.randn(3)`` give the same bits, so a lesson can print PyTorch's numbers.
This module reproduces PyTorch 2.13's CPU generator as its C++ code computes it.

The stream. PyTorch's CPU generator is a Mersenne Twister (MT19937) seeded with
``init_genrand(seed & 0xffffffff)``, with no offset. numpy's ``MT19937`` bit
generator is the same engine: we set its ``.state`` (key and position) and read
32-bit words with ``random_raw``. Every draw below is a function of those words:
a float32 uniform uses one word (24 bits), a float64 uniform two (53 bits), and
a generator's whole state is the engine plus one cached normal double, which
``get_state``/``set_state`` pack into PyTorch's 5056-byte layout.

Two normal paths. PyTorch draws normals in one of two ways and we copy both:
- fewer than 16 elements (or a non-contiguous tensor): the scalar Box-Muller
  of ``normal_distribution<double>``, which makes two normals per pair of
  uniforms and caches the second one on the generator for the next call, even
  a call of another kind. It uses the C library's ``log1p``/``cos``/``sin``,
  which Python's ``math`` module calls too.
- 16 or more: all uniforms are drawn first, then transformed 16 at a time (the
  first 8 give radii, the next 8 angles); a ragged tail is redrawn as 16 fresh
  uniforms that overwrite the last 16 outputs. float64 uses the C library again;
  float32 uses a SIMD kernel whose every rounding we replay in numpy.

Profiles. The float32 kernel depends on the CPU PyTorch runs on, so we have two:
- ``avx2`` (the default on x86-64): PyTorch's AVX2 kernel, the Cephes
  ``log256_ps``/``sincos256_ps`` code of ``avx_mathfun.h`` as GCC compiles it,
  with its multiply-adds fused into FMAs. AVX-512 machines run this one too.
  The build also fuses ``uniform_``'s ``u*(b-a)+a`` and the scalar normal's
  ``v*std+mean``.
- ``default``: PyTorch's portable kernel (non-AVX2 x86, or
  ``ATEN_CPU_CAPABILITY=default``), which calls glibc's ``logf``, ``sinf`` and
  ``cosf``. We port those three from glibc 2.28+ to float64 numpy, with glibc's
  own tables. The port gives glibc's result on all 2^24 inputs the kernel can
  pass in, whether glibc uses its FMA build or its SSE2 build, since both round
  to the same floats there.
Pick one with the environment variable ``MINIGRAD_RNG_PROFILE`` (read at
import) or with ``set_profile(name)``. Both were checked against torch 2.13.0
on x86-64 Linux with glibc 2.36. Other platforms are untested: macOS's libm,
aarch64 and Windows builds may round differently.

float64 results and the scalar path never depend on the profile's kernel: they
call the platform's libm through ``math``, exactly as PyTorch does. numpy's own
``np.log``/``np.cos`` are SIMD code that differs from libm in the last bit for
about 0.2% of inputs, so we don't use them.

The ``Generator`` methods that start with an underscore return numpy arrays and
know nothing of tensors; the functions at the bottom wrap them in tensors with
PyTorch's signatures (``rand``, ``randn``, ``randint``, ``normal_``, ...).
"""
import math
import os
import platform
import struct

import numpy as np

from .autograd.graph import Node, recorded
from .device import check
from .dtypes import to_numpy
from .ops import inplace_history
from .public_names import public
from .shape import sum_to
from .tensor import Tensor

DEFAULT_SEED = 67280421310721  # what torch.Generator() starts with
MT_N = 624  # words in the Mersenne Twister state
# PyTorch's CPU generator state, 5056 bytes, little-endian: the seed (u64) at 0, the
# engine's `left` and `seeded` (i32) at 8 and 12, `next` (u64) at 16, the 624 key
# words (as u64) at 24, the cached normal (f64) at 5024 and its valid flag (i32) at
# 5040. The other bytes belong to fields PyTorch's CPU generator leaves zero.
STATE_SIZE = 5056
STATE_KEY = 24
STATE_NORMAL = 5024
STATE_NORMAL_VALID = 5040
NORMAL_CHUNK = 2**16  # uniforms transformed at a time: the temporaries stay in cache, twice as fast

_f32 = np.float32
_f64 = np.float64


# ---------------------------------------------------------------- profiles

PROFILES = ("avx2", "default")


def _check_profile(name):
    if name not in PROFILES:
        raise ValueError(f"unknown RNG profile {name!r}; expected one of {PROFILES}")
    return name


def _initial_profile():
    """The profile named by MINIGRAD_RNG_PROFILE, else the one PyTorch's x86-64 wheels use."""
    name = os.environ.get("MINIGRAD_RNG_PROFILE")
    if name:
        return _check_profile(name)
    return "avx2" if platform.machine().lower() in ("x86_64", "amd64") else "default"


_profile = _initial_profile()


def set_profile(name):
    """Choose which of PyTorch's CPU kernels to reproduce: "avx2" or "default"."""
    global _profile
    _profile = _check_profile(name)


def get_profile():
    return _profile


# ---------------------------------------------------------------- exact fused multiply-add
# numpy has no fma. A compiler that fuses a*b+c rounds once instead of twice, and
# that single rounding shows in the last bit, so where PyTorch's build fuses we do too.

def _two_sum(a, b):
    """s = a + b rounded, and the exact error, so that s + err == a + b (Knuth)."""
    s = a + b
    b_part = s - a
    err = (a - (s - b_part)) + (b - b_part)
    return s, err


def _split(a):
    """a = hi + lo with each half of a's 53 bits, so products of halves are exact (Veltkamp)."""
    t = 134217729.0 * a  # 2**27 + 1
    hi = t - (t - a)
    return hi, a - hi


def _two_product(a, b):
    """p = a * b rounded, and the exact error, so that p + err == a * b (Dekker)."""
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    err = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    return p, err


def _sum_round_to_odd(a, b):
    """a + b in float64 rounded "to odd": when inexact, take the neighbour whose last bit is 1.

    Rounding to odd keeps a sticky trace of the discarded bits, so rounding the
    result again (to float32, or after one more addition) is as good as rounding
    the exact value once. That is what makes the two fma emulations below exact.
    """
    s, err = _two_sum(a, b)
    bits = s.view(np.int64)
    needs_odd = (err != 0) & ((bits & 1) == 0)
    toward_err = np.where((err > 0) == (s > 0), 1, -1)
    return np.where(needs_odd, (bits + toward_err).view(_f64), s)


def _fma64(a, b, c):
    """Correctly rounded float64 a*b + c (Boldo and Melquiond's emulation by rounding to odd)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, _f64), np.asarray(b, _f64), np.asarray(c, _f64))
    product, product_err = _two_product(a, b)
    high, low = _two_sum(c, product)
    return high + _sum_round_to_odd(low, product_err)


def _fma32(a, b, c):
    """Correctly rounded float32 a*b + c: the float64 product of two floats is exact,
    and rounding the sum to odd before rounding to float32 avoids double rounding."""
    product = np.asarray(a, _f64) * np.asarray(b, _f64)
    product, c = np.broadcast_arrays(product, np.asarray(c, _f64))
    return _sum_round_to_odd(product, c).astype(_f32)


def _fma32_fast(a, b, c):
    """float32 a*b + c as f32(f64(a)*f64(b) + f64(c)): one pass, for the hot Cephes kernel.

    The product is exact in float64; the sum is rounded twice (to 53 bits, then to
    24), which could differ from one rounding only if the float64 sum landed exactly
    on a float32 halfway point. Across all 2^24 inputs of the Cephes log and sincos
    it never does, so it gives the same bits as ``_fma32`` there, and float32
    randn(1000, 1000) runs 3.5 times faster with it.
    """
    return (np.asarray(a, _f64) * np.asarray(b, _f64) + np.asarray(c, _f64)).astype(_f32)


# ---------------------------------------------------------------- the platform's libm

def _libm(function):
    """Apply a ``math`` function (the C library's) to every element of a float64 array.

    A per-element call, but through numpy's C loop: on 10^6 elements it is as fast
    as the vectorised alternatives we tried (long double, then correcting near ties),
    and it is the C library by construction.
    """
    ufunc = np.frompyfunc(function, 1, 1)
    return lambda x: ufunc(x).astype(_f64)


_libm_log = _libm(math.log)
_libm_log1p = _libm(math.log1p)
_libm_cos = _libm(math.cos)
_libm_sin = _libm(math.sin)


# ---------------------------------------------------------------- AVX2 profile: Cephes kernel
# Constants of avx_mathfun.h (Cephes), as float32.
CEPHES_SQRTHF = _f32(0.707106781186547524)
CEPHES_LOG_P = [_f32(p) for p in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
CEPHES_LOG_Q1 = _f32(-2.12194440e-4)
CEPHES_LOG_Q2 = _f32(0.693359375)
CEPHES_DP = [_f32(0.78515625), _f32(2.4187564849853515625e-4), _f32(3.77489497744594108e-8)]
CEPHES_SINCOF = [_f32(-1.9515295891e-4), _f32(8.3321608736e-3), _f32(-1.6666654611e-1)]
CEPHES_COSCOF = [_f32(2.443315711809948e-5), _f32(-1.388731625493765e-3), _f32(4.166664568298827e-2)]
CEPHES_FOPI = _f32(1.27323954473516)  # 4 / pi


def _cephes_log(x):
    """log256_ps for positive normal float32 x, with GCC's FMAs.

    x = 2^e * m with m in [0.5, 1), moved to 1 + t in [sqrt(1/2), sqrt(2)); then
    log x = t - t^2/2 + t^3 * P(t) + e*log(2), with P of degree 8 and log(2) added
    in two parts (q2 + q1) so that e*q2 is exact.
    """
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 126).astype(_f32)
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_f32)
    below = m < CEPHES_SQRTHF
    e = e - below.astype(_f32)
    t = m - _f32(1)
    t = np.where(below, t + m, t)
    z = t * t
    y = np.full_like(t, CEPHES_LOG_P[0])
    for p in CEPHES_LOG_P[1:]:
        y = _fma32_fast(y, t, p)
    y = y * t
    y = _fma32_fast(y, z, e * CEPHES_LOG_Q1)
    y = _fma32_fast(-z, _f32(0.5), y)
    t = t + y
    return _fma32_fast(e, CEPHES_LOG_Q2, t)


def _cephes_sincos(x):
    """sincos256_ps for float32 x >= 0, with GCC's FMAs: returns (sin x, cos x).

    j counts octants (rounded up to even), x - j*pi/4 is formed in three exact-ish
    steps, then both polynomials run and the octant picks and signs them.
    """
    j = (x * CEPHES_FOPI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_f32)
    for dp in CEPHES_DP:
        x = _fma32_fast(y, -dp, x)
    z = x * x
    cos_poly = _fma32_fast(_fma32_fast(z, CEPHES_COSCOF[0], CEPHES_COSCOF[1]), z, CEPHES_COSCOF[2])
    cos_poly = _fma32_fast(cos_poly * z, z, -(z * _f32(0.5))) + _f32(1)
    sin_poly = _fma32_fast(_fma32_fast(CEPHES_SINCOF[0], z, CEPHES_SINCOF[1]), z, CEPHES_SINCOF[2])
    sin_poly = _fma32_fast(sin_poly * z, x, x)
    swap = (j & 2) != 0
    # The kernel blends the two with masks and an addition (which turns -0 into +0),
    # then sets the signs by XOR with a sign bit taken from j.
    sin = np.where(swap, cos_poly, sin_poly) + _f32(0)
    cos = np.where(swap, sin_poly, cos_poly) + _f32(0)
    sin_sign = ((j & 4) << 29).view(np.uint32)
    cos_sign = ((~(j - 2) & 4) << 29).view(np.uint32)
    return (sin.view(np.uint32) ^ sin_sign).view(_f32), (cos.view(np.uint32) ^ cos_sign).view(_f32)


def _polar_f32_avx2(u1, u2):
    """Radius and angle's cos and sin of normal_fill_16_AVX2."""
    radius = np.sqrt(_f32(-2) * _cephes_log(u1))
    sin, cos = _cephes_sincos(_f32(2 * math.pi) * u2)
    return radius, cos, sin


# ---------------------------------------------------------------- default profile: glibc's logf, sinf, cosf
# Ported from glibc (sysdeps/ieee754/flt-32: e_logf.c, s_sinf.c, s_cosf.c, sincosf.h):
# the algorithms evaluate in float64 and round once to float32 at the end. The
# tables are glibc's (e_logf_data.c, s_sincosf_data.c).

# 1/c and log(c) for 16 subintervals of [0x1.66p-1, 0x1.66p0) (glibc's __logf_data.tab).
GLIBC_LOGF_INVC, GLIBC_LOGF_LOGC = np.array([float.fromhex(h) for h in """
    0x1.661ec79f8f3bep+0 -0x1.57bf7808caadep-2  0x1.571ed4aaf883dp+0 -0x1.2bef0a7c06ddbp-2
    0x1.49539f0f010b0p+0 -0x1.01eae7f513a67p-2  0x1.3c995b0b80385p+0 -0x1.b31d8a68224e9p-3
    0x1.30d190c8864a5p+0 -0x1.6574f0ac07758p-3  0x1.25e227b0b8ea0p+0 -0x1.1aa2bc79c8100p-3
    0x1.1bb4a4a1a343fp+0 -0x1.a4e76ce8c0e5ep-4  0x1.12358f08ae5bap+0 -0x1.1973c5a611cccp-4
    0x1.0953f419900a7p+0 -0x1.252f438e10c1ep-5  0x1.0000000000000p+0  0x0.0p+0
    0x1.e608cfd9a47acp-1  0x1.aa5aa5df25984p-5  0x1.ca4b31f026aa0p-1  0x1.c5e53aa362eb4p-4
    0x1.b2036576afce6p-1  0x1.526e57720db08p-3  0x1.9c2d163a1aa2dp-1  0x1.bc2860d224770p-3
    0x1.886e6037841edp-1  0x1.1058bc8a07ee1p-2  0x1.767dcf5534862p-1  0x1.4043057b6ee09p-2
    """.split()]).reshape(16, 2).T.copy()
GLIBC_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
GLIBC_LOGF_A = [float.fromhex(h) for h in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2",
                                          "-0x1.ffffef20a4123p-2")]
GLIBC_LOGF_OFF = 0x3F330000

# Range reduction by pi/2 and the polynomials of glibc's __sincosf_table[0].
GLIBC_HPI_INV = float.fromhex("0x1.45f306dc9c883p+23")  # 2/pi * 2^24
GLIBC_HPI = float.fromhex("0x1.921fb54442d18p+0")  # pi/2
GLIBC_COS_C = [1.0] + [float.fromhex(h) for h in (
    "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5", "-0x1.6c087e89a359dp-10", "0x1.99343027bf8c3p-16")]
GLIBC_SIN_SIGN = np.array([1.0, -1.0, -1.0, 1.0])  # sign of the sine polynomial per quadrant
GLIBC_SIN_S = [float.fromhex(h) for h in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7",
                                         "-0x1.994eb3774cf24p-13")]


def _glibc_logf(x):
    """glibc's logf for positive normal float32 x.

    x = 2^k * z with z near 1; log x = k*ln2 + log c + log1p(z/c - 1), where c comes
    from a 16-entry table and log1p(r) is r plus a cubic in r times r^2. glibc's FMA build fuses some of the
    multiply-adds; on every float the normal kernel can pass in (1 - i*2^-24) both
    builds round to the same float32, so plain float64 arithmetic reproduces them.
    """
    ix = x.view(np.int32)
    tmp = ix - np.int32(GLIBC_LOGF_OFF)
    index = (tmp >> 19) & 15
    k = (tmp >> 23).astype(_f64)  # the exponent, relative to OFF
    z = (ix - (tmp & np.int32(-0x800000))).view(_f32).astype(_f64)  # x scaled near 1
    r = z * GLIBC_LOGF_INVC[index] - 1.0
    y0 = GLIBC_LOGF_LOGC[index] + k * GLIBC_LN2
    r2 = r * r
    y = GLIBC_LOGF_A[1] * r + GLIBC_LOGF_A[2]
    y = GLIBC_LOGF_A[0] * r2 + y
    y = y * r2 + (y0 + r)
    return np.where(ix == 0x3F800000, 0.0, y).astype(_f32)  # glibc returns exactly 0 at 1


def _glibc_sin_poly(x, x2):
    x3 = x2 * x
    s = GLIBC_SIN_S
    return (s[1] + x2 * s[2]) * (x3 * x2) + (x + x3 * s[0])


def _glibc_cos_poly(x2):
    x4 = x2 * x2
    c = GLIBC_COS_C
    return (c[3] + x2 * c[4]) * (x2 * x4) + ((c[0] + x2 * c[1]) + x4 * c[2])


def _glibc_sincosf(y):
    """glibc's sinf(y) and cosf(y) for float32 y in [0, 120): returns (sin, cos).

    Below pi/4 the polynomials take y itself; above, y is reduced by n*pi/2 and the
    quadrant n swaps the polynomials and sets signs. Below 2^-12, sinf(y) = y and
    cosf(y) = 1. Like logf, this float64 evaluation matches both glibc builds.
    """
    x = y.astype(_f64)
    top12 = (y.view(np.uint32) >> 20) & 0x7FF
    reduce = top12 > 0x3F3  # |y| >= pi/4
    n = np.where(reduce, ((x * GLIBC_HPI_INV).astype(np.int32) + 0x800000) >> 24, 0)
    r = np.where(reduce, x - n * GLIBC_HPI, x)
    r2 = r * r
    sin_poly = _glibc_sin_poly(r * GLIBC_SIN_SIGN[n & 3], r2)
    cos_poly = np.where((n & 2) != 0, -1.0, 1.0) * _glibc_cos_poly(r2)
    odd = (n & 1) != 0
    sin = np.where(odd, cos_poly, sin_poly)
    cos = np.where(odd, sin_poly, cos_poly)
    tiny = top12 <= 0x397  # |y| < 2^-12
    return np.where(tiny, x, sin).astype(_f32), np.where(tiny, 1.0, cos).astype(_f32)


def _polar_f32_default(u1, u2):
    """Radius and angle's cos and sin of the portable normal_fill_16<float>."""
    radius = np.sqrt(_f32(-2) * _glibc_logf(u1))
    sin, cos = _glibc_sincosf((2 * math.pi * u2.astype(_f64)).astype(_f32))
    return radius, cos, sin


def _polar_f64(u1, u2):
    """Radius and angle's cos and sin of normal_fill_16<double>: libm throughout."""
    radius = np.sqrt(-2.0 * _libm_log(u1))
    theta = 2 * math.pi * u2
    return radius, _libm_cos(theta), _libm_sin(theta)


def _scale_shift(values, std, mean):
    """values*std + mean as one fused operation in the values' dtype (std, mean of that dtype).

    With std == 1 an addition rounds just as the fma does (and still turns -0 into +0).
    """
    if std == 1:
        return values + mean
    fma = _fma32 if values.dtype == _f32 else _fma64
    return fma(values, std, mean).astype(values.dtype)


def _normal_blocks(uniforms, mean, std):
    """normal_fill_16 applied to each block of 16 uniforms (uniforms.size % 16 == 0).

    In each block, slots j and j+8 (j < 8) become R*cos and R*sin of the same pair,
    with u1 = 1 - slot j (so log never sees 0) and u2 = slot j+8.
    """
    dtype = uniforms.dtype.type
    blocks = uniforms.reshape(-1, 2, 8)
    u1, u2 = dtype(1) - blocks[:, 0], blocks[:, 1]
    if dtype is _f64:
        polar = _polar_f64
    else:
        polar = _polar_f32_avx2 if _profile == "avx2" else _polar_f32_default
    radius, cos, sin = polar(u1, u2)
    normals = np.stack([radius * cos, radius * sin], axis=1).reshape(-1)
    return _scale_shift(normals, dtype(std), dtype(mean))


# ---------------------------------------------------------------- the generator

def _size(shape):
    return math.prod(shape)


def _float_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype not in (_f32, _f64):
        raise TypeError(f"random floats are implemented for float32 and float64, not {dtype}")
    return dtype.type


class Generator:
    """A CPU random number generator with ``torch.Generator``'s semantics and state.

    Its draws (``_uniform``, ``_normal``, ...) return numpy arrays; the tensor
    functions at the bottom of this module wrap them.
    """

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise ValueError("minigrad only has a CPU generator")
        self._engine = np.random.MT19937()
        self.manual_seed(DEFAULT_SEED)

    # -- seeding and state

    def manual_seed(self, seed):
        """Seed like torch: keep seed mod 2^64; only its low 32 bits seed the engine."""
        seed = int(seed) % 2**64
        key = np.random.RandomState(seed & 0xFFFFFFFF).get_state()[1]  # init_genrand
        self._set_engine(key, MT_N, seed, next_index=0)
        return self

    def seed(self):
        """Seed from the operating system's entropy and return the seed."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        return self._initial_seed

    def _set_engine(self, key, position, seed, next_index, normal=None):
        self._engine.state = {"bit_generator": "MT19937",
                              "state": {"key": np.asarray(key, np.uint32), "pos": int(position)}}
        self._initial_seed = seed
        # PyTorch's engine counts with two fields, `left` and `next`; numpy's with one
        # position. They agree except when all 624 words are used: then PyTorch's
        # `next` is 0 straight after seeding but 624 after drawing. We keep it for get_state.
        self._next_when_used_up = next_index
        self._normal_cache = normal  # the second value of the scalar Box-Muller, or None

    def get_state(self):
        """PyTorch's state bytes as a uint8 array (the layout is described at STATE_SIZE)."""
        engine = self._engine.state["state"]
        position = int(engine["pos"])
        next_index = self._next_when_used_up if position == MT_N else position
        state = bytearray(STATE_SIZE)
        struct.pack_into("<QiiQ", state, 0, self._initial_seed, MT_N + 1 - position, 1, next_index)
        state[STATE_KEY:STATE_KEY + 8 * MT_N] = np.asarray(engine["key"], "<u8").tobytes()
        if self._normal_cache is not None:
            struct.pack_into("<d", state, STATE_NORMAL, self._normal_cache)
            struct.pack_into("<i", state, STATE_NORMAL_VALID, 1)
        return np.frombuffer(bytes(state), np.uint8).copy()

    def set_state(self, state):
        """Restore bytes from ``get_state`` (ours or torch's)."""
        state = np.asarray(state, np.uint8).tobytes()
        if len(state) != STATE_SIZE:
            raise ValueError(f"RNG state must have {STATE_SIZE} bytes, not {len(state)}")
        seed, left, _seeded, next_index = struct.unpack_from("<QiiQ", state, 0)
        key = np.frombuffer(state, "<u8", MT_N, STATE_KEY)
        normal_valid = struct.unpack_from("<i", state, STATE_NORMAL_VALID)[0]
        normal = struct.unpack_from("<d", state, STATE_NORMAL)[0] if normal_valid else None
        self._set_engine(key, MT_N + 1 - left, seed, next_index, normal)
        return self

    # -- raw words and uniforms

    def _words(self, n):
        """n consecutive 32-bit engine outputs (as uint64), torch's ``random()``."""
        if n:
            self._next_when_used_up = MT_N
        return self._engine.random_raw(n)

    def _words64(self, n):
        """n of torch's ``random64()``: two words each, the first one high."""
        words = self._words(2 * n)
        return (words[0::2] << 32) | words[1::2]

    def _unit(self, n, dtype):
        """n uniforms in [0, 1): 24 random bits for float32, 53 for float64."""
        if dtype is _f32:
            return (self._words(n) & 0xFFFFFF).astype(_f32) * _f32(2.0**-24)
        return (self._words64(n) & (2**53 - 1)).astype(_f64) * 2.0**-53

    def _uniform(self, shape, dtype=_f32, low=0.0, high=1.0):
        """uniform_(low, high) on a new array: u*(high-low) + low, in the dtype.

        The AVX2 build fuses that multiply-add; a result equal to high becomes low.
        """
        dtype = _float_dtype(dtype)
        unit = self._unit(_size(shape), dtype)
        if low == 0 and high == 1:
            return unit.reshape(shape)  # u*1 + 0 is u
        low, high = dtype(low), dtype(high)
        if _profile == "avx2":
            fma = _fma32 if dtype is _f32 else _fma64
            values = fma(unit, high - low, low)
        else:
            values = unit * (high - low) + low
        return np.where(values == high, low, values).reshape(shape)

    # -- normals

    def _standard_normals(self, n):
        """n float64 normals from the scalar path, normal_distribution<double>.

        Each pair of float64 uniforms (ua, ub) gives r*cos and r*sin with
        r = sqrt(-2 log1p(-ub)), theta = 2 pi ua. The sine waits in the cache; a
        waiting value is used first, by whatever normal call comes next.
        """
        out = np.empty(n)
        start = 0
        if n and self._normal_cache is not None:
            out[0], self._normal_cache, start = self._normal_cache, None, 1
        pairs = (n - start + 1) // 2
        if pairs:
            unit = self._unit(2 * pairs, _f64).reshape(pairs, 2)
            radius = np.sqrt(-2.0 * _libm_log1p(-unit[:, 1]))
            theta = 2 * math.pi * unit[:, 0]
            values = np.stack([radius * _libm_cos(theta), radius * _libm_sin(theta)], axis=1).reshape(-1)
            out[start:] = values[:n - start]
            if (n - start) % 2:
                self._normal_cache = float(values[-1])
        return out

    def _normal_scalar(self, shape, dtype=_f32, mean=0.0, std=1.0):
        """The scalar path for any size: what PyTorch uses below 16 elements or for
        non-contiguous tensors. v*std + mean is computed in float64 (fused on AVX2
        builds), then cast to the dtype."""
        dtype = _float_dtype(dtype)
        values = self._standard_normals(_size(shape))
        if _profile == "avx2":
            values = _scale_shift(values, float(std), float(mean))
        else:
            values = values * float(std) + float(mean)
        return values.astype(dtype).reshape(shape)

    def _normal(self, shape, dtype=_f32, mean=0.0, std=1.0):
        """normal_(mean, std) on a new contiguous array of the given shape."""
        dtype = _float_dtype(dtype)
        n = _size(shape)
        if n < 16:
            return self._normal_scalar(shape, dtype, mean, std)
        out = self._unit(n, dtype)
        whole = n - n % 16
        for start in range(0, whole, NORMAL_CHUNK):
            chunk = out[start:min(start + NORMAL_CHUNK, whole)]
            chunk[...] = _normal_blocks(chunk, mean, std)
        if n % 16:
            # A ragged tail: 16 fresh uniforms overwrite the last 16 outputs.
            out[n - 16:] = _normal_blocks(self._unit(16, dtype), mean, std)
        return out.reshape(shape)

    # -- integers and choices

    def _randint(self, low, high, shape):
        """int64 uniform in [low, high): word % (high - low) + low, with one word
        below a range of 2^28 and random64() from there up."""
        span = int(high) - int(low)
        if span <= 0:
            raise ValueError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        n = _size(shape)
        draws = self._words64(n) if span >= 2**28 else self._words(n)
        values = draws % np.uint64(span) + np.uint64(int(low) % 2**64)  # wraps like C
        return values.view(np.int64).reshape(shape)

    def _randperm(self, n):
        """A random permutation of range(n) (int64), by PyTorch's Fisher-Yates.

        For i = 0 .. n-2 it swaps slots i and i + random() % (n - i). The offsets come
        vectorised; the swaps depend on each other and run as a Python loop over a
        list, the fastest sequential form in CPython (1e5 elements take ~30 ms).
        """
        n = int(n)
        if n >= 2**32 // 20:
            raise NotImplementedError("randperm of 2^32/20 or more elements uses another algorithm")
        steps = max(n - 1, 0)
        offsets = self._words(steps) % (n - np.arange(steps, dtype=np.uint64))
        targets = (np.arange(steps, dtype=np.uint64) + offsets).tolist()
        perm = list(range(n))
        for i, j in enumerate(targets):
            perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)

    def _bernoulli(self, p, shape, dtype=_f32):
        """1 where a uniform < p, else 0, as dtype.

        A float p (bernoulli_(p), dropout) compares float64 uniforms. An array p
        (bernoulli(probs)) is broadcast to shape and compares uniforms of its own
        dtype: float32 probabilities use one word each, float64 two.
        """
        if isinstance(p, np.ndarray):
            p_dtype = _float_dtype(p.dtype)
            p = np.broadcast_to(p, shape)
        else:
            p_dtype = _f64
        unit = self._unit(_size(shape), p_dtype).reshape(shape)
        return (unit < p).astype(dtype)


default_generator = Generator()


def manual_seed(seed):
    """Seed the default generator; returns it, as torch.manual_seed does."""
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


# ---------------------------------------------------------------- tensor functions
# The tensor module imports its neighbours, so we import from it on first use.

def _tensor_class():
    return Tensor


def _new_tensor(array, requires_grad=False, device=None):
    check(device)
    return _tensor_class()._wrap(array, requires_grad=requires_grad)


def _numpy_dtype(dtype):
    return to_numpy(dtype)


def _shape(size, keyword=None):
    """PyTorch's size arguments: rand(2, 3), rand((2, 3)), rand([2, 3]) or rand(size=(2, 3))."""
    if keyword is not None:
        size = (keyword,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(int(s) for s in size)


def _generator(generator):
    return default_generator if generator is None else generator


def rand(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform floats in [0, 1): ``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=(2, 3))``."""
    values = _generator(generator)._uniform(_shape(sizes, size), _numpy_dtype(dtype))
    return _new_tensor(values, requires_grad, device)


def randn(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Standard normal floats, of the shape given as for ``rand``."""
    values = _generator(generator)._normal(_shape(sizes, size), _numpy_dtype(dtype))
    return _new_tensor(values, requires_grad, device)


def _like_dtype(input, dtype):
    return input._array.dtype if dtype is None else _numpy_dtype(dtype)


def rand_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    values = _generator(generator)._uniform(input._array.shape, _like_dtype(input, dtype))
    return _new_tensor(values, requires_grad, device)


def randn_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    values = _generator(generator)._normal(input._array.shape, _like_dtype(input, dtype))
    return _new_tensor(values, requires_grad, device)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    """torch.normal: normal(0.5, 2.0, size=(3,)), or elementwise with a tensor mean and/or std.

    With a tensor, PyTorch draws standard normals (normal(0, std) for a float std),
    then multiplies by std and adds mean as separate operations in the result's dtype.
    """
    Tensor = _tensor_class()
    gen = _generator(generator)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal(float mean, float std) needs a size")
        shape = _shape((size,) if isinstance(size, int) else size)
        return _new_tensor(gen._normal(shape, _numpy_dtype(dtype), mean, std), requires_grad, device)
    dtype = (mean if isinstance(mean, Tensor) else std)._array.dtype
    means = mean._array if isinstance(mean, Tensor) else dtype.type(mean)
    if isinstance(std, Tensor):
        shape = np.broadcast_shapes(np.shape(means), std._array.shape)
        values = gen._normal(shape, dtype) * std._array.astype(dtype, copy=False)
    else:
        values = gen._normal(np.shape(means), dtype, 0.0, std)
    return _new_tensor((values + means).astype(dtype, copy=False), requires_grad, device)


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """torch.randint(high, size) or torch.randint(low, high, size): int64 unless dtype says."""
    if size is None:
        *bounds, size = args
    else:
        bounds = list(args)
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    shape = _shape((size,) if isinstance(size, int) else size)
    values = _generator(generator)._randint(low, high, shape)
    if dtype is not None:
        values = values.astype(_numpy_dtype(dtype))
    return _new_tensor(values, requires_grad, device)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    values = _generator(generator)._randperm(n)
    if dtype is not None:
        values = values.astype(_numpy_dtype(dtype))
    return _new_tensor(values, requires_grad, device)


@public(methods="bernoulli")
def bernoulli(input, p=None, *, generator=None):
    """0/1 samples shaped like input: with probabilities input, or with one probability p."""
    probabilities = input._array if p is None else float(p)
    values = _generator(generator)._bernoulli(probabilities, input._array.shape, input._array.dtype)
    out = _new_tensor(values)
    if p is not None:
        return out
    return recorded(out, (input,), BernoulliBackward0)  # a sample has no gradient: PyTorch records zeros


def get_rng_state():
    """The default generator's state as a uint8 tensor of 5056 bytes."""
    return _new_tensor(default_generator.get_state())


def set_rng_state(new_state):
    default_generator.set_state(new_state._array)


# In-place fillers (the tensor methods uniform_, normal_, bernoulli_). PyTorch fills
# a tensor in TensorIterator's order, which for a non-contiguous view is memory order.
# They are in-place operations like any other (ops.inplace): a leaf that requires grad
# may be filled only under no_grad, each fill counts one version, and a filled tensor
# that is part of a graph gets a node that gives its old values no gradient.

def _iteration_order(array):
    """The axes of array from the largest stride to the smallest: C order for a
    contiguous array, memory order for a transposed or strided view."""
    if array.flags.c_contiguous:
        return tuple(range(array.ndim))
    return tuple(sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis])))


class _RandomFillBackward(Node):
    """The old values were overwritten by random ones: they get no gradient (zeros)."""

    __slots__ = ()

    def backward(self, grad):
        return grad * 0


class UniformBackward0(_RandomFillBackward):
    __slots__ = ()


class NormalBackward0(_RandomFillBackward):
    __slots__ = ()


class BernoulliBackward0(_RandomFillBackward):
    """``bernoulli(probs)``: the probabilities get a zero gradient."""

    __slots__ = ()


class BernoulliBackward2(_RandomFillBackward):
    """``bernoulli_(p)`` with a number p."""

    __slots__ = ()


class BernoulliBackward1(Node):
    """``bernoulli_(p)`` with a tensor p: neither the old values nor p get a gradient."""

    __slots__ = ("p_shape",)

    def __init__(self, p_shape):
        self._saved = ()
        self.p_shape = p_shape

    def backward(self, grad):
        return grad * 0, sum_to(grad * 0, self.p_shape)


def _fill(tensor, draw, node_type, *inputs, node_args=()):
    """Write draw(shape) into tensor in place, drawn in TensorIterator's order.

    The write goes through ``ops.inplace_history.apply``, which refuses what PyTorch refuses
    (before anything is drawn, so a refused fill leaves the generator alone), counts the
    version and, when the tensor is part of a graph, records a ``node_type(*node_args)``
    on the old value (and on ``inputs``: bernoulli's tensor p)."""
    def filled(old, *args):
        order = _iteration_order(tensor._array)  # tensor's own strides: old is a contiguous copy
        values = draw(tuple(tensor._array.shape[axis] for axis in order)).transpose(np.argsort(order))
        return recorded(_tensor_class()._wrap(values), (old, *args), node_type, *node_args)

    return inplace_history.apply(tensor, filled, *inputs)


@public(methods="uniform_")
def uniform_(tensor, a=0.0, b=1.0, *, generator=None):
    gen = _generator(generator)
    return _fill(tensor, lambda shape: gen._uniform(shape, tensor._array.dtype, a, b), UniformBackward0)


@public(methods="normal_")
def normal_(tensor, mean=0.0, std=1.0, *, generator=None):
    """Fill with normals; like PyTorch, a non-contiguous tensor takes the scalar path."""
    gen = _generator(generator)
    draw = gen._normal if tensor._array.flags.c_contiguous else gen._normal_scalar
    return _fill(tensor, lambda shape: draw(shape, tensor._array.dtype, mean, std), NormalBackward0)


@public(methods="bernoulli_")
def bernoulli_(tensor, p=0.5, *, generator=None):
    """Fill with 0/1: p is a float, or a tensor of probabilities broadcast to tensor's shape."""
    gen = _generator(generator)
    array = tensor._array
    if not isinstance(p, _tensor_class()):
        return _fill(tensor, lambda shape: gen._bernoulli(float(p), shape, array.dtype), BernoulliBackward2)
    probabilities = np.broadcast_to(p._array, array.shape).transpose(_iteration_order(array))
    return _fill(
        tensor, lambda shape: gen._bernoulli(probabilities, shape, array.dtype), BernoulliBackward1, p,
        node_args=(p._array.shape,),
    )
