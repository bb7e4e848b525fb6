# Tiny interpreter for the Go-assembler subset used in kernel/*.s (AVX2 and
# AVX-512 files). CI runs it on the AVX-512 kernels because no emulator
# available here (qemu TCG) executes AVX-512; see README.md beside this file.
import re, struct, math, random, sys

def f32(v):
    try:
        return struct.unpack('f', struct.pack('f', v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)

class Fault(Exception): pass

def parse(path):
    src = open(path).read()
    # join continuation lines
    src = re.sub(r'\\\n', ' ', src)
    macros = {}
    funcs = {}
    data = {}
    cur = None
    for raw in src.split('\n'):
        line = raw.split('//')[0].strip()
        if not line: continue
        if line.startswith('#define'):
            m = re.match(r'#define\s+(\w+)(\(([^)]*)\))?\s*(.*)', line)
            name, params, body = m.group(1), m.group(3), m.group(4)
            macros[name] = ([p.strip() for p in params.split(',')] if params else None, body)
            continue
        if line.startswith('#include') or line.startswith('GLOBL'): continue
        if line.startswith('DATA'):
            m = re.match(r'DATA\s+(\w+)<>\+(0x[0-9a-f]+|\d+)\(SB\)/(\d+),\s*\$(\S+)', line)
            name, off, size, val = m.group(1), int(m.group(2), 0), int(m.group(3)), int(m.group(4), 0)
            data.setdefault(name, bytearray(64))
            data[name][off:off+size] = (val & ((1 << (8*size)) - 1)).to_bytes(size, 'little')
            continue
        if line.startswith('TEXT'):
            cur = re.match(r'TEXT\s+·(\w+)', line).group(1)
            funcs[cur] = []
            continue
        if cur is None: continue
        # macro expansion
        for stmt in expand(line, macros):
            funcs[cur].append(stmt)
    return funcs, data

def expand(line, macros):
    m = re.match(r'(\w+)(\(([^)]*)\))?$', line)
    if m and m.group(1) in macros:
        params, body = macros[m.group(1)]
        if params:
            args = [a.strip() for a in m.group(3).split(',')]
            for p, a in zip(params, args):
                body = re.sub(r'\b%s\b' % p, a, body)
        out = []
        for s in body.split(';'):
            s = s.strip()
            if s: out.extend(expand(s, macros))
        return out
    return [line]

class CPU:
    def __init__(self, mem, allowed, data_addrs):
        self.mem = mem
        self.allowed = allowed  # list of (lo, hi) readable/writable byte ranges
        self.r = {k: 0 for k in ['AX','BX','CX','DX','SI','DI','R8','R9','R10','R11','R12','R13']}
        self.v = [bytearray(64) for _ in range(32)]
        self.k = [0]*8
        self.flags = None
        self.data_addrs = data_addrs

    def check(self, addr, n):
        for lo, hi in self.allowed:
            if lo <= addr and addr + n <= hi:
                return
        raise Fault('access %#x+%d outside the slices' % (addr, n))

    def load(self, addr, n):
        self.check(addr, n)
        return bytes(self.mem[addr:addr+n])

    def store(self, addr, b):
        self.check(addr, len(b))
        self.mem[addr:addr+len(b)] = b

def vreg(tok):
    m = re.match(r'([XYZ])(\d+)$', tok)
    if not m: return None
    return m.group(1), int(m.group(2))

WID = {'X': 16, 'Y': 32, 'Z': 64}

def run(funcs, data, name, args, mem, allowed):
    code = funcs[name]
    labels = {}
    prog = []
    for s in code:
        if s.endswith(':'):
            labels[s[:-1]] = len(prog)
        else:
            prog.append(s)
    # place DATA tables in memory after user memory
    data_addrs = {}
    base = len(mem)
    for dn, b in data.items():
        data_addrs[dn] = base
        mem.extend(b)
        allowed = allowed + [(base, base + len(b))]
        base += len(b)
    cpu = CPU(mem, allowed, data_addrs)
    frame = args  # dict name->value (ints or floats), offsets resolved by name
    ret = {}
    pc = 0
    steps = 0
    def addr_of(tok):
        # forms: (SI), 32(SI), (SI)(AX*1), -32(SI)(CX*1), tailMask<>(SB), tailMask<>+16(SB), 16(AX)(CX*1)
        m = re.match(r'(\w+)<>(\+(-?\d+))?\(SB\)$', tok)
        if m:
            return cpu.data_addrs[m.group(1)] + int(m.group(3) or 0)
        m = re.match(r'(-?\d+)?\((\w+)\)(\((\w+)\*(\d)\))?$', tok)
        if not m: raise ValueError(tok)
        a = int(m.group(1) or 0) + cpu.r[m.group(2)]
        if m.group(3): a += cpu.r[m.group(4)] * int(m.group(5))
        return a
    def is_mem(tok): return '(' in tok and not tok.endswith('(FP)')
    def is_fp(tok): return tok.endswith('(FP)')
    def fpname(tok): return tok.split('+')[0]
    def ival(tok):
        if tok.startswith('$'): return int(tok[1:], 0)
        if tok in cpu.r: return cpu.r[tok]
        if is_fp(tok): return frame[fpname(tok)]
        raise ValueError(tok)
    def getv(tok, nbytes):
        if is_mem(tok): return cpu.load(addr_of(tok), nbytes)
        k, i = vreg(tok); return bytes(cpu.v[i][:nbytes])
    def setv(tok, b, vex_zero=True):
        k, i = vreg(tok)
        w = WID[k]
        assert len(b) == w, (tok, len(b))
        cpu.v[i][:w] = b
        if vex_zero: cpu.v[i][w:] = bytes(64 - w)
    def lanes(b, t): return list(struct.unpack('<%d%s' % (len(b)//(4 if t=='f' else 8), t), b))
    def pack(vals, t):
        if t == 'f': vals = [f32(v) for v in vals]
        return struct.pack('<%d%s' % (len(vals), t), *vals)
    def fma(a, b, c, t):
        r = a*b + c  # exact enough for integer-valued test data
        return r
    while True:
        steps += 1
        if steps > 2_000_000: raise RuntimeError('runaway')
        s = prog[pc]; pc += 1
        m = re.match(r'(\S+)\s*(.*)', s)
        op, rest = m.group(1), m.group(2)
        ops = [o.strip() for o in re.split(r',(?![^(]*\))', rest)] if rest else []
        # ---------- integer ----------
        if op in ('MOVQ', 'MOVL'):
            src, dst = ops
            cpu.r[dst] = ival(src)
        elif op in ('SHLQ', 'SHLL'):
            n = ival(ops[0]) if ops[0] != 'CX' else cpu.r['CX'] & 31
            cpu.r[ops[1]] = (cpu.r[ops[1]] << n) & (0xffffffffffffffff if op == 'SHLQ' else 0xffffffff)
        elif op == 'SHRQ':
            cpu.r[ops[1]] >>= ival(ops[0])
        elif op in ('DECL', 'DECQ'):
            cpu.r[ops[0]] -= 1
            cpu.flags = cpu.r[ops[0]]
        elif op == 'ADDQ':
            cpu.r[ops[1]] += ival(ops[0])
        elif op == 'SUBQ':
            cpu.r[ops[1]] -= ival(ops[0])
            cpu.flags = cpu.r[ops[1]]
        elif op == 'ANDQ':
            cpu.r[ops[1]] &= ival(ops[0]) & 0xffffffffffffffff
            cpu.r[ops[1]] = cpu.r[ops[1]] if cpu.r[ops[1]] < (1 << 63) else cpu.r[ops[1]] - (1 << 64)
        elif op in ('XORL', 'XORQ'):
            cpu.r[ops[1]] ^= ival(ops[0])
        elif op == 'CMPQ':
            cpu.flags = ival(ops[0]) - ival(ops[1])
        elif op == 'TESTQ':
            cpu.flags = ival(ops[0]) & ival(ops[1])
        elif op == 'IMULQ':
            cpu.r[ops[1]] = cpu.r[ops[1]] * ival(ops[0])
        elif op.startswith('PREFETCH'):
            pass  # a hint: never faults, changes no state
        elif op == 'LEAQ':
            cpu.r[ops[1]] = addr_of(ops[0])
        elif op == 'KMOVW':
            cpu.k[int(ops[1][1])] = cpu.r[ops[0]] & 0xffff
        elif op in ('JB', 'JAE', 'JZ', 'JNZ', 'JMP', 'JA'):
            f = cpu.flags
            take = {'JB': f is not None and f < 0, 'JAE': f is not None and f >= 0, 'JZ': f == 0,
                    'JNZ': f != 0, 'JMP': True, 'JA': f is not None and f > 0}[op]
            if take: pc = labels[ops[0]]
        elif op == 'PCALIGN':
            pass
        elif op == 'RET':
            return ret, cpu
        elif op == 'VZEROUPPER':
            for i in range(16): cpu.v[i][16:] = bytes(48)
        # ---------- vector ----------
        else:
            base = op.split('.')[0]
            zeroing = op.endswith('.Z')
            t = 'f' if base.endswith('PS') or base.endswith('SS') else 'd'
            esz = 4 if t == 'f' else 8
            mask = None
            if len(ops) >= 3 and re.match(r'K\d$', ops[-2]):
                mask = cpu.k[int(ops[-2][1])]
                ops = ops[:-2] + [ops[-1]]
            if base in ('VXORPS', 'VXORPD'):
                a, b, d = ops; k, i = vreg(d); setv(d, bytes(WID[k]))
            elif base in ('VMOVUPS', 'VMOVUPD', 'VMOVDQU'):
                src, dst = ops
                if is_mem(dst):
                    k, i = vreg(src); w = WID[k]
                    b = bytes(cpu.v[i][:w])
                    a = addr_of(dst)
                    if mask is None:
                        cpu.store(a, b)
                    else:
                        for l in range(w // esz):
                            if mask >> l & 1: cpu.store(a + l*esz, b[l*esz:(l+1)*esz])
                else:
                    k, i = vreg(dst); w = WID[k]
                    if mask is None:
                        setv(dst, getv(src, w))
                    else:
                        assert zeroing and is_mem(src)
                        a = addr_of(src); out = bytearray(w)
                        for l in range(w // esz):
                            if mask >> l & 1: out[l*esz:(l+1)*esz] = cpu.load(a + l*esz, esz)
                        setv(dst, bytes(out))
            elif base in ('VMOVSS', 'VMOVSD'):
                src, dst = ops
                if is_fp(dst):
                    ret[fpname(dst)] = lanes(bytes(cpu.v[vreg(src)[1]][:esz]), t)[0]
                elif is_mem(dst):
                    cpu.store(addr_of(dst), bytes(cpu.v[vreg(src)[1]][:esz]))
                elif is_mem(src):
                    setv(dst, cpu.load(addr_of(src), esz) + bytes(16 - esz))
                else: raise ValueError(s)
            elif base in ('VBROADCASTSS', 'VBROADCASTSD'):
                src, dst = ops
                v = frame[fpname(src)] if is_fp(src) else None
                k, i = vreg(dst)
                setv(dst, pack([v] * (WID[k] // esz), t))
            elif base in ('VFMADD231PS', 'VFMADD231PD', 'VFMADD213PS', 'VFMADD213PD', 'VADDPS', 'VADDPD',
                          'VSUBPS', 'VSUBPD', 'VMULPS', 'VMULPD', 'VANDPS', 'VANDPD', 'VHADDPS', 'VHADDPD'):
                s2, s1, d = ops
                k, i = vreg(d); w = WID[k]
                if mask is not None: raise ValueError('masked arithmetic not modelled: ' + s)
                if base.startswith('VAND'):
                    b2 = getv(s2, w); b1 = getv(s1, w)
                    setv(d, bytes(x & y for x, y in zip(b1, b2)))
                    continue
                A = lanes(getv(s2, w), t); B = lanes(getv(s1, w), t); D = lanes(bytes(cpu.v[i][:w]), t)
                if base.startswith('VFMADD231'): R = [fma(b, a, dd, t) for a, b, dd in zip(A, B, D)]
                elif base.startswith('VFMADD213'): R = [fma(b, dd, a, t) for a, b, dd in zip(A, B, D)]
                elif base.startswith('VADD'): R = [b + a for a, b in zip(A, B)]
                elif base.startswith('VSUB'): R = [b - a for a, b in zip(A, B)]
                elif base.startswith('VMUL'): R = [b * a for a, b in zip(A, B)]
                elif base.startswith('VHADD'):
                    # Intel: dst = hadd(src1=B, src2=A) per 128-bit lane
                    n = 16 // esz; R = []
                    for lane in range(w // 16):
                        bb = B[lane*n:(lane+1)*n]; aa = A[lane*n:(lane+1)*n]
                        R += [bb[j] + bb[j+1] for j in range(0, n, 2)] + [aa[j] + aa[j+1] for j in range(0, n, 2)]
                setv(d, pack(R, t))
            elif base in ('VADDSS', 'VADDSD', 'VSUBSS', 'VSUBSD', 'VMULSS', 'VMULSD', 'VFMADD231SS', 'VFMADD231SD', 'VFMADD213SS', 'VFMADD213SD'):
                s2, s1, d = ops
                a = lanes(getv(s2, esz), t)[0]
                b1 = bytes(cpu.v[vreg(s1)[1]][:16]); b = lanes(b1[:esz], t)[0]
                dd = lanes(bytes(cpu.v[vreg(d)[1]][:esz]), t)[0]
                if '231' in base: r = b * a + dd
                elif '213' in base: r = b * dd + a
                elif 'ADD' in base: r = b + a
                elif 'SUB' in base: r = b - a
                elif 'MUL' in base: r = b * a
                else: raise ValueError(s)
                top = b1[esz:16] if '231' not in base and '213' not in base else bytes(cpu.v[vreg(d)[1]][esz:16])
                setv('X%d' % vreg(d)[1], pack([r], t) + top)
            elif base in ('VEXTRACTF128', 'VEXTRACTF64X4'):
                imm, src, dst = ops
                half = 16 if base == 'VEXTRACTF128' else 32
                i = vreg(src)[1]
                assert imm == '$1'
                setv(dst, bytes(cpu.v[i][half:2*half]))
            elif base == 'VMOVHLPS':
                s3, s2, d = ops  # d[63:0]=s3[127:64], d[127:64]=s2[127:64]
                b3 = bytes(cpu.v[vreg(s3)[1]][:16]); b2 = bytes(cpu.v[vreg(s2)[1]][:16])
                setv(d, b3[8:16] + b2[8:16])
            elif base == 'VMOVSHDUP':
                src, d = ops
                L = lanes(bytes(cpu.v[vreg(src)[1]][:16]), 'f')
                setv(d, pack([L[1], L[1], L[3], L[3]], 'f'))
            elif base == 'VUNPCKHPD':
                s3, s2, d = ops  # d[0]=s2[1], d[1]=s3[1]
                A = lanes(bytes(cpu.v[vreg(s3)[1]][:16]), 'd'); B = lanes(bytes(cpu.v[vreg(s2)[1]][:16]), 'd')
                setv(d, pack([B[1], A[1]], 'd'))
            elif base == 'VPERM2F128':
                imm, s3, s2, d = ops; imm = int(imm[1:], 0)
                b3 = bytes(cpu.v[vreg(s3)[1]][:32]); b2 = bytes(cpu.v[vreg(s2)[1]][:32])
                sel = [b2[:16], b2[16:], b3[:16], b3[16:]]
                setv(d, sel[imm & 3] + sel[(imm >> 4) & 3])
            elif base == 'VBLENDPD':
                imm, s3, s2, d = ops; imm = int(imm[1:], 0)
                A = lanes(bytes(cpu.v[vreg(s3)[1]][:32]), 'd'); B = lanes(bytes(cpu.v[vreg(s2)[1]][:32]), 'd')
                setv(d, pack([A[j] if imm >> j & 1 else B[j] for j in range(4)], 'd'))
            else:
                raise ValueError('unmodelled: ' + s)
