# Runs the int8 kernels of kernel/int8_amd64.s (dotsU8I8<SUFFIX>,
# dotsI8<SUFFIX>, matvecU8I8<SUFFIX>) under emu.py: every row count 0..13 (avx512vnni's dotsU8I8 block of 10 rows, and 4, 2, 1) against lengths 0..140
# and around the unroll, flush and vector sizes, on random bytes and on the
# extremes (0, 1, 127, 128, 255; the largest products of one sign), with
# guard bytes around every slice. Any access outside a slice is a fault; the
# results must equal the plain int32 loop's exactly (wrapping modulo 2^32),
# the inputs and the guards must keep their bytes.
# The matrix is W (signed rows) for the dots functions and m (unsigned
# rows) for matvecU8I8, whose vector w is the signed operand.
# Usage: python3 drive_int8.py FILE.s SUFFIX...   (AVX512VNNI, AVXVNNI, AVX2)
import sys, random, struct, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault

path, suffixes = sys.argv[1], sys.argv[2:]
funcs, data = parse(path)
random.seed(3)
GUARD = 96


def wrap32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >> 31 else v


def layout(blobs):
    mem = bytearray()
    addrs, allowed = [], []
    for b in blobs:
        mem.extend(bytes(random.randrange(256) for _ in range(GUARD + random.randrange(8))))
        addrs.append(len(mem))
        allowed.append((len(mem), len(mem) + len(b)))
        mem.extend(b)
    mem.extend(bytes(random.randrange(256) for _ in range(GUARD)))
    return mem, addrs, allowed


def values(n, kind, w):
    if kind == 'random':
        return [random.randrange(256) for _ in range(n)]
    if kind == 'extreme':
        return [random.choice([0, 1, 127, 128, 255]) for _ in range(n)]
    if kind == 'maxneg':  # x = 255 (signed: -1... ) against w = -128
        return [0x80 if w else 255] * n
    return [127 if w else 255] * n  # maxpos


shapes = [(r, d) for r in range(14) for d in list(range(0, 141))]
shapes = [s for s in shapes if s[1] <= 70 or s[1] % 3 == 0 or s[0] in (1, 4, 5)]
shapes += [(r, d) for r in (1, 2, 3, 4, 5, 7) for d in (191, 192, 193, 255, 256, 257, 300, 511, 512, 513, 767, 768, 769)]
shapes += [(10, 768), (1, 4099), (3, 2047)]

fails = checks = 0
for suffix in suffixes:
    # (name, the vector signed, the rows unsigned, the parameter names)
    for name, signed, swap, (mp, vp) in (('dotsU8I8' + suffix, False, False, ('w', 'x')),
                                         ('dotsI8' + suffix, True, False, ('w', 'x')),
                                         ('matvecU8I8' + suffix, True, True, ('m', 'w'))):
        if name not in funcs:
            print('no function', name)
            fails += 1
            continue
        for rows, d in shapes:
            for kind in ('random', 'extreme', 'maxneg', 'maxpos'):
                if kind != 'random' and (rows > 5 or d % 7 not in (0, 1)):
                    continue
                W = values(rows * d, kind, not swap)
                x = values(d, kind, swap)
                dst = bytes(random.randrange(256) for _ in range(4 * rows))
                Wb, xb = bytes(W), bytes(x)
                mem, (adst, aw, ax), allowed = layout([dst, Wb, xb])
                before = bytes(mem)
                args = {'dst_base': adst, 'dst_len': rows, 'dst_cap': rows, mp + '_base': aw, mp + '_len': rows * d,
                        mp + '_cap': rows * d, vp + '_base': ax, vp + '_len': d, vp + '_cap': d}
                try:
                    run(funcs, data, name, args, mem, allowed)
                except Fault as e:
                    print('FAULT', name, rows, d, kind, e)
                    fails += 1
                    continue
                checks += 1
                xs = [v - 256 if signed and v > 127 else v for v in x]
                ws = [v - 256 if not swap and v > 127 else v for v in W]
                want = [wrap32(sum(xs[j] * ws[r * d + j] for j in range(d))) for r in range(rows)]
                got = list(struct.unpack('<%di' % rows, bytes(mem[adst:adst + 4 * rows])))
                if got != want:
                    print('WRONG', name, rows, d, kind, got, want)
                    fails += 1
                # everything but dst must hold its old bytes (the data tables
                # run() appended are past len(before))
                if mem[:adst] != before[:adst] or mem[adst + 4 * rows:len(before)] != before[adst + 4 * rows:]:
                    print('CLOBBERED', name, rows, d, kind, 'an input or a guard changed')
                    fails += 1
print(path, ' '.join(suffixes), 'checks', checks, 'failures', fails)
sys.exit(1 if fails or checks == 0 else 0)
