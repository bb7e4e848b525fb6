# Runs the int8 input quantiser of internal/modelkern/quantize_amd64.s under emu.py:
# quantRange<SUFFIX> (the largest of 0 and the bits of the x[i] as uint32 and
# as int32) and quantizeU8<SUFFIX> (dst[i] = the byte of float32(x[i]·inv) +
# off, clamped and truncated as modelkern.quantizeByte says, NaN giving 0), for
# every length 0..139 and around the vector and unroll sizes (AVX2 from 8,
# its contract; shorter inputs run the Go loop), on float32 data that mixes
# small integers, fractions, values that land on and around 0 and 255, ±0,
# subnormals, ±Inf and NaNs of both signs and several payloads, with random
# guard bytes around x and dst. Each result must equal this file's
# transcription of the Go reference (quantRangeGeneric and quantizeU8Generic
# of internal/modelkern/quantize.go) exactly, and every byte outside dst[:n] must keep
# its value (x included).
# Usage: python3 drive_quant.py internal/modelkern/quantize_amd64.s AVX512 AVX2
import sys, random, struct, os, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault, f32

path, suffixes = sys.argv[1], sys.argv[2:]
funcs, data = parse(path)
random.seed(5)
GUARD = 256
MIN_LEN = {'AVX512': 0, 'AVX2': 8}


def bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def quant_range(xb):
    # quantRangeGeneric: max(0, bits as uint32), max(0, bits as int32)
    neg = max([0] + xb)
    pos = max([0] + [b - (1 << 32) if b >> 31 else b for b in xb])
    return neg, pos & 0xffffffff


def quantize_byte(t):
    if not t > 0:  # t ≤ 0 or NaN
        t = 0.0
    if t > 255:
        t = 255.0
    return int(t)  # truncated toward zero


def quantize(xb, inv, off):
    out = []
    for b in xb:
        v = struct.unpack('<f', struct.pack('<I', b))[0]
        # float32(v*inv) + off, each operation rounded to float32 (the
        # binary64 product of two float32 values is exact, and a binary64
        # sum rounded to float32 is the float32 sum)
        out.append(quantize_byte(f32(f32(v * inv) + off)))
    return out


SPECIAL = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
           0xff800001, 0x7fbfffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x7f7fffff, 0xff7fffff]


def sample(n, kind):
    xb = []
    for _ in range(n):
        r = random.random()
        if kind == 'finite' or r < 0.85:
            c = random.randrange(6)
            if c == 0:
                v = float(random.randint(-300, 300))
            elif c == 1:
                v = random.uniform(-1, 1)
            elif c == 2:
                v = random.choice([0.0, -0.0, 255.0, 254.99998, 255.00002, 256.0, 0.5, -0.5, 1.0, -1.0, 0.99999994, 1e-40, -1e-40])
            elif c == 3:
                v = random.uniform(-1e6, 1e6)
            elif c == 4:
                v = math.ldexp(random.uniform(-1, 1), random.randint(-149, 127))
            else:
                v = random.uniform(-300, 300)
            xb.append(bits(f32(v)))
        else:
            xb.append(random.choice(SPECIAL) if random.random() < 0.7 else random.getrandbits(32))
    return xb


def layout(sizes):
    mem = bytearray(); addrs = []; allowed = []
    for sz in sizes:
        mem.extend(random.randbytes(GUARD + random.randrange(0, 64, 4)))
        addrs.append(len(mem))
        allowed.append((len(mem), len(mem) + sz))
        mem.extend(random.randbytes(sz))
    mem.extend(random.randbytes(GUARD))
    return mem, addrs, allowed


fails = checks = 0
LENGTHS = list(range(0, 140)) + [191, 192, 193, 255, 256, 257, 1000, 1027]
for sfx in suffixes:
    for n in LENGTHS:
        if n < MIN_LEN[sfx]:
            continue
        for kind in ('finite', 'special'):
            xb = sample(n, kind)
            if kind == 'finite' and n and random.random() < 0.3:
                xb[random.randrange(n)] = 0x80000000  # -0 alone decides neg when nothing else is negative
            xbytes = struct.pack('<%dI' % n, *xb)
            # quantRange
            mem, (ax,), allowed = layout([4 * n])
            mem[ax:ax + 4 * n] = xbytes
            before = bytes(mem)
            name = 'quantRange' + sfx
            try:
                ret, cpu = run(funcs, data, name, {'x_base': ax, 'x_len': n, 'x_cap': n}, mem, allowed)
            except Fault as e:
                print('FAULT', name, n, kind, e); fails += 1
            else:
                checks += 1
                got = (ret.get('neg'), ret.get('pos'))
                if got != quant_range(xb) or bytes(mem[:len(before)]) != before:
                    print('WRONG', name, n, kind, ['%#x' % v for v in got if v is not None], ['%#x' % v for v in quant_range(xb)])
                    fails += 1
            # quantizeU8
            for inv, off in [(1.0, 0.5), (1 / 3, 127.5), (0.4980392, 128.0), (random.uniform(-2, 2), random.uniform(-10, 260)),
                             (65536.0, 0.0), (math.inf, 0.5), (0.0, math.nan)]:
                inv, off = f32(inv), f32(off)
                mem, (ad, ax), allowed = layout([n, 4 * n])
                mem[ax:ax + 4 * n] = xbytes
                before = bytes(mem)
                name = 'quantizeU8' + sfx
                args = {'dst_base': ad, 'dst_len': n, 'dst_cap': n, 'x_base': ax, 'x_len': n, 'x_cap': n, 'inv': inv, 'off': off}
                try:
                    run(funcs, data, name, args, mem, allowed)
                except Fault as e:
                    print('FAULT', name, n, kind, inv, off, e); fails += 1; continue
                checks += 1
                want = quantize(xb, inv, off)
                got = list(mem[ad:ad + n])
                rest_ok = mem[:ad] == before[:ad] and mem[ad + n:len(before)] == before[ad + n:]
                if got != want or not rest_ok:
                    bad = [i for i in range(n) if got[i] != want[i]][:3]
                    print('WRONG', name, n, kind, inv, off, 'outside dst modified' if not rest_ok else '',
                          [(i, '%#x' % xb[i], got[i], want[i]) for i in bad]); fails += 1
print(path, ' '.join(suffixes), 'checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
