# Runs every kernel of one amd64 assembly file (dot, sqdist, axpy, scale,
# matvec; float32 and float64) under emu.py on integer-valued data at lengths
# 0..139 and around the unroll sizes, with guard bytes around every slice: any
# access outside a slice is a fault, any wrong value a failure.
# Usage: python3 drive.py FILE.s SUFFIX   (SUFFIX: AVX512 or AVX2)
import sys, random, struct
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault

path, suffix = sys.argv[1], sys.argv[2]   # e.g. kernel_avx512_amd64.s AVX512
funcs, data = parse(path)
random.seed(1)
GUARD = 256

def layout(arrays, t):
    # arrays: list of lists; returns mem, addrs, allowed ranges
    esz = 4 if t == 'f' else 8
    mem = bytearray(); addrs = []; allowed = []
    for arr in arrays:
        mem.extend(b'\xee' * (GUARD + random.choice([0, 4, 8, 12, 16, 20, 24, 28]) // esz * esz))
        addrs.append(len(mem))
        b = struct.pack('<%d%s' % (len(arr), t), *arr)
        allowed.append((len(mem), len(mem) + len(b)))
        mem.extend(b)
    mem.extend(b'\xee' * GUARD)
    return mem, addrs, allowed

def read(mem, addr, n, t):
    esz = 4 if t == 'f' else 8
    return list(struct.unpack('<%d%s' % (n, t), bytes(mem[addr:addr + n * esz])))

fails = 0
checks = 0
for t, T in [('f', 'F32'), ('d', 'F64')]:
    for n in list(range(0, 140)) + [255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 1027, 2047, 2048, 2049, 4099]:
        x = [random.randint(-4, 4) for _ in range(n)]
        y = [random.randint(-4, 4) for _ in range(n)]
        for kind in ['dot', 'sqdist', 'axpy', 'scale']:
            name = kind + suffix + T
            mem, (ax, ay), allowed = layout([x, y], t)
            args = {'x_base': ax, 'x_len': n, 'x_cap': n, 'y_base': ay, 'y_len': n, 'y_cap': n, 'a': 3.0}
            try:
                ret, cpu = run(funcs, data, name, args, mem, allowed)
            except Fault as e:
                print('FAULT', name, n, e); fails += 1; continue
            checks += 1
            if kind == 'dot':
                want = sum(a * b for a, b in zip(x, y)); got = ret.get('ret')
            elif kind == 'sqdist':
                want = sum((a - b) ** 2 for a, b in zip(x, y)); got = ret.get('ret')
            elif kind == 'axpy':
                want = [b + 3 * a for a, b in zip(x, y)]; got = read(mem, ay, n, t)
                if read(mem, ax, n, t) != x: got = 'x modified'
            else:
                want = [3 * a for a in x]; got = read(mem, ax, n, t)
            if got != want:
                print('WRONG', name, n, got if kind in ('dot', 'sqdist') else '(vector)', want if kind in ('dot', 'sqdist') else ''); fails += 1
    big = [(261, 1031)] if t == 'f' else [(131, 1031)]  # over 1 MiB: the prefetching loop
    for rows, d in [(r, dd) for r in range(0, 10) for dd in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257]] + big:
        if True:
            m = [random.randint(-3, 3) for _ in range(rows * d)]
            w = [random.randint(-3, 3) for _ in range(d)]
            dst = [99] * rows
            mem, (adst, am, aw), allowed = layout([dst, m, w], t)
            name = 'matvec' + suffix + T
            args = {'dst_base': adst, 'dst_len': rows, 'dst_cap': rows, 'm_base': am, 'm_len': rows * d, 'm_cap': rows * d,
                    'w_base': aw, 'w_len': d, 'w_cap': d}
            try:
                run(funcs, data, name, args, mem, allowed)
            except Fault as e:
                print('FAULT', name, rows, d, e); fails += 1; continue
            checks += 1
            want = [sum(m[i * d + j] * w[j] for j in range(d)) for i in range(rows)]
            got = read(mem, adst, rows, t)
            if got != want:
                print('WRONG', name, rows, d, got, want); fails += 1
print(path, suffix, 'checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
