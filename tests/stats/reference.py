"""Independent reference values for tests/stats, from first principles in exact or 90-digit
arithmetic (Python standard library only). Not run by the test suite; rerun it to check a value:

    python3 tests/stats/reference.py

Each section prints what the TypeScript tests hard-code, with the formula it was computed by.
"""
from decimal import Decimal as D, getcontext
from fractions import Fraction
from math import comb

getcontext().prec = 90


def arctan_inv(n):
    x, s, k = D(1) / n, D(0), 0
    t = x
    while abs(t) > D(10) ** -95:
        s += t / (2 * k + 1) if k % 2 == 0 else -t / (2 * k + 1)
        t *= x * x
        k += 1
    return s


PI = 16 * arctan_inv(5) - 4 * arctan_inv(239)  # Machin
SQRT_2PI = (2 * PI).sqrt()


def upper_tail(x):
    """Q(x) = 1/2 - phi(x) * sum x^(2n+1)/(2n+1)!!, in 90 digits (the cancellation is harmless)."""
    x = D(x)
    term = s = x
    n = 1
    while s and term > D(10) ** -95 * s:
        term = term * x * x / (2 * n + 1)
        s += term
        n += 1
    return D("0.5") - (-(x * x) / 2).exp() / SQRT_2PI * s


def upper_quantile(q):
    lo, hi = D(0), D(10)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if upper_tail(mid) > D(q) else (lo, mid)
    return lo


print("== normal: z with P(Z > z) = q, q the exact double given")
for label, q in [("(1-0.95)/2", (1 - 0.95) / 2), ("(1-0.90)/2", (1 - 0.9) / 2), ("(1-0.99)/2", (1 - 0.99) / 2),
                 ("1-0.975", 1 - 0.975), ("1-0.95", 1 - 0.95), ("1-0.9995", 1 - 0.9995), ("1-(1-1e-10)", 1 - (1 - 1e-10))]:
    print(f"  q = {label}: z = {float(upper_quantile(q))!r}")
print("  z for the real number 0.975:", str(upper_quantile(D("0.025")))[:22])
for x in (0, 0.5, 1, 1.959963984540054, 1.999, 3, 5, 8, 10):
    print(f"  Q({x}) = {float(upper_tail(x))!r}")

print("== Wilson: (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = upper_quantile((1-0.95)/2)")
z = upper_quantile((1 - 0.95) / 2)
for x, n in [(7, 18), (0, 18), (18, 18), (1, 1), (50, 100), (0, 10), (3, 7), (1, 1000), (1, 10 ** 9)]:
    p, nn = D(x) / n, D(n)
    centre = p + z * z / (2 * nn)
    half = z * (p * (1 - p) / nn + z * z / (4 * nn * nn)).sqrt()
    print(f"  {x}/{n}: [{float((centre - half) / (1 + z * z / nn))!r}, {float((centre + half) / (1 + z * z / nn))!r}]")

print("== binomial: P(X <= k), X ~ Binomial(n, 1/2), as an exact fraction sum C(n,i) / 2^n")


def half_cdf(k, n):
    total, c = 0, 1
    for i in range(k + 1):
        c = c if i == 0 else c * (n - i + 1) // i  # C(n, i), exactly
        total += c
    return Fraction(total, 2 ** n)


for k, n in [(1, 10), (3, 12), (0, 5), (4900, 10000), (4999, 10000), (5000, 10000), (4000, 10000),
             (49500, 100000), (45000, 100000)]:
    print(f"  P(X <= {k}; n = {n}) = {float(half_cdf(k, n))!r}; exact McNemar p = {float(min(1, 2 * half_cdf(k, n)))!r}")

print("== pass@k = 1 - C(n-c,k)/C(n,k), pass^k = C(c,k)/C(n,k), exact")
for n, c, k in [(10, 3, 1), (10, 3, 5), (5, 0, 3), (10, 9, 2), (200, 7, 10), (10, 3, 2), (20, 15, 4)]:
    at = 1 - Fraction(comb(n - c, k), comb(n, k))
    hat = Fraction(comb(c, k), comb(n, k))
    print(f"  n={n} c={c} k={k}: pass@k = {at} = {float(at)!r}; pass^k = {hat} = {float(hat)!r}")

print("== mulberry32, transcribed from Ettinger's C definition in uint32 arithmetic")
M = 0xFFFFFFFF


def mulberry32(seed):
    x = seed & M
    while True:
        x = (x + 0x6D2B79F5) & M
        t = ((x ^ (x >> 15)) * (x | 1)) & M
        t ^= (t + ((t ^ (t >> 7)) * (t | 61))) & M
        yield (t ^ (t >> 14)) & M


for s in (0, 1, 42, 2 ** 32 + 42, -1):
    g = mulberry32(s)
    print(f"  seed {s}: {[next(g) for _ in range(5)]}")

print("== bootstrapMeanInterval, re-done in Python floats (IEEE doubles, same operations in the same order)")


def quantile7(xs, q):
    h = (len(xs) - 1) * q
    lo = int(h // 1)
    a, b = xs[lo], xs[min(lo + 1, len(xs) - 1)]
    return a if a == b else a + (h - lo) * (b - a)


def bootstrap(values, seed, resamples, confidence):
    g = mulberry32(seed)
    n, origin = len(values), values[0]
    total = 0.0
    for v in values:
        total += v - origin
    means = []
    for _ in range(resamples):
        s = 0.0
        for _ in range(n):
            s += values[int(next(g) / 4294967296 * n)] - origin
        means.append(origin + s / n)
    means.sort()
    alpha = 1 - confidence
    return origin + total / n, quantile7(means, alpha / 2), quantile7(means, 1 - alpha / 2)


SAMPLE = [0.12, 3.5, 2.25, 7.0, 1.0, 0.5, 4.75, 2.0, 9.5, 3.3]
for seed, resamples, confidence in [(42, 200, 0.95), (7, 2000, 0.9)]:
    print(f"  seed {seed}, {resamples} resamples, confidence {confidence}: (mean, low, high) = "
          f"{bootstrap(SAMPLE, seed, resamples, confidence)!r}")

print("== clusteredPassInterval: the Wilson formula above with n = items, p = mean of the items' pass fractions")
for label, fractions in [("1, 1, 1/2, 0", [1, 1, D(1) / 2, 0]), ("nine of 1 and 1/2", [1] * 9 + [D(1) / 2]),
                         ("one item at 1/2", [D(1) / 2]), ("2/3, 1/3, 1", [D(2) / 3, D(1) / 3, 1])]:
    nn = D(len(fractions))
    p = sum(D(f) for f in fractions) / nn
    centre = p + z * z / (2 * nn)
    half = z * (p * (1 - p) / nn + z * z / (4 * nn * nn)).sqrt()
    print(f"  {label}: [{float((centre - half) / (1 + z * z / nn))!r}, {float((centre + half) / (1 + z * z / nn))!r}]")

print("== pairedItemTest: P(|sum of +-d_i| >= |sum d_i|) over all 2^m sign vectors, d_i exact fractions")
from itertools import product


def sign_flip(ds):
    ds = [d for d in ds if d != 0]
    observed = abs(sum(ds))
    if observed == 0:
        return Fraction(1)
    hits = sum(1 for signs in product((1, -1), repeat=len(ds)) if abs(sum(s * d for s, d in zip(signs, ds))) >= observed)
    return Fraction(hits, 2 ** len(ds))


F = Fraction
for label, ds in [("6/10, 0, -2/10, 7/10, 0, 5/10", [F(6, 10), 0, F(-2, 10), F(7, 10), 0, F(5, 10)]),
                  ("3/4, 1/2, 1/2, 1/4", [F(3, 4), F(1, 2), F(1, 2), F(1, 4)]),
                  ("2/3 - 1/2, 1, -1/3, 1/2 - 1/4", [F(2, 3) - F(1, 2), 1, F(-1, 3), F(1, 2) - F(1, 4)]),
                  ("0/1: +1 x 1, -1 x 9 (McNemar 1, 9)", [1] + [-1] * 9),
                  ("1, 1, 1, 1, 1, -1/2, 1/3, -1/10, 1/5, 2/5, -3/10, 1/10", [1] * 5 + [F(-1, 2), F(1, 3), F(-1, 10), F(1, 5), F(2, 5), F(-3, 10), F(1, 10)])]:
    p = sign_flip(ds)
    print(f"  {label}: p = {p} = {float(p)!r}")
