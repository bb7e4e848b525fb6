"""Compares rosenblatt bench's measured roofline with the C probe's.

    python3 bench/probe/compare.py PREFIX ROUNDS

reads PREFIX-N.json (bench reports) and PREFIX-probe-N.txt (probe outputs)
for N = 1..ROUNDS, as compare.sh writes them, and prints each figure's
maximum over the rounds for both (a bandwidth's over the rounds whose
working set of its level is the commonest), their ratio, and whether it
is within 10 %; then the ratios round by round. Only the standard library.
"""
import json
import re
import sys

prefix, rounds = sys.argv[1], int(sys.argv[2])
LEVELS = ["L1", "L2", "L3", "DRAM"]
IMPLS = {"avx512": ("AVX-512", 512), "avx2": ("AVX2", 256)}


def bench_figures(path):
    rep = json.load(open(path))
    rf = rep["roofline"]
    out = {"clock GHz": rf["clock_hz"] / 1e9}
    sizes = {l["name"]: l["bytes"] for l in rf["levels"]}
    for im in rf["impls"]:
        if im["impl"] not in IMPLS:
            continue
        name = IMPLS[im["impl"]][0]
        out[f"{name} peak f32"] = im["peak_gflops_float32"]
        out[f"{name} peak f64"] = im["peak_gflops_float64"]
        for r in im["read_gbps"]:
            out[f"{name} read {r['level']}"] = r["gbps"]
        for r in im.get("read_gbps_first", []):
            out[f"{name} read {r['level']} first"] = r["gbps"]
    return out, sizes, rep["machine"]["brand"], rf["trials"]


def probe_figures(path):
    out = {}
    for line in open(path):
        if m := re.match(r"probe: maximum over (\d+) trials", line):
            out["trials"] = int(m[1])
        elif m := re.match(r"clock\s+([\d.]+) GHz", line):
            out["clock GHz"] = float(m[1])
        elif m := re.match(r"FMA peak\s+([\d.]+) GFLOP/s (\S+) float(32|64)", line):
            out[f"{m[2]} peak f{m[3]}"] = float(m[1])
        elif m := re.match(r"read (\S+)\s+([\d.]+) GB/s\s+(\d+)-bit", line):
            out[f"{'AVX-512' if m[3] == '512' else 'AVX2'} read {m[1]}"] = float(m[2])
    return out


runs = []
for n in range(1, rounds + 1):
    b, sizes, brand, bench_trials = bench_figures(f"{prefix}-{n}.json")
    runs.append((b, probe_figures(f"{prefix}-probe-{n}.txt"), sizes))
# A bench bandwidth is compared twice: its roof (every measurement of the
# run, the refreshes around each case included: many more trials than the
# probe's) and its first measurement alone (as many trials as the probe's,
# before the cases).
def probe_key(k):
    return k.removesuffix(" first")


keys = [k for k in runs[0][0] if all(probe_key(k) in r[1] for r in runs)]
keys.sort(key=lambda k: (probe_key(k), k.endswith(" first")))
print(f"{brand}: rosenblatt bench's roofline against the C probe (bench/probe/probe.c), {rounds} rounds")
print("working sets per round: " + "; ".join(
    ", ".join(f"{l} {r[2][l] >> 10} KiB" for l in LEVELS) for r in runs))
probe_trials = runs[0][1].get("trials", "?")
print("\n(\"read X\": the bench's roof, the maximum of all its measurements in the run: its first, then")
print("two more around each case of the level, see the report's notes; \"read X first\": its first")
print(f"measurement alone, before any case, {bench_trials} trials; the probe: {probe_trials} trials per figure)")
print(f"\n{'figure':<28} {'bench max':>10} {'probe max':>10} {'ratio':>7}  within 10 %")
# A bandwidth's maxima are taken over the rounds whose working set of its
# level is the commonest one (the L3 size, and so the L3 and DRAM sets, is
# measured anew each round and may differ): like with like.
def level_of(k):
    m = re.search(r"read (\S+)", k)
    return m[1] if m else None


def rounds_for(k):
    lv = level_of(k)
    if lv is None:
        return runs
    sizes = [r[2][lv] for r in runs]
    common = max(set(sizes), key=sizes.count)
    return [r for r in runs if r[2][lv] == common]


ok, left_out = 0, []
for k in keys:
    rs = rounds_for(k)
    if len(rs) < len(runs):
        left_out.append(f"{k}: {len(runs) - len(rs)} round(s) with another working set")
    b = max(r[0][k] for r in rs)
    p = max(r[1][probe_key(k)] for r in rs)
    within = abs(b / p - 1) <= 0.10
    ok += within
    print(f"{k:<28} {b:>10.1f} {p:>10.1f} {b / p:>7.3f}  {'yes' if within else 'NO'}")
print(f"\n{ok} of {len(keys)} figures within 10 % (maxima over the rounds on the same working set)")
for line in left_out:
    print("  left out of the maxima: " + line)
print("\nratio bench/probe round by round:")
for k in keys:
    print(f"{k:<28} " + " ".join(f"{r[0][k] / r[1][probe_key(k)]:6.3f}" for r in runs))
