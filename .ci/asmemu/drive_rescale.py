# Runs rescaleArgmaxAVX512 of kernel/rescale_amd64.s (RescaleArgmax of the
# avx512vnni int8 implementation) under emu.py at lengths 0..139 and around
# the step size (up to 1027), with random guard bytes around dst, acc, s and
# b: dst[k] must be float32(float64(s[k]·sx·float64(acc[k])) + b[k]) and
# (best, finite) the smallest k of the largest dst[k] and true, or 0, false
# if a dst[k] is ±Inf or NaN, as this file's transcription of
# rescaleArgmaxGeneric (kernel/rescale.go) says, exactly (a NaN in dst
# matches any NaN); no byte outside dst[:n] may change. The data: small
# integers (many ties; the largest score 0 as both -0 and +0), random values, int32 extremes, and
# scales and offsets that overflow float32 or are ±Inf or NaN.
# Usage: python3 drive_rescale.py kernel/rescale_amd64.s
import sys, random, struct, os, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault, f32

path = sys.argv[1]
funcs, data = parse(path)
random.seed(7)
GUARD = 256


def reference(acc, s, b, sx):
    dst = [f32(float(s[k] * sx * float(a)) + b[k]) for k, a in enumerate(acc)]
    if not dst:
        return dst, 0, True
    best, bk = dst[0], 0
    for k, v in enumerate(dst):
        if math.isnan(v) or math.isinf(v):
            return dst, 0, False
        if v > best:
            best, bk = v, k
    return dst, bk, True


def sample(n, kind):
    if kind == 'ties':
        acc = [random.randint(-3, 3) for _ in range(n)]
        s = [random.choice([0.5, 1.0, 2.0]) for _ in range(n)]
        b = [random.choice([0.0, -0.0, 1.0, -1.0]) for _ in range(n)]
        return acc, s, b, 1.0
    if kind == 'zeros':  # the largest score 0, as -0 (s < 0, acc 0, b -0) and +0: the first must win
        acc = [random.choice([0, 0, 0, -1]) for _ in range(n)]
        s = [random.choice([-1.0, 1.0]) for _ in range(n)]
        b = [random.choice([-0.0, -0.0, 0.0, -1.0]) for _ in range(n)]
        return acc, s, b, 1.0
    acc = [random.choice([random.randint(-2**31, 2**31 - 1), random.randint(-1000, 1000), -2**31, 2**31 - 1]) for _ in range(n)]
    s = [random.uniform(-1e-3, 1e-3) for _ in range(n)]
    b = [random.uniform(-10, 10) for _ in range(n)]
    if kind == 'nonfinite' and n:
        k = random.randrange(n)
        c = random.randrange(4)
        if c == 0:
            s[k] = 1e30; acc[k] = 2**31 - 1  # beyond float32: +Inf after the conversion
        elif c == 1:
            b[k] = math.nan
        elif c == 2:
            s[k] = -math.inf
        else:
            s[k] = math.inf; acc[k] = 0  # Inf·0: NaN
    return acc, s, b, random.choice([1.0, 0.25, 3.0])


def layout(blocks):
    mem = bytearray(); addrs = []; allowed = []
    for blk in blocks:
        mem.extend(random.randbytes(GUARD + random.randrange(0, 64, 4)))
        addrs.append(len(mem))
        allowed.append((len(mem), len(mem) + len(blk)))
        mem.extend(blk)
    mem.extend(random.randbytes(GUARD))
    return mem, addrs, allowed


fails = checks = 0
for n in list(range(0, 140)) + [255, 256, 257, 1000, 1027]:
    for kind in ('ties', 'zeros', 'zeros', 'zeros', 'random', 'nonfinite'):
        acc, s, b, sx = sample(n, kind)
        mem, (ad, aa, as_, ab), allowed = layout([random.randbytes(4 * n), struct.pack('<%di' % n, *acc),
                                                 struct.pack('<%dd' % n, *s), struct.pack('<%dd' % n, *b)])
        before = bytes(mem)
        args = {'sx': sx}
        for nm, a in (('dst', ad), ('acc', aa), ('s', as_), ('b', ab)):
            args.update({nm + '_base': a, nm + '_len': n, nm + '_cap': n})
        try:
            ret, cpu = run(funcs, data, 'rescaleArgmaxAVX512', args, mem, allowed)
        except Fault as e:
            print('FAULT', n, kind, e); fails += 1; continue
        checks += 1
        want, wbest, wfin = reference(acc, s, b, sx)
        got = list(struct.unpack('<%df' % n, bytes(mem[ad:ad + 4 * n])))
        same = all(g == w and math.copysign(1, g) == math.copysign(1, w) or (math.isnan(g) and math.isnan(w))
                   for g, w in zip(got, want))
        rest = mem[:ad] == before[:ad] and mem[ad + 4 * n:len(before)] == before[ad + 4 * n:]
        if not same or not rest or ret.get('best') != wbest or ret.get('finite') != int(wfin):
            bad = [(k, got[k], want[k]) for k in range(n) if not (got[k] == want[k] or (math.isnan(got[k]) and math.isnan(want[k])))][:3]
            print('WRONG', n, kind, 'best/finite', ret.get('best'), ret.get('finite'), 'want', wbest, wfin,
                  '' if rest else 'outside dst modified', bad); fails += 1
print(path, 'rescaleArgmaxAVX512 checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
