# Runs dotAuto and sqdistAuto of kernel/dot_amd64.s (kernel.Dot and
# kernel.SqDist on amd64: the length check, the choice of implementation from
# the package variable activeID, and the element size, all in assembly) under emu.py for every activeID it can see
# (2 = AVX-512, 1 = AVX2, anything else = the Go generic path, reached by a
# tail call) and both element sizes, at lengths 0..139 and around the unroll
# sizes, on integer-valued data with guard bytes around both slices and
# the result (stored where the argument r points): any access outside them
# is a fault, any wrong value (or wrong tail call) a
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
    # r: the result, one element the function may write (layout's guard
    # bytes around it, as around x and y, fault on any other byte)
    mem, (ax, ay, ar), allowed = layout([x, y, [0.5]], t)  # no integer data sums to 0.5
    esz = 4 if t == 'f' else 8
    before = bytes(mem)
    args = {'r': ar, 'x': ax, 'y': ay, 'nx': n, 'ny': ny, 'size': esz}
    try:
        ret, cpu = run(funcs, d, fn, args, mem, allowed)
    except Fault as e:
        print('FAULT', what, e); fails += 1; return
    checks += 1
    got = dict(ret)
    if bytes(mem[:ar]) != before[:ar] or bytes(mem[ar + esz:len(before)]) != before[ar + esz:]:
        print('WRONG', what, 'memory modified'); fails += 1; return
    if bytes(mem[ar:ar + esz]) != before[ar:ar + esz] or 'tailcall' not in got:
        got['ret'] = struct.unpack('<' + t, bytes(mem[ar:ar + esz]))[0]
    if n != ny:
        want = {'tailcall': fn + 'Len'}
    elif IDS[aid] == 'generic':
        want = {'tailcall': fn + 'Generic'}
    else:
        if fn == 'dotAuto':
            want = {'ret': sum(a * b for a, b in zip(x, y))}
        else:
            want = {'ret': sum((a - b) * (a - b) for a, b in zip(x, y))}
    if got != want:
        print('WRONG', what, got, want); fails += 1

for fn in ('dotAuto', 'sqdistAuto'):
    for t in 'fd':
        for aid in sorted(IDS):
            for n in list(range(0, 140)) + [255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 1027, 2047, 2048, 2049, 4099]:
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
