# Checks `git campaign ab`'s statistics (the build/tests/ab-judge driver,
# which calls ab_judge) against scipy on seeded samples: the Mann-Whitney p
# (scipy's exact test without ties, the exact permutation test of the
# mid-ranks with ties, its asymptotic test above 40 values), the Hodges-Lehmann
# estimate and interval (a few lines of numpy, and the inversion of
# scipy's own test), and the verdict. Usage: ab_stats_ref.py DRIVER FAMILY
import itertools
import json
import math
import subprocess
import sys

import numpy as np
from scipy import stats

ALPHA, MIN_EFFECT = 0.05, 0.02


def cases(family):
    rng = np.random.default_rng({"unimodal": 1, "bimodal": 2, "tied": 3,
                                 "zeros": 4, "large": 5}[family])
    out = []
    if family == "unimodal":
        for n in (3, 4, 5, 6, 8, 10, 12, 15, 20):
            for eff in (1.0, 0.97, 1.03, 1.1):
                for nb in (n, n + 3):
                    a = 1000 * np.exp(0.04 * rng.standard_normal(n))
                    b = eff * 1000 * np.exp(0.04 * rng.standard_normal(nb))
                    out.append((a, b))
    elif family == "bimodal":
        for n in (10, 15, 20):
            for _ in range(8):
                def arm(k, slow, eff):
                    v = 10 * eff * np.exp(0.01 * rng.standard_normal(k))
                    return np.where(rng.random(k) < slow, 1.5 * v, v)
                out.append((arm(n, 0.55, 1.0), arm(n, 0.45, 1.03)))
    elif family == "tied":
        for n in (5, 6, 7):
            for eff in (1.0, 1.02, 1.03, 1.05, 1.08):
                a = 20 * np.round(50 * np.exp(0.02 * rng.standard_normal(n)))
                b = 20 * np.round(50 * eff *
                                  np.exp(0.02 * rng.standard_normal(n)))
                out.append((a, b))
        for n in (25, 30):
            for eff in (1.0, 1.02, 1.04):
                a = 20 * np.round(50 * np.exp(0.02 * rng.standard_normal(n)))
                b = 20 * np.round(50 * eff *
                                  np.exp(0.02 * rng.standard_normal(n)))
                out.append((a, b))
    elif family == "zeros":
        for n in (5, 6, 7, 25, 30):
            for lam in (1.0, 1.5, 4.0):
                out.append((rng.poisson(1.0, n).astype(float),
                            rng.poisson(lam, n).astype(float)))
            for shift in (0.0, 0.5, 2.0):
                out.append((np.round(rng.standard_normal(n), 1),
                            np.round(rng.standard_normal(n) + shift, 1)))
    elif family == "large":
        for n in (21, 30, 45, 60):
            for eff in (1.0, 0.99, 1.02, 1.05):
                a = 1000 * np.exp(0.04 * rng.standard_normal(n))
                b = eff * 1000 * np.exp(0.04 * rng.standard_normal(n - 1))
                out.append((a, b))
    return [(list(map(float, a)), list(map(float, b))) for a, b in out]


def ref_p(a, b):
    if len(a) + len(b) > 40:
        return stats.mannwhitneyu(a, b, method="asymptotic").pvalue, "normal"
    if len(set(a + b)) == len(a + b):
        return stats.mannwhitneyu(a, b, method="exact").pvalue, "exact"
    return mid_rank_p_of(*ranks_at(a, b, 0.0, False)), "ties"


def ranks_at(la, lb, t, gap):
    """Mid-ranks of a and of b shifted by -t, counted from the differences
    d = b - a as computed: b - t is below a when d < t (in a gap just
    above t: d <= t, never tied), tied with it when d == t"""
    d = np.subtract.outer(np.array(lb), np.array(la))  # d[j, i]
    below = (d <= t) if gap else (d < t)
    tie = np.zeros_like(below) if gap else (d == t)
    a, b = np.array(la), np.array(lb)
    ra = [np.sum(a < x) + np.sum(below[:, i]) +
          (np.sum(a == x) + np.sum(tie[:, i]) + 1) / 2
          for i, x in enumerate(a)]
    rb = [np.sum(b < x) + np.sum(~below[j] & ~tie[j]) +
          (np.sum(b == x) + np.sum(tie[j]) + 1) / 2
          for j, x in enumerate(b)]
    return ra, rb


def p_ranks(ra, rb, kind):
    if kind == "ties":
        return mid_rank_p_of(ra, rb)
    return stats.mannwhitneyu(ra, rb, method=(
        "asymptotic" if kind == "normal" else "exact")).pvalue


SPLITS = {}


def mid_rank_p_of(ra, rb):
    """The exact permutation test of a's sum of mid-ranks: every split of
    the pool, enumerated (what scipy's permutation_test does, faster)"""
    r = np.array(ra + rb, dtype=float)
    key = (len(r), len(ra))
    if key not in SPLITS:
        SPLITS[key] = np.array(list(itertools.combinations(range(len(r)),
                                                           len(ra))))
    sums = r[SPLITS[key]].sum(axis=1)
    t = sum(ra)
    eps = 1e-9
    return min(1.0, 2 * min(np.mean(sums <= t + eps),
                            np.mean(sums >= t - eps)))


def accepted(la, lb, t, gap, kind):
    return p_ranks(*ranks_at(la, lb, t, gap), kind) >= ALPHA


def interval(la, lb, kind, ours):
    """The Hodges-Lehmann interval: the shifts t that scipy's test of a
    against b - t accepts, at each difference and in each gap between
    two. Small cases scan every one; larger ones check that ours ends
    where the accepted shifts end (accepted at its ends, rejected just
    outside them)"""
    u = np.unique(np.subtract.outer(np.array(lb), np.array(la)).ravel())
    tied = kind == "ties" or len(set(la + lb)) < len(la + lb)
    # without ties, scipy's exact test cannot take the one tie at a
    # difference: the gaps decide (an accepted gap's ends are in)
    if len(u) <= 16:
        # (t, gap): t itself, or the gap above it, both starting at t
        elems = [(np.nextafter(u[0], -np.inf), True)]
        for x in u:
            if tied:
                elems.append((x, False))
            elems.append((x, True))
        acc = [accepted(la, lb, t, g, kind) for t, g in elems]
        if acc[0] or acc[-1] or not any(acc):
            return None
        first = acc.index(True)
        last = len(acc) - 1 - acc[::-1].index(True)
        lo, (t, gap) = elems[first][0], elems[last]
        hi = u[np.searchsorted(u, t, side="right")] if gap else t
        return lo, hi
    if ours is None:
        # none: a shift below or above every difference is accepted
        unbounded = accepted(la, lb, np.nextafter(u[0], -np.inf), True,
                             kind) or accepted(la, lb, u[-1], True, kind)
        return None if unbounded else "missing where it is bounded"
    lo, hi = ours
    below = np.nextafter(lo, -np.inf)
    ok = ((tied and accepted(la, lb, lo, False, kind)) or
          accepted(la, lb, lo, True, kind)) and \
        not accepted(la, lb, below, True, kind) and \
        ((tied and accepted(la, lb, hi, False, kind)) or
         accepted(la, lb, np.nextafter(hi, -np.inf), True, kind)) and \
        not accepted(la, lb, hi, True, kind)
    if tied:
        ok = ok and not accepted(la, lb, u[np.searchsorted(u, lo) - 1],
                                 False, kind)
    return ours if ok else "rejected"


def verdict(p, eff, lo, hi, n):
    if n < 5:
        return "no verdict"
    sig = p < ALPHA
    if sig and abs(eff) >= MIN_EFFECT:
        return "faster" if eff < 0 else "slower"
    if sig and lo is not None and abs(lo) < MIN_EFFECT and \
            abs(hi) < MIN_EFFECT:
        return "~"
    if lo is not None and (hi - lo) / 2 > MIN_EFFECT:
        return "inconclusive"
    return "~"


def close(x, y, rel):
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-300)


def main():
    driver, family = sys.argv[1], sys.argv[2]
    cs = cases(family)
    text = "".join(" ".join(repr(x) for x in a) + " | " +
                   " ".join(repr(x) for x in b) + "\n" for a, b in cs)
    got = [json.loads(l) for l in subprocess.run(
        [driver], input=text, capture_output=True, text=True,
        check=True).stdout.splitlines()]
    assert len(got) == len(cs), "the driver answered %d of %d cases" % (
        len(got), len(cs))
    bad = 0
    kinds = {}
    for (a, b), g in zip(cs, got):
        p, kind = ref_p(a, b)
        kinds[kind] = kinds.get(kind, 0) + 1
        pos = min(a + b) > 0
        la = [math.log(x) for x in a] if pos else a
        lb = [math.log(x) for x in b] if pos else b
        shift = float(np.median(np.subtract.outer(np.array(lb),
                                                  np.array(la))))
        oc = (g["shift_lo"], g["shift_hi"])
        ci = interval(la, lb, kind, None if oc[0] is None else oc)
        if isinstance(ci, str):
            bad += 1
            print("case %d+%d (%s): the interval is %s by scipy's test\n"
                  "  ours %s" % (len(a), len(b), kind, ci, g))
            continue
        if pos:
            est, lo, hi = math.exp(shift), None, None
            if ci is not None:
                lo, hi = math.exp(ci[0]), math.exp(ci[1])
            keys = ("ratio", "ci_lo", "ci_hi")
            eff = est - 1
            rlo, rhi = (lo - 1, hi - 1) if lo is not None else (None, None)
        else:
            est, lo, hi = shift, None, None
            if ci is not None:
                lo, hi = float(ci[0]), float(ci[1])
            keys = ("diff", "diff_lo", "diff_hi")
            ma, mb = float(np.median(a)), float(np.median(b))
            scale = abs(ma) if ma != 0 else abs(mb)
            eff = est / scale if scale else float("nan")
            rlo, rhi = ((lo / scale, hi / scale) if lo is not None and scale
                        else (None, None))
        v = verdict(p, eff, rlo, rhi, min(len(a), len(b))) \
            if not math.isnan(eff) else "no verdict"
        want = {"p": p, keys[0]: est, keys[1]: lo, keys[2]: hi}
        errs = [k for k in want
                if not close(g[k], want[k], 1e-9 if k == "p" else 1e-12)]
        if g["verdict"] != v:
            errs.append("verdict %s, scipy's %s" % (g["verdict"], v))
        if g["on_diff"] == pos:
            errs.append("on_diff")
        # one estimator: the verdict's side is the interval's, and p < 0.05
        # exactly when the interval leaves out "no change"
        one = 1.0 if pos else 0.0
        if lo is not None:
            if (p < ALPHA) != (lo >= one or hi <= one) and \
                    not (lo == one or hi == one):
                errs.append("p %.3g and CI [%r, %r] disagree" % (p, lo, hi))
            if not lo <= est <= hi:
                errs.append("estimate outside its CI")
        if g["verdict"] == "faster" and not est < one or \
                g["verdict"] == "slower" and not est > one:
            errs.append("verdict against its estimate")
        if errs:
            bad += 1
            print("case %d+%d (%s): %s\n  ours %s\n  want %s" % (
                len(a), len(b), kind, "; ".join(errs), g, want))
    print("%s: %d cases (%s), %d differ" % (
        family, len(cs), ", ".join("%d %s" % (v, k)
                                   for k, v in sorted(kinds.items())), bad))
    sys.exit(1 if bad else 0)


main()
