# Runs rescaleArgmaxAVX512 of internal/modelkern/rescale_amd64.s (RescaleArgmax of the
# avx512vnni int8 implementation) under emu.py at lengths 0..139 and around
# the step size (up to 1027), with random guard bytes around dst, acc, s and
# b: dst[k] must be float32(float64(s[k]·sx·float64(acc[k])) + b[k]) and
# (best, finite) the smallest k of the largest dst[k] and true, or 0, false
# if a dst[k] is ±Inf or NaN, as this file's transcription of
# rescaleArgmaxGeneric (internal/modelkern/rescale.go) says, exactly (a NaN in dst
# matches any NaN); no byte outside dst[:n] may change. The data: small
# integers (many ties; the largest score 0 as both -0 and +0), random values, int32 extremes, and
# scales and offsets that overflow float32 or are ±Inf or NaN.
# Then dotsRescaleU8AVX512 (DotsU8I8RescaleArgmax of avx512vnni: 10 rows) at
# d = 0..139, 255..257, 767, 768, 784, 1000 with guard bytes around dst, W, x,
# sum, s and b: acc[r] = Σ W[r·d+i]·x[i] − z·sum[r] wrapped to int32 (z 0,
# 1, 128, 255, random; sums up to the int32 extremes, so z·sum wraps), then
# the same rescale and argmax check, on random and extreme bytes, repeated
# rows (ties), scores of a few values (s = 0; ±0 among them, the largest at
# any rows, rows 8 and 9 too), and overflowing, infinite and NaN scales (s,
# sx) and offsets. Its dst is a pointer argument, x a slice, and m points
# to a Fused10: the addresses of w, sum, s and b (the first elements), the
# rows' stride (d, or padded past d with random bytes never to be read),
# the address of the rows' own sums, then len(x) + 1. Then
# dotsRescaleI8AVX512 (Fused10.PredictI8) on the same data with x's bytes
# read as signed: acc[r] = Σ W[r·d+i]·v[i] (wrapped), through the rows' own
# sums (the unsigned function gets random ones there, which it must not read).
# Usage: python3 drive_rescale.py internal/modelkern/rescale_amd64.s
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


def wrap32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >> 31 else v


def check(name, n, kind, args, blocks, acc, s, b, sx):
    """Runs name with blocks[0] as dst (n float32s) and the other blocks as
    the arguments args names (base addresses in order), then compares dst,
    best and finite with reference(acc, s, b, sx) and every other byte with
    its old value. Returns 1 on a failure."""
    global checks
    mem, addrs, allowed = layout(blocks)
    ptrs = args.get('ptrs')  # (block i, {word: block j}): word of block i holds the address of block j
    if ptrs:
        i, words = ptrs
        for wd, j in words.items():
            mem[addrs[i] + 8 * wd:addrs[i] + 8 * wd + 8] = struct.pack('<Q', addrs[j])
    before = bytes(mem)
    ad = addrs[0]
    a = dict(args)
    a.pop('ptrs', None)
    for (nm, ln), addr in zip(a.pop('slices'), addrs):
        if ln is None:  # a pointer argument: the block's address
            a[nm] = addr
        else:
            a.update({nm + '_base': addr, nm + '_len': ln, nm + '_cap': ln})
    try:
        ret, cpu = run(funcs, data, name, a, mem, allowed)
    except Fault as e:
        print('FAULT', name, n, kind, e)
        return 1
    checks += 1
    want, wbest, wfin = reference(acc, s, b, sx)
    got = list(struct.unpack('<%df' % n, bytes(mem[ad:ad + 4 * n])))
    same = all(g == w and math.copysign(1, g) == math.copysign(1, w) or (math.isnan(g) and math.isnan(w))
               for g, w in zip(got, want))
    rest = mem[:ad] == before[:ad] and mem[ad + 4 * n:len(before)] == before[ad + 4 * n:]
    if not same or not rest or ret.get('best') != wbest or ret.get('finite') != int(wfin):
        bad = [(k, got[k], want[k]) for k in range(n) if not (got[k] == want[k] or (math.isnan(got[k]) and math.isnan(want[k])))][:3]
        print('WRONG', name, n, kind, 'best/finite', ret.get('best'), ret.get('finite'), 'want', wbest, wfin,
              '' if rest else 'outside dst modified', bad)
        return 1
    return 0


fails = checks = 0
for n in list(range(0, 140)) + [255, 256, 257, 1000, 1027]:
    for kind in ('ties', 'zeros', 'zeros', 'zeros', 'random', 'nonfinite'):
        acc, s, b, sx = sample(n, kind)
        fails += check('rescaleArgmaxAVX512', n, kind,
                       {'sx': sx, 'slices': [('dst', n), ('acc', n), ('s', n), ('b', n)]},
                       [random.randbytes(4 * n), struct.pack('<%di' % n, *acc),
                        struct.pack('<%dd' % n, *s), struct.pack('<%dd' % n, *b)], acc, s, b, sx)

# dotsRescaleU8AVX512: DotsU8I8 on 10 rows, less z·sum (int32 wrapping),
# then the rescale and argmax above. The sums and z cover 0 and products far
# beyond int32; 'ties' repeats rows (with their sum, s and b) so that equal
# scores must give the smallest row.
R = 10
def fused10(u8, i8, lengths, wide=False):
    """Runs the functions u8 and i8 (dotsRescaleU8… and dotsRescaleI8…) on
    the 10-row cases above at each d of lengths; returns the failures. With
    wide, the rows are int16 (avx2's Fused10), m's stride in bytes."""
    bad = 0
    for d in lengths:
        for kind in ('random', 'extreme', 'ties', 'flat', 'nonfinite', 'wrap'):
            if kind == 'extreme':
                x = [random.choice([0, 255]) for _ in range(d)]
                W = [random.choice([-128, 127]) for _ in range(R * d)]
            else:
                x = [random.randrange(256) for _ in range(d)]
                W = [random.randrange(-128, 128) for _ in range(R * d)]
            z = random.choice([0, 0, 1, 128, 255, random.randrange(256)])
            sums = [random.choice([random.randint(-2**31, 2**31 - 1), random.randint(-5000, 5000), -2**31, 2**31 - 1])
                    for _ in range(R)]
            if kind == 'wrap':
                z = 255
                sums = [random.choice([-2**31, 2**31 - 1, 2**30 + 12345, -2**30 - 7]) for _ in range(R)]
            acc0, s, b, sx = sample(R, 'random')
            if kind == 'ties':
                src = [random.randrange(3) for _ in range(R)]
                W = [W[src[r] * d + i] for r in range(R) for i in range(d)]
                sums = [sums[src[r]] for r in range(R)]
                s = [s[src[r]] for r in range(R)]
                b = [b[src[r]] for r in range(R)]
                z = random.choice([0, 3])
            if kind == 'flat':  # s = 0: the scores are b's few values, ±0 among them: ties at any rows, 8 and 9 too
                s = [0.0] * R
                vals = random.choice([[-1.0, -0.0, 0.0, 0.5], [-1.0, -0.0, 0.0], [-2.0, -1.0]])
                b = [random.choice(vals) for _ in range(R)]
                if random.randrange(2):
                    b[random.choice([8, 9])] = 1.0
            if kind == 'nonfinite':
                k = random.randrange(R)
                c = random.randrange(5)
                if c == 0:
                    s[k] = 1e38; sums[k] = 2**31 - 1; z = 255  # |acc| large: beyond float32, +-Inf
                elif c == 1:
                    b[k] = math.nan
                elif c == 2:
                    s[k] = -math.inf
                elif c == 3:
                    sx = random.choice([math.inf, math.nan])
                else:
                    b[k] = math.inf
            acc = [wrap32(sum(W[r * d + i] * x[i] for i in range(d)) - z * sums[r]) for r in range(R)]
            # the rows at a stride of d (DotsU8I8RescaleArgmax) or padded past d
            # (Fused10's: to a multiple of 64, or any) with random bytes that must
            # not be read
            stride = random.choice([d, d, (d + 63) & ~63, d + random.randrange(1, 80)])
            if wide:
                Wb = b''.join(struct.pack('<%dh' % d, *W[r * d:(r + 1) * d]) + random.randbytes(2 * (stride - d)) for r in range(R))
                stride *= 2
            else:
                Wb = b''.join(bytes(v & 255 for v in W[r * d:(r + 1) * d]) + random.randbytes(stride - d) for r in range(R))
            # m: a Fused10 (w, sum, s, b, stride, wsum, ready), wsum the rows' own
            # sums (random for the unsigned function, which must not read them)
            wsum = [wrap32(sum(W[r * d:(r + 1) * d])) for r in range(R)]
            slices = [('dst', None), ('x', d), ('m', None)] + [('', None)] * 5
            ptrs = (2, {0: 3, 1: 4, 2: 5, 3: 6, 5: 7})
            mblk = struct.pack('<4Qqqq', 0, 0, 0, 0, stride, 0, d + 1)
            tail = [Wb, struct.pack('<%di' % R, *sums), struct.pack('<%dd' % R, *s), struct.pack('<%dd' % R, *b)]
            bad += check(u8, R, kind + ' d=%d z=%d' % (d, z),
                         {'sx': sx, 'z': z, 'slices': slices, 'ptrs': ptrs},
                         [random.randbytes(4 * R), bytes(x), mblk] + tail + [random.randbytes(4 * R)], acc, s, b, sx)
            # dotsRescaleI8AVX512: x's bytes read as signed, no zero point, the
            # rows' own sums (Fused10.PredictI8): acc = Σ W·v exactly (wrapped)
            if kind != 'wrap':
                v = [b8 - 256 if b8 > 127 else b8 for b8 in x]
                acc = [wrap32(sum(W[r * d + i] * v[i] for i in range(d))) for r in range(R)]
                bad += check(i8, R, kind + ' d=%d signed' % d,
                             {'sx': sx, 'slices': slices, 'ptrs': ptrs},
                             [random.randbytes(4 * R), bytes(x), mblk] + tail + [struct.pack('<%di' % R, *wsum)], acc, s, b, sx)
    return bad


fails += fused10('dotsRescaleU8AVX512', 'dotsRescaleI8AVX512', list(range(0, 140)) + [255, 256, 257, 767, 768, 784, 1000])

# dotsRescaleU8AVXVNNI and dotsRescaleI8AVXVNNI (avxvnni's Fused10.Predict
# and PredictI8: AVX2 and the VEX VPDPBUSD): the same checks at the lengths
# they take, d >= 32 or a multiple of 32 (Fused10 pads a shorter sample to
# 32 bytes), around the 32- and 64-byte steps and the d mod 32 tail, rows at
# a stride of d or padded past it with random bytes that must not be read
# (the rows' padding is zero in Fused10, but these functions never read it
# for d >= 32). Every byte of dst, best and finite as the reference says.
fails += fused10('dotsRescaleU8AVXVNNI', 'dotsRescaleI8AVXVNNI', [0] + list(range(32, 140)) + [160, 255, 256, 257, 767, 768, 784, 1000])

# dotsRescaleU8AVX2 and dotsRescaleI8AVX2 (avx2's Fused10.Predict and
# PredictI8: AVX2 alone, VPMADDWD on rows widened to int16): the same checks
# at the lengths they take, d >= 16 (Fused10 pads a shorter sample to 32
# bytes), around the 16- and 32-byte steps and the d mod 16 tail, the int16
# rows at a stride of d or padded past it with random bytes that must not be
# read.
fails += fused10('dotsRescaleU8AVX2', 'dotsRescaleI8AVX2', [0] + list(range(16, 140)) + [160, 255, 256, 257, 767, 768, 784, 1000], wide=True)
print(path, 'rescaleArgmaxAVX512 and the fused 10-class predictions (dotsRescaleU8/I8 of AVX512, AVXVNNI, AVX2) checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
