# Runs dotAuto and sqdistAuto of kernel/dot_amd64.s (kernel.Dot and
# kernel.SqDist on amd64: the length check, the choice of implementation from
# the package variable activeID, and the element size, all in assembly) under emu.py for every activeID it can see
# (2 = AVX-512, 1 = AVX2, anything else = the Go generic path, reached by a
# tail call) and both element sizes, at lengths 0..139 and around the unroll
# sizes, on integer-valued data with guard bytes around both slices: any
# access outside them is a fault, any wrong value (or wrong tail call) a
# failure. Unequal lengths must tail-call dotAutoLen (sqdistAutoLen) before
# touching memory.
# Usage: python3 drive_dot.py kernel/dot_amd64.s
import sys, random, struct, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault

path = sys.argv[1]
funcs, data = parse(path)
random.seed(3)
GUARD = 256
IDS = {0: 'generic', 1: 'avx2', 2: 'avx512', 3: 'generic', 255: 'generic'}

def layout(arrays, t):
    esz = 4 if t == 'f' else 8
    mem = bytearray(); addrs = []; allowed = []
    for arr in arrays:
        mem.extend(random.randbytes(GUARD + random.choice([0, 4, 8, 12, 16, 20, 24, 28]) // esz * esz))
        addrs.append(len(mem))
        b = struct.pack('<%d%s' % (len(arr), t), *arr)
        allowed.append((len(mem), len(mem) + len(b)))
        mem.extend(b)
    mem.extend(random.randbytes(GUARD))
    return mem, addrs, allowed

fails = checks = 0
def call(fn, what, t, n, ny, aid, x, y):
    global fails, checks
    d = dict(data)
    d['·activeID'] = bytes([aid])
    mem, (ax, ay), allowed = layout([x, y], t)
    before = bytes(mem)
    args = {'x': ax, 'y': ay, 'nx': n, 'ny': ny, 'size': 4 if t == 'f' else 8}
    try:
        ret, cpu = run(funcs, d, fn, args, mem, allowed)
    except Fault as e:
        print('FAULT', what, e); fails += 1; return
    checks += 1
    if bytes(mem[:len(before)]) != before:
        print('WRONG', what, 'memory modified'); fails += 1; return
    if n != ny:
        want = {'tailcall': fn + 'Len'}
    elif IDS[aid] == 'generic':
        want = {'tailcall': fn + 'Generic'}
    else:
        if fn == 'dotAuto':
            want = {'ret': sum(a * b for a, b in zip(x, y))}
        else:
            want = {'ret': sum((a - b) * (a - b) for a, b in zip(x, y))}
    got = dict(ret)  # a float64 for both sizes: a float32 result widened exactly (VCVTSS2SD)
    if got != want:
        print('WRONG', what, got, want); fails += 1

for fn in ('dotAuto', 'sqdistAuto'):
    for t in 'fd':
        for aid in sorted(IDS):
            for n in list(range(0, 140)) + [255, 256, 257, 511, 512, 513, 1000, 1027]:
                if IDS[aid] == 'generic' and n > 20:
                    continue  # the tail call is taken before the length matters
                x = [random.randint(-4, 4) for _ in range(n)]
                y = [random.randint(-4, 4) for _ in range(n)]
                call(fn, '%s %s id=%d n=%d' % (fn, t, aid, n), t, n, n, aid, x, y)
            for n, ny in [(0, 1), (1, 0), (5, 4), (64, 65), (200, 3)]:
                x = [1] * n; y = [1] * ny
                call(fn, '%s %s id=%d nx=%d ny=%d' % (fn, t, aid, n, ny), t, n, ny, aid, x, y)
print(path, 'dotAuto and sqdistAuto checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
