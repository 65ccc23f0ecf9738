#!/usr/bin/python3
"""Fits the polynomial coefficients of kernels/vmath_simd.h (numpy only, double precision).

Method: least squares on a dense Chebyshev-distributed grid, then Lawson's iteration (weights
multiplied by the pointwise error, renormalised) which converges toward the minimax (equioscillating)
solution. Errors are measured relative to the target function (weighted where noted). The target
functions come from Python's math module (glibc erf/erfc/exp, accurate to ~1 ulp of a double),
far more precise than the f32 results they feed. Output: C initialisers, float-rounded, and the
max relative error of the float-rounded coefficients evaluated in double.

    /usr/bin/python3 tools/fit_vmath.py
"""
import math
import numpy as np

def lawson(xs, f, basis, w, iters=60):
    """Minimise max |w*(f - sum c_k basis_k)| over xs; returns coefficients."""
    A = np.stack([b(xs) for b in basis], axis=1)
    lw = np.ones_like(xs)
    for _ in range(iters):
        sw = np.sqrt(lw) * w
        c, *_ = np.linalg.lstsq(A * sw[:, None], f * sw, rcond=None)
        err = np.abs(w * (f - A @ c))
        lw = lw * (err + 1e-300)
        lw /= lw.sum()
    return c

def lawson_f32(xs, f, basis, w):
    """Coefficients rounded to float one at a time, lowest order first, refitting the rest after
    each rounding so later terms absorb the rounding error of earlier ones."""
    fixed = []
    for k in range(len(basis)):
        rest = f - sum(c * b(xs) for c, b in zip(fixed, basis))
        c = lawson(xs, rest, basis[k:], w)
        fixed.append(float(np.float32(c[0])))
    return np.array(fixed)

def cheb_grid(lo, hi, n=4000):
    k = np.arange(n)
    return 0.5 * (lo + hi) + 0.5 * (hi - lo) * np.cos(np.pi * (k + 0.5) / n)

def f32(c):
    return np.array(c, dtype=np.float32).astype(np.float64)

def horner(c, v):
    r = np.zeros_like(v)
    for ck in reversed(c):
        r = r * v + ck
    return r

def show(name, c, relerr):
    print(f"/* {name}: max rel err {relerr:.3g} (2^{math.log2(relerr):.1f}) */")
    print("{" + ", ".join(f"{float(np.float32(x))!r}f" for x in c) + "}")

# exp(r) = 1 + r + r^2 q(r), |r| <= ln2/2: fit q, weight r^2/e^r (relative error of exp).
h = math.log(2) / 2
r = cheb_grid(-h, h); r = r[np.abs(r) > 1e-4]
q = (np.exp(r) - 1 - r) / r**2
w = r**2 / np.exp(r)
c = f32(lawson_f32(r, q, [lambda x, k=k: x**k for k in range(5)], w))
e = np.max(np.abs((1 + r + r * r * horner(c, r)) / np.exp(r) - 1))
show("exp q(r), c2..c6", c, e)

# 2^f = 1 + f ln2 + f^2 Q(f), |f| <= 1/2 (the AVX2 gelu_tanh, whose argument is in units of ln2):
# fit Q, weight f^2/2^f; f ln2 is added in two parts (ln2 as a float pair) by the kernel.
f = cheb_grid(-0.5001, 0.5001); f = f[np.abs(f) > 1e-4]
ln2h = float(np.float32(math.log(2)))
Q = (np.exp2(f) - 1 - f * math.log(2)) / f**2
w = f**2 / np.exp2(f)
c = f32(lawson_f32(f, Q, [lambda x, k=k: x**k for k in range(5)], w))
e = np.max(np.abs((1 + f * math.log(2) + f * f * horner(c, f)) / np.exp2(f) - 1))
show(f"exp2 Q(f), ln2 = {ln2h!r} + {float(np.float32(math.log(2) - ln2h))!r}", c, e)

# 2^(-v/32) = 2^(-j/32) (1 + p(r)) for v = 32k + j + r, |r| <= 1/2 (the AVX-512 gelu_tanh, whose
# argument is in units of ln2/32): p(r) = c1 r + c2 r^2 + c3 r^3, error relative to 2^(-r/32); the
# table: 2^(-j/32) as a float and its rounding error relative to it (tau).
r = cheb_grid(-0.5002, 0.5002); r = r[np.abs(r) > 1e-6]
t = np.exp2(-r / 32)
c = f32(lawson_f32(r, t - 1, [lambda x, k=k: x**k for k in range(1, 4)], 1 / t))
e = np.max(np.abs((1 + r * horner(c, r)) / t - 1))
show("2^(-r/32) - 1, c1..c3", c, e)
T = [float(np.float32(2 ** (-j / 32))) for j in range(32)]
print("2^(-j/32): {" + ", ".join(f"{x!r}f" for x in T) + "}")
print("tau: {" + ", ".join(f"{float(np.float32((2 ** (-j / 32) - x) / x))!r}f" for j, x in enumerate(T)) + "}")

# tanh(x) = x + x^3 T(x^2), |x| <= 0.9: error relative to tanh.
x = cheb_grid(1e-3, 0.9)
tt = np.tanh(x)
t = (tt - x) / x**3
c = f32(lawson_f32(x, t, [lambda v, k=k: v**(2 * k) for k in range(8)], x**3 / tt))
e = np.max(np.abs((x + x**3 * horner(c, x * x)) / tt - 1))
show("tanh small T(x^2)", c, e)

# Piecewise tables for a in [0, 15): the intervals split each binade of a + 1 into 2^mbits equal
# parts (index = the exponent and top mbits mantissa bits of a + 1, computed with integer ops in the
# kernels): 8 intervals for mbits = 1, 32 for mbits = 3.
def edges(mbits):
    return [(1 << e) * (1 + k / (1 << mbits)) - 1 for e in range(4) for k in range(1 << mbits)] + [15.0]

def float_center(fn, s_, o_, span=4096, shift=0.02):
    """A float o within `shift` of the interval's centre o_ (in units of v) for which fn(o / s) is
    closest to a float: the polynomial's constant term c0 = fn(o / s) then costs no half ulp, with
    no second float for its rounding error (v = a s - o is exact where a s and o are within a
    factor 2, and rounds once elsewhere; s is a power of 2)."""
    best = None
    step = max(float(np.spacing(np.float32(o_))), shift / span)
    for j in range(-span, span + 1):
        o = float(np.float32(o_ + j * step))
        c0 = fn(o / s_)
        err = abs(c0 - float(np.float32(c0))) / abs(c0)
        if best is None or err < best[0]:
            best = (err, o, float(np.float32(c0)))
    return best

def piecewise(name, fn, deg, hi=15.0, first="free", const_from=None, mbits=1, lead_row=False, center=None):
    """Per interval: polynomial in v = a*s - o, v in [-1, 1], s a power of 2, relative error, with
    o moved off the centre (by a few float steps) to where fn(o/s) rounds to a float within
    ~2^-35, so c0 = fn(o/s) is exact to far below the fit's error. Emitted in u = v/s = a - o/s
    (rows: -o/s, c0, c1 s, c2 s^2, .., c_deg s^deg): every scaling is by a power of 2, so the
    kernel's u = a + (-o/s) is v/s exactly and each Horner step in u is the step in v scaled
    exactly: the same bits as the fit in v, with no multiply by s and no row for it. The first
    interval, [0, w), has s = 1/w, o = 0 (v = a/w in [0, 1], exact) and
    first = "free": c0 from the centre as above; "zero": c0 = 0 (f(0) = 0 exactly, tiny a keep
    relative accuracy); "plus_a": c0 = 0 and the polynomial fits f(a) - a (the kernel adds a
    exactly: no rounding of a leading coefficient like 2/sqrt(pi)). Intervals from const_from on
    hold the constant 1. Fitted on intervals widened by 1e-5: a + 1 rounded may pick a neighbour
    near an edge. lead_row (with first = "zero"): the first interval's c1, a power of 2, moves to a
    row of its own after c_deg (0 in the other intervals) and its place in the c1 row becomes 0: the
    kernel takes c0 + a * that row, exact, as the first interval's constant term (the gelu's
    M(a) = a/2 + ...: no rounding of q before its leading term is added). center ({interval: a}):
    that interval's o is the float nearest a (in v) instead: a root of fn there, so that fn near it
    is c0 + u q(u) with u = a - o exact and c0 tiny (relative accuracy through the zero).)"""
    ed = edges(mbits)
    print(f"/* {name}: {len(ed) - 1} intervals, degree {deg} */")
    rows = []
    for k, (lo, up) in enumerate(zip(ed[:-1], ed[1:])):
        if const_from is not None and k >= const_from:
            rows.append([0.0, 1.0] + [0.0] * deg)
            print(f"/*   [{lo}, {up}): constant 1 (unused) */")
            continue
        up = min(up, hi)
        a = cheb_grid(max(lo - 1e-5, 1e-6), up + 1e-5)
        t = np.array([fn(z) for z in a])
        w = 1 / np.abs(t)
        basis = [lambda z, j=j: z**j for j in range(1, deg + 1)]
        if k == 0 and first != "free":
            s_, o_, c0 = 1 / up, 0.0, 0.0
            base = a if first == "plus_a" else 0
            target = t - base
        else:
            s_ = 2.0 ** math.floor(math.log2(2 / (up - lo)))  # v within [-1, 1] on clipped ones
            if center and k in center:
                o_ = float(np.float32(s_ * center[k]))
                c0 = float(np.float32(fn(o_ / s_)))
                err0 = abs(fn(o_ / s_) - c0) / abs(c0)
            else:
                err0, o_, c0 = float_center(fn, s_, float(np.float32(s_ * (up + lo) / 2)))  # the centre, in v
            print(f"/*   c0 = f(o/s) within 2^{math.log2(err0 + 1e-300):.1f} of its float */")
            base = 0
            target = t - c0
        v = a * s_ - o_
        c = lawson_f32(v, target, basis, w)
        e = np.max(np.abs(w * ((horner(c, v) * v + c0 + base) - t)))
        print(f"/*   [{lo}, {up}): max rel err {e:.3g} (2^{math.log2(e):.1f}) */")
        assert s_ == 2.0 ** round(math.log2(s_))
        rows.append([-o_ / s_ if o_ else 0.0, c0] + [ck * s_**(j + 1) for j, ck in enumerate(c)])
    if lead_row:
        lead = float(np.float32(rows[0][2]))
        assert first == "zero" and lead == 2.0 ** round(math.log2(lead))
        rows[0][2] = 0.0
        for k, r in enumerate(rows):
            r.append(lead if k == 0 else 0.0)
    print("{")
    for k in range(len(rows[0])):
        print("    {" + ", ".join(f"{float(np.float32(r[k]))!r}f" for r in rows) + "},")
    print("}")

# erf(a) directly, a in [0, 4] (erf(4) rounds to 1; the kernels clamp there).
piecewise("erf(a)", math.erf, 8, hi=4.0, first="plus_a", const_from=5)

# gelu tail: gelu(-a) = -exp(-a^2/2) M(a), M(a) = a Phi(-a) exp(a^2/2) (M(0) = 0).
def M(a):
    return a * 0.5 * math.erfc(a / math.sqrt(2)) * math.exp(a * a / 2)
piecewise("gelu tail M(a)", M, 7, hi=14.5, first="zero", lead_row=True)
# the AVX-512 gelu: 32 intervals (a two-register permute reads 32 entries), degree 5
piecewise("gelu tail M(a), AVX-512", M, 5, hi=14.5, first="zero", mbits=3)

# erfc: erfc(a) = exp(-a^2) N(a), N(a) = erfc(a) exp(a^2); a in [0, 10.1].
def N(a):
    return math.erfc(a) * math.exp(a * a)
piecewise("erfc tail N(a)", N, 8, hi=10.1, const_from=7)

# gelu backward: g(a) = gelu'(-a) for a = |x| >= 0, and gelu'(a) = 1 - g(a) (gelu(x) - gelu(-x) = x).
# Exact form: g(a) = exp(-a^2/2) D(a), D(a) = Phi(-a) exp(a^2/2) - a / sqrt(2 pi) (= M(a)/a - a phi(0)),
# which crosses 0 at a0 = 0.7517916...: the interval [0.5, 1) is centred on the float nearest a0,
# so D keeps its relative accuracy through the zero. a in [0, 14.75] (beyond, g rounds to 0).
def bisect(f, lo, hi):
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if (f(lo) < 0) == (f(mid) < 0):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
def D(a):
    return 0.5 * math.erfc(a / math.sqrt(2)) * math.exp(a * a / 2) - a / math.sqrt(2 * math.pi)
a0 = bisect(D, 0.5, 1.0)
print(f"/* D's zero a0 = {a0!r} */")
piecewise("gelu_bwd erf form D(a)", D, 8, hi=14.75, center={1: a0})
# tanh form: Y = a (k1 + k2 a^2) (k1 = 2 sqrt(2/pi), k2 = 0.044715 k1), g(a) = exp(-Y) H(a),
# H(a) = (1 + exp(-Y) - a (k1 + 3 k2 a^2)) / (1 + exp(-Y))^2; zero near 0.75 as D's.
K1 = 2 * math.sqrt(2 / math.pi)
K2 = 0.044715 * K1
def H(a):
    e = math.exp(-a * (K1 + K2 * a * a))
    return (1 + e - a * (K1 + 3 * K2 * a * a)) / (1 + e) ** 2
h0 = bisect(H, 0.5, 1.0)
print(f"/* H's zero h0 = {h0!r} */")
piecewise("gelu_bwd tanh form H(a)", H, 8, hi=11.25, center={1: h0})
