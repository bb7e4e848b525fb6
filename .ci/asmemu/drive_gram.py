# Runs gram's micro-kernels (sgemmMRxNR, dgemmMRxNR) of one amd64 assembly
# file under emu.py and compares each tile exactly with a Python reference.
#
# A kernel sets (acc=0) or updates (acc=1) the mr×nr tile
#     C[r·ldc + j] (+)= Σ_{k<kc} A[k·mr + r] · B[k·nr + j]
# from the packed panels A (kc·mr values) and B (kc·nr values), as gram's
# engine packs them (engine.go: pack; micro_generic.go: kernGeneric). The data
# are small integers, so every order of summation gives the exact result.
#
# Every case places A, B and C in one address space at random element
# offsets with guard bytes around each; the kernel may touch only A, B and
# the mr rows of nr values of C, so an access to a guard or to C's gap
# between rows (ldc > nr) is a fault. Afterwards A, B, the gaps and the
# guards must hold their old bytes, and the tile the reference values.
# Registers start with random contents (emu.py), so a tile register the
# kernel forgets to zero or load gives garbage.
#
# Usage: python3 drive_gram.py FILE.s NAME...   e.g. gram/micro_avx512_amd64.s sgemm12x32 dgemm12x16
#        (--dump PATH also writes every case and the interpreter's memory
#        after it, one JSON object a line, to compare with hardware)
import sys, os, random, struct, re, json, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emu import parse, run, Fault

GUARD = 256
SMALL = range(-8, 9)
FILL = 0xee
# kc: every value through 40 (all remainders of the unrolled loops, several
# trips), then longer panels; kc ≥ 1 is the kernels' contract (the Go
# wrappers index a[kc·mr−1]).
KCS = list(range(1, 41)) + [64, 255, 256, 257]


def cases(nr):
    # (kc, ldc, acc): every kc with ldc = nr and with odd row gaps, both acc
    # values; a wide gap on a few.
    out = []
    for kc in KCS:
        for ldc in (nr, nr + 3):
            for acc in (0, 1):
                out.append((kc, ldc, acc))
    for kc in (1, 5, 17):
        for acc in (0, 1):
            out.append((kc, 3 * nr + 1, acc))
    return out


def run_kernel(funcs, data, path, name, rng, dump=None):
    m = re.match(r'([sd])gemm(\d+)x(\d+)$', name)
    if not m:
        raise SystemExit('%s: not an sgemmMRxNR or dgemmMRxNR name' % name)
    if name not in funcs:
        raise SystemExit('%s: no such function in %s' % (name, path))
    t = 'f' if m.group(1) == 's' else 'd'
    mr, nr = int(m.group(2)), int(m.group(3))
    esz = 4 if t == 'f' else 8
    checks = fails = 0
    for kc, ldc, acc in cases(nr):
        A = rng.choices(SMALL, k=kc * mr)
        B = rng.choices(SMALL, k=kc * nr)
        clen = (mr - 1) * ldc + nr
        C0 = [rng.choice([-1, 1]) * rng.randint(1, 99) for _ in range(mr * nr)]  # nonzero: acc=0 must ignore it
        mem = bytearray()
        allowed = []
        addrs = []
        for n in (len(A), len(B), clen):
            mem.extend(bytes([FILL]) * (GUARD + rng.randrange(16) * esz))
            addrs.append(len(mem))
            mem.extend(bytes([FILL]) * (n * esz))
        mem.extend(bytes([FILL]) * GUARD)
        aA, aB, aC = addrs
        mem[aA:aA + len(A) * esz] = struct.pack('<%d%s' % (len(A), t), *A)
        mem[aB:aB + len(B) * esz] = struct.pack('<%d%s' % (len(B), t), *B)
        rows = []
        for r in range(mr):
            lo = aC + r * ldc * esz
            mem[lo:lo + nr * esz] = struct.pack('<%d%s' % (nr, t), *C0[r * nr:(r + 1) * nr])
            rows.append((lo, lo + nr * esz))
        allowed = [(aA, aA + len(A) * esz), (aB, aB + len(B) * esz)] + rows
        before = bytes(mem)
        want = C0[:] if acc else [0] * (mr * nr)
        for k in range(kc):
            bk = B[k * nr:(k + 1) * nr]
            for r in range(mr):
                a = A[k * mr + r]
                if a:
                    o = r * nr
                    want[o:o + nr] = [w + a * x for w, x in zip(want[o:o + nr], bk)]
        fargs = {'kc': kc, 'a': aA, 'b': aB, 'c': aC, 'ldc': ldc, 'acc': acc}
        what = '%s kc=%d ldc=%d acc=%d' % (name, kc, ldc, acc)
        checks += 1
        try:
            run(funcs, data, name, fargs, mem, allowed)
        except Fault as e:
            print('FAULT', what, e)
            fails += 1
            continue
        got = []
        for lo, hi in rows:
            got += list(struct.unpack('<%d%s' % (nr, t), bytes(mem[lo:hi])))
        # everything but the tile must hold its old bytes
        expect = bytearray(before)
        for lo, hi in rows:
            expect[lo:hi] = mem[lo:hi]
        n = len(before)
        if bytes(mem[:n]) != bytes(expect):
            bad = next(i for i in range(n) if mem[i] != expect[i])
            region = ('A' if aA <= bad < aA + len(A) * esz else 'B' if aB <= bad < aB + len(B) * esz
                      else 'C between rows' if aC <= bad < aC + clen * esz else 'a guard')
            print('WRONG', what, 'modified %s at byte %d' % (region, bad))
            fails += 1
        elif got != want:
            bad = [(i // nr, i % nr, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
            print('WRONG', what, '%d of %d values; first (row, col, got, want):' % (len(bad), len(want)), bad[:3])
            fails += 1
        if dump:
            json.dump({'name': name, 'kc': kc, 'ldc': ldc, 'acc': acc, 'a': aA, 'b': aB, 'c': aC,
                       'before': before.hex(), 'after': bytes(mem[:n]).hex()}, dump)
            dump.write('\n')
    return checks, fails


def check(path, names, dump=None):
    """Runs the named kernels of path; returns (cases, failures)."""
    funcs, data = parse(path)
    rng = random.Random(1)
    total = bad = 0
    for name in names:
        t0 = time.time()
        c, f = run_kernel(funcs, data, path, name, rng, dump)
        total += c
        bad += f
        print('%s %s: %d cases, %d failures (%.1fs)' % (path, name, c, f, time.time() - t0))
    return total, bad


def main():
    args = sys.argv[1:]
    dump = None
    if len(args) >= 2 and args[0] == '--dump':
        dump, args = open(args[1], 'w'), args[2:]
    if len(args) < 2:
        sys.exit('usage: drive_gram.py [--dump PATH] FILE.s NAME...')
    total, bad = check(args[0], args[1:], dump)
    if dump:
        dump.close()
    sys.exit(1 if bad or total == 0 else 0)


if __name__ == '__main__':
    main()
