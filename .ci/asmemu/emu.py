# Instruction-level interpreter for the subset of the Go assembler (amd64,
# AVX2 and AVX-512F, and the integer instructions of the int8 kernels:
# AVX512BW byte masking, AVX512_VNNI, and the AVX-VNNI VPDPBUSD the
# generator writes as BYTEs) that kernel/*_amd64.s and gram/micro*_amd64.s use. CI
# runs the AVX-512 files through it because no emulator available here (qemu
# TCG) executes AVX-512; see README.md beside this file.
#
# It models instruction semantics, not the shape of a particular file: any
# addressing mode base+index*scale+disp, every condition code from the
# ZF/SF/CF/OF flags as the x86 defines them (a branch on a flag the last
# instruction left undefined is an error), VEX/EVEX register writes (the bits
# above the written width are cleared), AVX-512 opmask merging and zeroing,
# embedded broadcast (.BCST), memory operands anywhere x86 allows them, and
# alignment faults of the aligned moves. Registers start with random contents
# at every call, as in a real call, so a kernel that reads a register before
# writing it gives garbage rather than a lucky zero. Memory is a bytearray;
# every access outside the ranges the caller allows is a Fault.
#
# Floating point: lanes are computed in Python floats (binary64) and rounded
# to the element type, which is exact for add, subtract and multiply. An FMA
# is a·b+c rounded twice, so it is exact (as the fused hardware result) only
# where a·b+c is representable, as it is on the drivers' integer data.
import re, struct, math, random

M64 = (1 << 64) - 1


def f32(v):
    try:
        return struct.unpack('f', struct.pack('f', v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


class Fault(Exception):
    pass


# ---------------------------------------------------------------- parsing

def parse(path):
    src = open(path).read()
    src = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    src = re.sub(r'\\\n', ' ', src)  # join continuation lines
    macros = {}
    funcs = {}
    data = {}
    cur = None
    for raw in src.split('\n'):
        line = raw.split('//')[0].strip()
        if not line:
            continue
        if line.startswith('#define'):
            m = re.match(r'#define\s+(\w+)(\(([^)]*)\))?\s*(.*)', line)
            name, params, body = m.group(1), m.group(3), m.group(4)
            macros[name] = ([p.strip() for p in params.split(',')] if params is not None else None, body)
            continue
        if line.startswith('#'):
            continue  # #include, #ifdef...: nothing the kernels depend on
        if line.startswith('GLOBL'):
            m = re.match(r'GLOBL\s+(\w+)<>\(SB\)\s*,\s*(?:[\w|]+\s*,\s*)?\$(\w+)', line)
            if m:
                size = int(m.group(2), 0)
                b = data.setdefault(m.group(1), bytearray(size))
                if len(b) < size:
                    b.extend(bytes(size - len(b)))
            continue
        if line.startswith('DATA'):
            m = re.match(r'DATA\s+(\w+)<>\+(0x[0-9a-fA-F]+|\d+)\(SB\)/(\d+),\s*\$(\S+)', line)
            name, off, size, val = m.group(1), int(m.group(2), 0), int(m.group(3)), int(m.group(4), 0)
            b = data.setdefault(name, bytearray())
            if len(b) < off + size:
                b.extend(bytes(off + size - len(b)))
            b[off:off + size] = (val & ((1 << (8 * size)) - 1)).to_bytes(size, 'little')
            continue
        if line.startswith('TEXT'):
            cur = re.match(r'TEXT\s+·(\w+)', line).group(1)
            funcs[cur] = []
            continue
        if cur is None:
            continue
        for stmt in expand(line, macros, 0):
            funcs[cur].append(stmt)
    return funcs, data


def expand(line, macros, depth):
    if depth > 20:
        raise ValueError('macro recursion: ' + line)
    out = []
    for s in line.split(';'):
        s = s.strip()
        if not s:
            continue
        m = re.match(r'(\w+):\s*(.*)$', s)  # a label, maybe followed by an instruction
        if m and not s.startswith('$'):
            out.append(m.group(1) + ':')
            s = m.group(2).strip()
            if not s:
                continue
        m = re.match(r'(\w+)\s*(\(([^)]*)\))?$', s)
        if m and m.group(1) in macros:
            params, body = macros[m.group(1)]
            if params:
                args = [a.strip() for a in m.group(3).split(',')]
                if len(args) != len(params):
                    raise ValueError('macro arguments: ' + s)
                subst = dict(zip(params, args))
                body = re.sub(r'\b\w+\b', lambda t: subst.get(t.group(0), t.group(0)), body)
            out.extend(expand(body, macros, depth + 1))
            continue
        # object-like macros used as operands (#define STEP 64 ... ADDQ $STEP, SI)
        consts = {n: b for n, (p, b) in macros.items() if p is None and ';' not in b}
        if consts:
            for _ in range(10):
                t = re.sub(r'\b\w+\b', lambda t: consts.get(t.group(0), t.group(0)), s)
                if t == s:
                    break
                s = t
        out.append(s)
    return out


# ---------------------------------------------------------------- operands

GPR = ['AX', 'BX', 'CX', 'DX', 'SI', 'DI', 'BP', 'SP'] + ['R%d' % i for i in range(8, 16)]
GPRSET = set(GPR)
WID = {'X': 16, 'Y': 32, 'Z': 64}


def cexpr(s):
    # an assembler constant expression: numbers, + - * / << >> & | ~ ( )
    if not re.match(r'^[-+*/<>&|~() 0-9a-fA-FxX]+$', s):
        raise ValueError('constant expression: ' + s)
    return int(eval(s.replace('/', '//'), {'__builtins__': {}}))


def operand(tok):
    tok = tok.strip()
    if tok.startswith('$'):
        return ('imm', cexpr(tok[1:]))
    if tok in GPRSET:
        return ('reg', tok)
    m = re.match(r'([XYZ])(\d+)$', tok)
    if m:
        return ('vec', WID[m.group(1)], int(m.group(2)))
    m = re.match(r'K([0-7])$', tok)
    if m:
        return ('k', int(m.group(1)))
    m = re.match(r'(\w+)(?:\+(-?\w+))?\(FP\)$', tok)
    if m:
        return ('fp', m.group(1).split('+')[0])
    m = re.match(r'(\w+)<>(?:([-+][^(]+))?\(SB\)$', tok)
    if m:
        return ('sym', m.group(1), cexpr(m.group(2)) if m.group(2) else 0)
    m = re.match(r'·(\w+)(?:([-+][^(]+))?\(SB\)$', tok)
    if m:  # a Go package symbol: a variable the caller supplies, or a tail-call target
        return ('sym', '·' + m.group(1), cexpr(m.group(2)) if m.group(2) else 0)
    m = re.match(r'([^(]*)\((\w+)\)(?:\((\w+)\*([1248])\))?$', tok)
    if m:
        disp = cexpr(m.group(1)) if m.group(1).strip() else 0
        if m.group(2) not in GPRSET or (m.group(3) and m.group(3) not in GPRSET):
            raise ValueError('address: ' + tok)
        return ('mem', disp, m.group(2), m.group(3), int(m.group(4) or 1))
    if re.match(r'\w+$', tok):
        return ('label', tok)
    raise ValueError('operand: ' + tok)


def split_ops(rest):
    return [o.strip() for o in re.split(r',(?![^(]*\))', rest)] if rest else []


class Ins:
    __slots__ = ('text', 'op', 'base', 'sfx', 'ops', 'mask', 't', 'esz', 'fma', 'arith')

    def __init__(self, text):
        self.text = text
        m = re.match(r'(\S+)\s*(.*)', text)
        self.op = m.group(1)
        parts = self.op.split('.')
        self.base, self.sfx = parts[0], set(parts[1:])
        unknown = self.sfx - {'Z', 'BCST'}
        if unknown:
            raise ValueError('unmodelled suffix %s: %s' % (unknown, text))
        ops = [operand(o) for o in split_ops(m.group(2))]
        # AVX-512 opmask: Go writes it just before the destination
        self.mask = None
        if len(ops) >= 3 and ops[-2][0] == 'k' and self.base[0] == 'V':
            self.mask = ops[-2][1]
            ops = ops[:-2] + [ops[-1]]
            if self.mask == 0:
                raise ValueError('K0 cannot be a write mask: ' + text)
        self.ops = ops
        self.fma = self.arith = None
        if self.base[0] == 'V':  # decoded once: element type, FMA and arithmetic forms
            self.t = etype(self.base)
            self.esz = 4 if self.t == 'f' else 8
            if self.mask is None and 'Z' in self.sfx:
                raise ValueError('.Z without an opmask: ' + text)
            if 'BCST' in self.sfx and (not ops or ops[0][0] not in ('mem', 'sym')):
                raise ValueError('.BCST needs a memory source: ' + text)
            m = FMA_RE.match(self.base)
            if m:
                kind, order, form = m.groups()
                self.fma = (form in ('PS', 'PD'), fma_lanes(kind, order))
            m = ARITH_RE.match(self.base)
            if m:
                self.arith = (m.group(2) in ('PS', 'PD'), ARITH[m.group(1)])


_decoded = {}


def decode_bytes(bs):
    """The instruction a run of BYTE statements encodes, as Go assembler
    text. Only the encoding the generator writes is accepted: {vex}
    VPDPBUSD ymm, ymm, ymm (VEX.256.66.0F38.W0 50 /r, register form), which
    computes what the EVEX VPDPBUSD does on YMM registers."""
    if len(bs) != 5 or bs[0] != 0xc4 or bs[1] & 0x1f != 0x02 or not bs[1] & 0x40 or bs[2] & 0x87 != 0x05 \
            or bs[3] != 0x50 or bs[4] >> 6 != 3:
        raise ValueError('unmodelled BYTE encoding: ' + ' '.join('%02x' % b for b in bs))
    dst = (bs[4] >> 3 & 7) | (0 if bs[1] & 0x80 else 8)
    src2 = (bs[4] & 7) | (0 if bs[1] & 0x20 else 8)
    src1 = ~bs[2] >> 3 & 15
    return 'VPDPBUSD Y%d, Y%d, Y%d' % (src2, src1, dst)


def coalesce(code):
    # Joins each run of BYTE statements into the instruction it encodes.
    out, run = [], []
    for s in code + ['']:
        m = re.match(r'BYTE\s+\$(\w+)$', s)
        if m:
            run.append(int(m.group(1), 0))
            continue
        if run:
            out.append(decode_bytes(run))
            run = []
        if s:
            out.append(s)
    return out


def decode(code):
    hit = _decoded.get(id(code))
    if hit is not None and hit[0] is code:
        return hit[1], hit[2]
    labels, prog = {}, []
    for s in coalesce(code):
        if s.endswith(':'):
            if s[:-1] in labels:
                raise ValueError('duplicate label ' + s)
            labels[s[:-1]] = len(prog)
        else:
            prog.append(Ins(s))
    for ins in prog:
        if ins.base.startswith('J') and ins.ops and ins.ops[0][0] == 'label' and ins.ops[0][1] not in labels:
            raise ValueError('unknown label: ' + ins.text)
    _decoded[id(code)] = (code, prog, labels)
    return prog, labels


# ---------------------------------------------------------------- lanes

_structs = {}


def st(n, t):
    k = (n, t)
    s = _structs.get(k)
    if s is None:
        s = _structs[k] = struct.Struct('<%d%s' % (n, t))
    return s


def lanes(b, t):
    return list(st(len(b) // (4 if t == 'f' else 8), t).unpack(b))


def pack(vals, t):
    s = st(len(vals), t)
    try:
        return s.pack(*vals)
    except OverflowError:  # a float32 lane beyond the range: round to ±inf
        return s.pack(*[f32(v) for v in vals])


# ---------------------------------------------------------------- flags

# Go's conditional jumps (and the Intel-style aliases the Go assembler
# accepts) as predicates of (ZF, SF, CF, OF) and the flags they read.
COND = {
    'EQ': ('Z', lambda z, s, c, o: z), 'NE': ('Z', lambda z, s, c, o: not z),
    'LT': ('SO', lambda z, s, c, o: s != o), 'GE': ('SO', lambda z, s, c, o: s == o),
    'LE': ('ZSO', lambda z, s, c, o: z or s != o), 'GT': ('ZSO', lambda z, s, c, o: not z and s == o),
    'CS': ('C', lambda z, s, c, o: c), 'CC': ('C', lambda z, s, c, o: not c),
    'HI': ('ZC', lambda z, s, c, o: not c and not z), 'LS': ('ZC', lambda z, s, c, o: c or z),
    'MI': ('S', lambda z, s, c, o: s), 'PL': ('S', lambda z, s, c, o: not s),
    'OS': ('O', lambda z, s, c, o: o), 'OC': ('O', lambda z, s, c, o: not o),
}
JALIAS = {'JZ': 'EQ', 'JE': 'EQ', 'JNZ': 'NE', 'JL': 'LT', 'JNGE': 'LT', 'JNL': 'GE', 'JLE': 'LE', 'JNG': 'LE',
          'JG': 'GT', 'JNLE': 'GT', 'JB': 'CS', 'JC': 'CS', 'JLO': 'CS', 'JNAE': 'CS', 'JAE': 'CC', 'JNB': 'CC',
          'JNC': 'CC', 'JHS': 'CC', 'JA': 'HI', 'JNBE': 'HI', 'JBE': 'LS', 'JNA': 'LS', 'JS': 'MI', 'JNS': 'PL',
          'JO': 'OS', 'JNO': 'OC'}
for c in COND:
    JALIAS['J' + c] = c


# ---------------------------------------------------------------- machine

class CPU:
    def __init__(self, mem, allowed, data_addrs, rng):
        self.mem = mem
        self.allowed = allowed  # (lo, hi) byte ranges that may be read and written
        self.r = {k: rng.getrandbits(64) for k in GPR}
        self.v = [bytearray(rng.randbytes(64)) for _ in range(32)]
        self.k = [0] + [rng.getrandbits(64) for _ in range(7)]
        self.flags = {'Z': None, 'S': None, 'C': None, 'O': None}  # None: undefined
        self.data_addrs = data_addrs

    def check(self, addr, n):
        for lo, hi in self.allowed:
            if lo <= addr and addr + n <= hi:
                return
        raise Fault('access %#x+%d outside the slices' % (addr, n))

    def load(self, addr, n):
        self.check(addr, n)
        return bytes(self.mem[addr:addr + n])

    def store(self, addr, b):
        self.check(addr, len(b))
        self.mem[addr:addr + len(b)] = b


def run(funcs, data, name, args, mem, allowed, seed=None, max_steps=2_000_000):
    """Runs function name of a parsed file. args maps argument names (as the
    .s file writes them before +off(FP)) to ints or floats; mem is the
    bytearray address space (data tables are appended to it) and allowed the
    (lo, hi) byte ranges the function may touch. Returns (results, cpu):
    results maps the names of stores to (FP) to the values stored."""
    prog, labels = decode(funcs[name])
    data_addrs = {}
    base = len(mem)
    allowed = list(allowed)
    for dn, b in data.items():
        data_addrs[dn] = base
        mem.extend(b)
        allowed.append((base, base + len(b)))
        base += len(b)
    rng = random.Random(seed if seed is not None else '%s:%d' % (name, len(mem)))
    cpu = CPU(mem, allowed, data_addrs, rng)
    bp0, sp0 = cpu.r['BP'], cpu.r['SP']
    ret = {}
    pc = 0
    steps = 0
    while True:
        steps += 1
        if steps > max_steps:
            raise Fault('%s: more than %d instructions (a runaway loop?)' % (name, max_steps))
        if pc >= len(prog):
            raise Fault('%s: ran off the end of the function' % name)
        ins = prog[pc]
        pc += 1
        try:
            j = execute(cpu, ins, args, ret, labels)
        except Fault as e:
            raise Fault('%s: %s at "%s"' % (name, e, ins.text)) from None
        if j is not None:
            if j == -1 or isinstance(j, tuple):
                if cpu.r['BP'] != bp0 or cpu.r['SP'] != sp0:
                    raise Fault('%s: returns with BP or SP changed' % name)
                if isinstance(j, tuple):  # JMP ·f(SB): f runs on the same frame
                    if ret:
                        raise Fault('%s: tail call to %s after storing results' % (name, j[1]))
                    ret['tailcall'] = j[1]
                return ret, cpu
            pc = j


def execute(cpu, ins, frame, ret, labels):
    b = ins.base
    h = INT_OPS.get(b)
    if h is not None:
        return h(cpu, ins, frame, ret, labels)
    if b in JALIAS:
        flags, pred = COND[JALIAS[b]]
        f = cpu.flags
        for fl in flags:
            if f[fl] is None:
                raise Fault('branch on a flag the previous instruction left undefined')
        if pred(f['Z'], f['S'], f['C'], f['O']):
            return labels[ins.ops[0][1]]
        return None
    if b == 'JMP':
        o = ins.ops[0]
        if o[0] == 'sym' and o[1].startswith('·') and o[2] == 0:
            return ('tail', o[1][1:])  # a tail call to a Go function
        return labels[o[1]]
    if b == 'RET':
        return -1
    vector(cpu, ins, frame, ret)
    return None


# ---------------------------------------------------------------- integer

def addr(cpu, o):
    if o[0] == 'mem':
        a = o[1] + cpu.r[o[2]]
        if o[3]:
            a += cpu.r[o[3]] * o[4]
        return a & M64
    if o[0] == 'sym':
        if o[1] not in cpu.data_addrs:
            raise Fault('access to %s, which the caller did not supply' % o[1])
        return cpu.data_addrs[o[1]] + o[2]
    raise ValueError('not an address: %r' % (o,))


def width(b):
    return {'Q': 64, 'L': 32, 'W': 16, 'B': 8}[b[-1]]


def iget(cpu, o, w, frame):
    m = (1 << w) - 1
    if o[0] == 'imm':
        return o[1] & m
    if o[0] == 'reg':
        return cpu.r[o[1]] & m
    if o[0] == 'fp':
        v = frame[o[1]]
        if not isinstance(v, int):
            raise ValueError('integer load of a float argument ' + o[1])
        return v & m
    if o[0] in ('mem', 'sym'):
        return int.from_bytes(cpu.load(addr(cpu, o), w // 8), 'little')
    raise ValueError('integer operand %r' % (o,))


def iset(cpu, o, v, w, ret):
    m = (1 << w) - 1
    v &= m
    if o[0] == 'reg':
        if w == 64 or w == 32:
            cpu.r[o[1]] = v  # a 32-bit write clears the upper half
        else:
            cpu.r[o[1]] = (cpu.r[o[1]] & ~m & M64) | v
    elif o[0] == 'fp':
        ret[o[1]] = v
    elif o[0] in ('mem', 'sym'):
        cpu.store(addr(cpu, o), v.to_bytes(w // 8, 'little'))
    else:
        raise ValueError('integer destination %r' % (o,))


def setzs(cpu, r, w):
    cpu.flags['Z'] = r == 0
    cpu.flags['S'] = bool(r >> (w - 1) & 1)


def op_mov(cpu, ins, frame, ret, labels):
    w = width(ins.base)
    src, dst = ins.ops
    iset(cpu, dst, iget(cpu, src, w, frame), w, ret)


def op_movzx(cpu, ins, frame, ret, labels):  # MOVLQZX, MOVWQZX, MOVBQZX
    src, dst = ins.ops
    iset(cpu, dst, iget(cpu, src, width(ins.base[:-3]), frame), 64, ret)


def op_movsx(cpu, ins, frame, ret, labels):  # MOVLQSX...
    src, dst = ins.ops
    w = width(ins.base[:-3])
    v = iget(cpu, src, w, frame)
    if v >> (w - 1):
        v -= 1 << w
    iset(cpu, dst, v, 64, ret)


def op_lea(cpu, ins, frame, ret, labels):
    src, dst = ins.ops
    iset(cpu, dst, addr(cpu, src), width(ins.base), ret)


def arith(kind):
    def h(cpu, ins, frame, ret, labels):
        w = width(ins.base)
        m = (1 << w) - 1
        src, dst = ins.ops
        a, bb = iget(cpu, dst, w, frame), iget(cpu, src, w, frame)
        sa, sb = a >> (w - 1), bb >> (w - 1)
        f = cpu.flags
        if kind in ('SUB', 'CMP'):
            if kind == 'CMP':  # Go: CMPQ x, y compares x with y (flags of x - y)
                a, bb = bb, a
                sa, sb = sb, sa
            r = (a - bb) & m
            f['C'] = a < bb
            f['O'] = sa != sb and (r >> (w - 1)) != sa
        elif kind == 'ADD':
            r = (a + bb) & m
            f['C'] = a + bb > m
            f['O'] = sa == sb and (r >> (w - 1)) != sa
        else:
            r = {'AND': a & bb, 'TEST': a & bb, 'OR': a | bb, 'XOR': a ^ bb}[kind]
            f['C'] = f['O'] = False
        setzs(cpu, r, w)
        if kind not in ('CMP', 'TEST'):
            iset(cpu, dst, r, w, ret)
    return h


def incdec(d):
    def h(cpu, ins, frame, ret, labels):  # CF is left unchanged
        w = width(ins.base)
        m = (1 << w) - 1
        (dst,) = ins.ops
        a = iget(cpu, dst, w, frame)
        r = (a + d) & m
        sa = a >> (w - 1)
        cpu.flags['O'] = (r >> (w - 1)) != sa and (sa == (0 if d > 0 else 1))
        setzs(cpu, r, w)
        iset(cpu, dst, r, w, ret)
    return h


def op_neg(cpu, ins, frame, ret, labels):
    w = width(ins.base)
    (dst,) = ins.ops
    a = iget(cpu, dst, w, frame)
    r = (-a) & ((1 << w) - 1)
    cpu.flags['C'] = a != 0
    cpu.flags['O'] = a == 1 << (w - 1)
    setzs(cpu, r, w)
    iset(cpu, dst, r, w, ret)


def op_not(cpu, ins, frame, ret, labels):
    w = width(ins.base)
    (dst,) = ins.ops
    iset(cpu, dst, ~iget(cpu, dst, w, frame), w, ret)


def shift(kind):
    def h(cpu, ins, frame, ret, labels):
        w = width(ins.base)
        m = (1 << w) - 1
        cnt, dst = ins.ops
        if cnt[0] == 'reg' and cnt[1] != 'CX':
            raise ValueError('shift count in a register other than CX: ' + ins.text)
        n = iget(cpu, cnt, 8, frame) & (63 if w == 64 else 31)
        a = iget(cpu, dst, w, frame)
        if n == 0:
            return  # flags unchanged
        f = cpu.flags
        if kind == 'SHL':
            r = (a << n) & m
            f['C'] = bool(a >> (w - n) & 1)
            f['O'] = (bool(r >> (w - 1)) != f['C']) if n == 1 else None
        elif kind == 'SHR':
            r = a >> n
            f['C'] = bool(a >> (n - 1) & 1)
            f['O'] = bool(a >> (w - 1)) if n == 1 else None
        else:  # SAR
            s = a - (1 << w) if a >> (w - 1) else a
            r = (s >> n) & m
            f['C'] = bool(s >> (n - 1) & 1)
            f['O'] = False if n == 1 else None
        setzs(cpu, r, w)
        iset(cpu, dst, r, w, ret)
    return h


def op_imul(cpu, ins, frame, ret, labels):
    w = width(ins.base)
    if len(ins.ops) != 2:
        raise ValueError('unmodelled IMUL form: ' + ins.text)
    src, dst = ins.ops

    def sg(v):
        return v - (1 << w) if v >> (w - 1) else v
    p = sg(iget(cpu, dst, w, frame)) * sg(iget(cpu, src, w, frame))
    r = p & ((1 << w) - 1)
    cpu.flags['C'] = cpu.flags['O'] = sg(r) != p
    cpu.flags['Z'] = cpu.flags['S'] = None  # undefined after IMUL
    iset(cpu, dst, r, w, ret)


def op_imul3(cpu, ins, frame, ret, labels):  # IMUL3Q $imm, src, dst
    w = width(ins.base)
    imm, src, dst = ins.ops

    def sg(v):
        return v - (1 << w) if v >> (w - 1) else v
    p = sg(iget(cpu, imm, w, frame)) * sg(iget(cpu, src, w, frame))
    r = p & ((1 << w) - 1)
    cpu.flags['C'] = cpu.flags['O'] = sg(r) != p
    cpu.flags['Z'] = cpu.flags['S'] = None
    iset(cpu, dst, r, w, ret)


def op_kmov(cpu, ins, frame, ret, labels):
    w = {'KMOVB': 8, 'KMOVW': 16, 'KMOVD': 32, 'KMOVQ': 64}[ins.base]
    src, dst = ins.ops
    v = cpu.k[src[1]] & ((1 << w) - 1) if src[0] == 'k' else iget(cpu, src, w, frame)
    if dst[0] == 'k':
        cpu.k[dst[1]] = v  # the bits above w are cleared
    else:
        iset(cpu, dst, v, 32 if w < 64 else 64, ret)


def op_nop(cpu, ins, frame, ret, labels):
    return None


def op_vzeroupper(cpu, ins, frame, ret, labels):
    for i in range(16):
        cpu.v[i][16:] = bytes(48)


INT_OPS = {'LEAQ': op_lea, 'LEAL': op_lea, 'NOP': op_nop, 'PCALIGN': op_nop, 'VZEROUPPER': op_vzeroupper,
           'MOVLQZX': op_movzx, 'MOVWQZX': op_movzx, 'MOVBQZX': op_movzx, 'MOVBLZX': op_movzx,
           'MOVLQSX': op_movsx, 'MOVWQSX': op_movsx, 'MOVBQSX': op_movsx}
for sfx in 'QLWB':
    INT_OPS['MOV' + sfx] = op_mov
    for k in ('ADD', 'SUB', 'CMP', 'AND', 'OR', 'XOR', 'TEST'):
        INT_OPS[k + sfx] = arith(k)
    INT_OPS['INC' + sfx] = incdec(1)
    INT_OPS['DEC' + sfx] = incdec(-1)
    INT_OPS['NEG' + sfx] = op_neg
    INT_OPS['NOT' + sfx] = op_not
    for k in ('SHL', 'SHR', 'SAR'):
        INT_OPS[k + sfx] = shift(k)
    INT_OPS['IMUL' + sfx] = op_imul
    INT_OPS['IMUL3' + sfx] = op_imul3
for k in ('KMOVB', 'KMOVW', 'KMOVD', 'KMOVQ'):
    INT_OPS[k] = op_kmov


def op_kunpckbw(cpu, ins, frame, ret, labels):
    lo, hi, dst = ins.ops  # Go's order: the low byte's source first (Intel's src2)
    if lo[0] != 'k' or hi[0] != 'k' or dst[0] != 'k':
        raise ValueError('unmodelled form: ' + ins.text)
    cpu.k[dst[1]] = (cpu.k[hi[1]] & 0xff) << 8 | (cpu.k[lo[1]] & 0xff)


def op_bsf(cpu, ins, frame, ret, labels):
    # BSF: the index of the lowest set bit, ZF = 0; a zero source sets ZF
    # and leaves dst as it was (AMD's documented behaviour; Intel's
    # undefined); the other flags undefined
    w = width(ins.base)
    src, dst = ins.ops
    v = iget(cpu, src, w, frame)
    f = cpu.flags
    f['C'] = f['O'] = f['S'] = None
    f['Z'] = v == 0
    if v:
        iset(cpu, dst, (v & -v).bit_length() - 1, w, ret)


INT_OPS['KUNPCKBW'] = op_kunpckbw
INT_OPS['BSFL'] = INT_OPS['BSFQ'] = op_bsf
for k in ('PREFETCHT0', 'PREFETCHT1', 'PREFETCHT2', 'PREFETCHNTA'):
    INT_OPS[k] = op_nop  # hints: never fault, change no state


# ---------------------------------------------------------------- vector

def etype(b):
    # element type of a vector instruction: 'f' float32, 'd' float64
    if b.endswith(('PS', 'SS')) or b in ('VBROADCASTSS', 'VMOVSHDUP'):
        return 'f'
    if b.endswith(('PD', 'SD', 'Q', 'Q64', 'X4', 'U64', 'A64')):
        return 'd'
    return 'f'  # D, DQU32... : 32-bit elements


def vwidth(o):
    if o[0] != 'vec':
        raise ValueError('vector register expected: %r' % (o,))
    return o[1]


def vget(cpu, o, w, esz=None, bcst=False):
    """w bytes of a vector source: a register, memory, or (with .BCST) one
    element of memory broadcast."""
    if o[0] == 'vec':
        return bytes(cpu.v[o[2]][:w])
    if o[0] in ('mem', 'sym'):
        if bcst:
            return cpu.load(addr(cpu, o), esz) * (w // esz)
        return cpu.load(addr(cpu, o), w)
    raise ValueError('vector source %r' % (o,))


def vset(cpu, o, b, mask=None, zeroing=False, esz=4):
    """Writes b to register o: under an opmask, lanes whose bit is clear keep
    their value (or become 0 with .Z); bits above len(b) are cleared (VEX and
    EVEX writes)."""
    reg = cpu.v[o[2]]
    w = len(b)
    if mask is None:
        reg[:w] = b
    else:
        m = cpu.k[mask]
        out = bytearray(reg[:w])
        for l in range(w // esz):
            if m >> l & 1:
                out[l * esz:(l + 1) * esz] = b[l * esz:(l + 1) * esz]
            elif zeroing:
                out[l * esz:(l + 1) * esz] = bytes(esz)
        reg[:w] = out
    reg[w:] = bytes(64 - w)


MOVES = {'VMOVUPS': 4, 'VMOVUPD': 8, 'VMOVAPS': 4, 'VMOVAPD': 8, 'VMOVDQU': None, 'VMOVDQA': None,
         'VMOVDQU32': 4, 'VMOVDQU64': 8, 'VMOVDQA32': 4, 'VMOVDQA64': 8, 'VMOVDQU8': 1, 'VMOVDQU16': 2}
BITWISE = {'VXORPS': 'x', 'VXORPD': 'x', 'VPXOR': 'x', 'VPXORD': 'x', 'VPXORQ': 'x',
           'VANDPS': 'a', 'VANDPD': 'a', 'VPAND': 'a', 'VPANDD': 'a', 'VPANDQ': 'a',
           'VORPS': 'o', 'VORPD': 'o', 'VPOR': 'o', 'VPORD': 'o', 'VPORQ': 'o',
           'VANDNPS': 'n', 'VANDNPD': 'n', 'VPANDN': 'n', 'VPANDND': 'n', 'VPANDNQ': 'n'}
ARITH = {'ADD': lambda a, b: b + a, 'SUB': lambda a, b: b - a, 'MUL': lambda a, b: b * a,
         'DIV': lambda a, b: div(b, a),
         # MAXPS/MINPS return the second source (Go's first operand) on NaN or equality
         'MAX': lambda a, b: b if b > a else a, 'MIN': lambda a, b: b if b < a else a}


def div(x, y):
    try:
        return x / y
    except ZeroDivisionError:
        if x != x or x == 0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)


FMA_RE = re.compile(r'V(FN?M(?:ADD|SUB))(132|213|231)(PS|PD|SS|SD)$')
ARITH_RE = re.compile(r'V(ADD|SUB|MUL|DIV|MAX|MIN)(PS|PD|SS|SD)$')


def fma_lanes(kind, order):
    """The lane function of an FMA: f(X1, X2, X3) with X1 Intel's operand 1
    (the destination), X2 operand 2, X3 operand 3 (Go's first operand)."""
    key = (kind, order)
    f = _fma.get(key)
    if f is None:
        prod = {'132': 'x1 * x3', '213': 'x2 * x1', '231': 'x2 * x3'}[order]
        add = {'132': 'x2', '213': 'x3', '231': 'x1'}[order]
        neg = '-' if kind.startswith('FN') else ''
        op = '+' if kind.endswith('ADD') else '-'
        f = _fma[key] = eval('lambda X1, X2, X3: [%s(%s) %s %s for x1, x2, x3 in zip(X1, X2, X3)]' % (neg, prod, op, add))
    return f


_fma = {}


def vector(cpu, ins, frame, ret):
    b = ins.base
    ops = ins.ops
    t, esz = ins.t, ins.esz
    mask, zeroing, bcst = ins.mask, 'Z' in ins.sfx, 'BCST' in ins.sfx

    if ins.fma:
        packed, f = ins.fma
        s3, s2, d = ops
        if packed:
            w = vwidth(d)
            X3 = lanes(vget(cpu, s3, w, esz, bcst), t)
            X2 = lanes(vget(cpu, s2, w), t)
            X1 = lanes(bytes(cpu.v[d[2]][:w]), t)
            vset(cpu, d, pack(f(X1, X2, X3), t), mask, zeroing, esz)
        else:  # scalar: lane 0 computed, the rest of the low 128 bits kept
            x3 = lanes(vget(cpu, s3, esz) if s3[0] != 'vec' else bytes(cpu.v[s3[2]][:esz]), t)[0]
            x2 = lanes(bytes(cpu.v[s2[2]][:esz]), t)[0]
            old = bytes(cpu.v[d[2]][:16])
            x1 = lanes(old[:esz], t)[0]
            vset(cpu, ('vec', 16, d[2]), pack(f([x1], [x2], [x3]), t) + old[esz:16], mask, zeroing, esz)
        return

    if ins.arith:
        packed, f = ins.arith
        s2, s1, d = ops
        if packed:
            w = vwidth(d)
            A = lanes(vget(cpu, s2, w, esz, bcst), t)
            B = lanes(vget(cpu, s1, w), t)
            vset(cpu, d, pack([f(x, y) for x, y in zip(A, B)], t), mask, zeroing, esz)
        else:  # scalar: lane 0 computed, the rest of the low 128 bits from src1
            a = lanes(vget(cpu, s2, esz) if s2[0] != 'vec' else bytes(cpu.v[s2[2]][:esz]), t)[0]
            b1 = bytes(cpu.v[s1[2]][:16])
            vset(cpu, ('vec', 16, d[2]), pack([f(a, lanes(b1[:esz], t)[0])], t) + b1[esz:], mask, zeroing, esz)
        return

    if b in MOVES:
        m_esz = MOVES[b]
        if mask is not None and m_esz is None:
            raise ValueError('VEX move with an opmask: ' + ins.text)
        esz = m_esz or 4
        src, dst = ops
        aligned = b[5] == 'A'
        if dst[0] in ('mem', 'sym'):
            if zeroing:
                raise ValueError('zeroing store: ' + ins.text)
            w = vwidth(src)
            bb = bytes(cpu.v[src[2]][:w])
            a = addr(cpu, dst)
            if aligned and a % w:
                raise Fault('aligned move to %#x, not %d-byte aligned' % (a, w))
            if mask is None:
                cpu.store(a, bb)
            else:  # masked-off lanes are not accessed (no fault)
                m = cpu.k[mask]
                for l in range(w // esz):
                    if m >> l & 1:
                        cpu.store(a + l * esz, bb[l * esz:(l + 1) * esz])
            return
        w = vwidth(dst)
        if src[0] in ('mem', 'sym'):
            a = addr(cpu, src)
            if aligned and a % w:
                raise Fault('aligned move from %#x, not %d-byte aligned' % (a, w))
            if mask is None:
                vset(cpu, dst, cpu.load(a, w))
            else:
                m = cpu.k[mask]
                out = bytearray(w)
                for l in range(w // esz):
                    if m >> l & 1:
                        out[l * esz:(l + 1) * esz] = cpu.load(a + l * esz, esz)
                vset(cpu, dst, bytes(out), mask, zeroing, esz)
            return
        vset(cpu, dst, vget(cpu, src, w), mask, zeroing, esz)
        return

    if b in ('VMOVSS', 'VMOVSD'):
        if len(ops) != 2 or mask is not None:
            raise ValueError('unmodelled form: ' + ins.text)
        src, dst = ops
        if dst[0] == 'fp':
            ret[dst[1]] = lanes(bytes(cpu.v[src[2]][:esz]), t)[0]
        elif dst[0] in ('mem', 'sym'):
            cpu.store(addr(cpu, dst), bytes(cpu.v[src[2]][:esz]))
        elif src[0] in ('mem', 'sym'):
            vset(cpu, ('vec', 16, dst[2]), cpu.load(addr(cpu, src), esz) + bytes(16 - esz))
        elif src[0] == 'fp':
            vset(cpu, ('vec', 16, dst[2]), pack([frame[src[1]]], t) + bytes(16 - esz))
        else:
            raise ValueError('unmodelled form: ' + ins.text)
        return

    if b in ('VBROADCASTSS', 'VBROADCASTSD'):
        src, dst = ops
        w = vwidth(dst)
        if src[0] == 'fp':
            e = pack([frame[src[1]]], t)
        elif src[0] in ('mem', 'sym'):
            e = cpu.load(addr(cpu, src), esz)
        elif src[0] == 'vec':
            e = bytes(cpu.v[src[2]][:esz])
        else:
            raise ValueError('unmodelled form: ' + ins.text)
        if b == 'VBROADCASTSD' and w == 16:
            raise ValueError('VBROADCASTSD has no 128-bit form: ' + ins.text)
        vset(cpu, dst, e * (w // esz), mask, zeroing, esz)
        return

    if b in BITWISE:
        s2, s1, d = ops
        w = vwidth(d)
        e = 8 if b.endswith(('Q', 'PD')) else 4
        x = int.from_bytes(vget(cpu, s2, w, e, bcst), 'little')
        y = int.from_bytes(vget(cpu, s1, w), 'little')
        r = {'x': y ^ x, 'a': y & x, 'o': y | x, 'n': ~y & x}[BITWISE[b]] & ((1 << (8 * w)) - 1)
        if mask is not None and b in ('VPXOR', 'VPAND', 'VPOR', 'VPANDN'):
            raise ValueError('VEX op with an opmask: ' + ins.text)
        vset(cpu, d, r.to_bytes(w, 'little'), mask, zeroing, e)
        return

    h = INTVEC.get(b)
    if h is not None:
        if mask is not None and b not in INTVEC_MASKED:
            raise ValueError('masked form not modelled: ' + ins.text)
        if bcst:
            raise ValueError('.BCST form not modelled: ' + ins.text)
        h(cpu, ins, ops)
        return

    if mask is not None:
        raise ValueError('masked form not modelled: ' + ins.text)

    if b in ('VHADDPS', 'VHADDPD'):
        s2, s1, d = ops
        w = vwidth(d)
        A = lanes(vget(cpu, s2, w), t)
        B = lanes(vget(cpu, s1, w), t)
        n = 16 // esz
        R = []
        for lane in range(w // 16):  # dst = hadd(src1=B, src2=A) per 128-bit lane
            bb = B[lane * n:(lane + 1) * n]
            aa = A[lane * n:(lane + 1) * n]
            R += [bb[j] + bb[j + 1] for j in range(0, n, 2)] + [aa[j] + aa[j + 1] for j in range(0, n, 2)]
        vset(cpu, d, pack(R, t))
    elif b in ('VEXTRACTF128', 'VEXTRACTF64X4', 'VEXTRACTF32X4', 'VEXTRACTF64X2',
               'VEXTRACTI128', 'VEXTRACTI64X4', 'VEXTRACTI32X4', 'VEXTRACTI64X2'):
        imm, src, dst = ops
        half = 32 if b.endswith('64X4') else 16
        i = imm[1] & ((vwidth(src) // half) - 1)
        part = bytes(cpu.v[src[2]][i * half:(i + 1) * half])
        if dst[0] in ('mem', 'sym'):
            cpu.store(addr(cpu, dst), part)
        else:
            vset(cpu, dst, part)
    elif b == 'VEXTRACTPS':
        imm, src, dst = ops  # the float32 lane imm & 3 of the low 128 bits
        if dst[0] not in ('mem', 'sym'):
            raise ValueError('unmodelled form: ' + ins.text)
        i = imm[1] & 3
        cpu.store(addr(cpu, dst), bytes(cpu.v[src[2]][4 * i:4 * i + 4]))
    elif b in ('VMOVHPD', 'VMOVHPS') and len(ops) == 2 and ops[1][0] in ('mem', 'sym'):
        src, dst = ops  # the store form: bits 127:64 of src
        cpu.store(addr(cpu, dst), bytes(cpu.v[src[2]][8:16]))
    elif b == 'VMOVHLPS':
        s3, s2, d = ops  # d[63:0] = s3[127:64], d[127:64] = s2[127:64]
        b3 = bytes(cpu.v[s3[2]][:16])
        b2 = bytes(cpu.v[s2[2]][:16])
        vset(cpu, d, b3[8:16] + b2[8:16])
    elif b == 'VMOVSHDUP':
        src, d = ops
        w = vwidth(d)
        L = lanes(vget(cpu, src, w), 'f')
        vset(cpu, d, pack([L[i | 1] for i in range(len(L))], 'f'))
    elif b == 'VUNPCKHPD':
        s3, s2, d = ops  # per 128-bit lane: d[0] = s2[1], d[1] = s3[1]
        w = vwidth(d)
        A = lanes(vget(cpu, s3, w), 'd')
        B = lanes(vget(cpu, s2, w), 'd')
        vset(cpu, d, pack([x for j in range(0, len(A), 2) for x in (B[j + 1], A[j + 1])], 'd'))
    elif b == 'VPERM2F128':
        imm, s3, s2, d = ops
        imm = imm[1]
        b3 = vget(cpu, s3, 32)
        b2 = bytes(cpu.v[s2[2]][:32])
        sel = [b2[:16], b2[16:], b3[:16], b3[16:]]
        lo = bytes(16) if imm & 0x08 else sel[imm & 3]
        hi = bytes(16) if imm & 0x80 else sel[(imm >> 4) & 3]
        vset(cpu, d, lo + hi)
    elif b == 'VBLENDPD':
        imm, s3, s2, d = ops
        imm = imm[1]
        w = vwidth(d)
        A = lanes(vget(cpu, s3, w), 'd')
        B = lanes(bytes(cpu.v[s2[2]][:w]), 'd')
        vset(cpu, d, pack([A[j] if imm >> j & 1 else B[j] for j in range(len(A))], 'd'))
    else:
        raise ValueError('unmodelled: ' + ins.text)


# ---------------------------------------------------------------- integer vectors
#
# The int8 kernels' instructions. Lanes are unpacked with struct formats
# (b/B: signed/unsigned byte, h/H: word, i/I: dword); Go writes the
# operands in reverse of Intel's order: OP src2, src1, dst.

def ilanes(b, f):
    return list(st(len(b) // struct.calcsize(f), f).unpack(b))


def ipack(vals, f):
    bits = 8 * struct.calcsize(f)
    m = (1 << bits) - 1
    return st(len(vals), f.upper()).pack(*[v & m for v in vals])


def sat16(v):
    return max(-32768, min(32767, v))


def binop(f, fn):
    def h(cpu, ins, ops):  # under an opmask (if INTVEC_MASKED allows one) per element of f
        s2, s1, d = ops
        w = vwidth(d)
        A = ilanes(vget(cpu, s1, w), f)  # Intel src1
        if ins.mask is not None and s2[0] != 'vec':
            raise ValueError('masked memory source not modelled: ' + ins.text)
        B = ilanes(vget(cpu, s2, w), f)  # Intel src2 (register or memory)
        vset(cpu, d, ipack([fn(a, bb) for a, bb in zip(A, B)], f), ins.mask, 'Z' in ins.sfx, struct.calcsize(f))
    return h


def op_pmaddubsw(cpu, ins, ops):
    s2, s1, d = ops
    w = vwidth(d)
    U = ilanes(vget(cpu, s1, w), 'B')
    S = ilanes(vget(cpu, s2, w), 'b')
    vset(cpu, d, ipack([sat16(U[j] * S[j] + U[j + 1] * S[j + 1]) for j in range(0, w, 2)], 'h'))


def op_pmaddwd(cpu, ins, ops):
    s2, s1, d = ops
    w = vwidth(d)
    A = ilanes(vget(cpu, s1, w), 'h')
    B = ilanes(vget(cpu, s2, w), 'h')
    vset(cpu, d, ipack([A[j] * B[j] + A[j + 1] * B[j + 1] for j in range(0, w // 2, 2)], 'i'))


def op_vpdpbusd(cpu, ins, ops):
    s2, s1, d = ops
    w = vwidth(d)
    U = ilanes(vget(cpu, s1, w), 'B')
    S = ilanes(vget(cpu, s2, w), 'b')
    acc = ilanes(bytes(cpu.v[d[2]][:w]), 'i')
    vset(cpu, d, ipack([acc[i] + sum(U[4 * i + j] * S[4 * i + j] for j in range(4)) for i in range(w // 4)], 'i'))


def shift_imm(f, left):
    def h(cpu, ins, ops):
        imm, src, d = ops
        w = vwidth(d)
        bits = 8 * struct.calcsize(f)
        n = imm[1]
        L = ilanes(vget(cpu, src, w), f.upper())
        if n >= bits:
            R = [0] * len(L)
        else:
            R = [(v << n) if left else (v >> n) for v in L]
        vset(cpu, d, ipack(R, f))
    return h


def op_psra_imm(f):
    def h(cpu, ins, ops):  # VPSRAD/VPSRAQ $n: arithmetic shift, counts ≥ the width fill with the sign
        imm, src, d = ops
        w = vwidth(d)
        bits = 8 * struct.calcsize(f)
        n = min(imm[1], bits - 1)
        vset(cpu, d, ipack([v >> n for v in ilanes(vget(cpu, src, w), f)], f))
    return h


def op_inserti128(cpu, ins, ops):
    imm, s3, s2, d = ops  # Intel VINSERTI128 dst, src2, src3/m128, imm: src2 with 128-bit lane imm&1 from src3
    if vwidth(d) != 32:
        raise ValueError('unmodelled form: ' + ins.text)
    lo = imm[1] & 1
    out = bytearray(vget(cpu, s2, 32))
    out[16 * lo:16 * lo + 16] = vget(cpu, s3, 16)
    vset(cpu, d, bytes(out))


def op_cvtdq2pd(cpu, ins, ops):
    # int32 elements to float64 lanes (exact); under an opmask the source
    # elements of masked-off lanes are not read (a memory source's faults suppressed)
    src, d = ops
    w = vwidth(d)
    n = w // 8
    m = cpu.k[ins.mask] if ins.mask is not None else (1 << n) - 1
    if src[0] in ('mem', 'sym'):
        a = addr(cpu, src)
        vals = [int.from_bytes(cpu.load(a + 4 * i, 4), 'little', signed=True) if m >> i & 1 else 0 for i in range(n)]
    else:
        vals = ilanes(bytes(cpu.v[src[2]][:4 * n]), 'i')
    vset(cpu, d, pack([float(v) for v in vals], 'd'), ins.mask, 'Z' in ins.sfx, 8)


def op_cvtpd2ps(cpu, ins, ops):
    # float64 lanes to float32, rounded to nearest even (overflow to ±Inf);
    # a NaN keeps its sign and the top 22 bits of its payload, made quiet
    src, d = ops
    if src[0] != 'vec' or ins.mask is not None:
        raise ValueError('unmodelled form: ' + ins.text)
    w = vwidth(src)
    out = b''
    for v in lanes(bytes(cpu.v[src[2]][:w]), 'd'):
        if math.isnan(v):
            bits = int.from_bytes(struct.pack('<d', v), 'little')
            out += ((bits >> 63) << 31 | 0x7fc00000 | (bits >> 29 & 0x3fffff)).to_bytes(4, 'little')
        else:
            out += struct.pack('<f', f32(v))
    vset(cpu, ('vec', w // 2, d[2]), out)


def op_pcmpeq(f):
    def h(cpu, ins, ops):  # VEX VPCMPEQD: all ones where equal (the EVEX form writes an opmask: not modelled)
        s2, s1, d = ops
        if d[0] != 'vec' or vwidth(d) > 32:
            raise ValueError('unmodelled form: ' + ins.text)
        w = vwidth(d)
        A, B = ilanes(vget(cpu, s1, w), f), ilanes(vget(cpu, s2, w), f)
        vset(cpu, d, ipack([-1 if a == b else 0 for a, b in zip(A, B)], f))
    return h


def op_movmskps(cpu, ins, ops):
    src, d = ops  # the sign bit of each dword lane, zero-extended into the GPR
    if src[0] != 'vec' or d[0] != 'reg':
        raise ValueError('unmodelled form: ' + ins.text)
    L = ilanes(bytes(cpu.v[src[2]][:vwidth(src)]), 'I')
    cpu.r[d[1]] = sum((v >> 31) << i for i, v in enumerate(L))


def op_phaddd(cpu, ins, ops):
    s2, s1, d = ops  # per 128-bit lane: [s1 pairs, s2 pairs]
    w = vwidth(d)
    A = ilanes(vget(cpu, s1, w), 'i')
    B = ilanes(vget(cpu, s2, w), 'i')
    R = []
    for l in range(w // 16):
        a, bb = A[4 * l:4 * l + 4], B[4 * l:4 * l + 4]
        R += [a[0] + a[1], a[2] + a[3], bb[0] + bb[1], bb[2] + bb[3]]
    vset(cpu, d, ipack(R, 'i'))


def op_pshufd(cpu, ins, ops):
    imm, src, d = ops
    w = vwidth(d)
    L = ilanes(vget(cpu, src, w), 'I')
    n = imm[1]
    vset(cpu, d, ipack([L[4 * (i // 4) + (n >> (2 * (i % 4)) & 3)] for i in range(len(L))], 'i'))


def op_pbroadcast(n):
    def h(cpu, ins, ops):  # VPBROADCASTD/Q from memory, an XMM, or (AVX-512F) the low bytes of a GPR
        src, d = ops
        w = vwidth(d)
        if src[0] in ('mem', 'sym'):
            e = cpu.load(addr(cpu, src), n)
        elif src[0] == 'reg':
            e = (cpu.r[src[1]] & ((1 << (8 * n)) - 1)).to_bytes(n, 'little')
        else:
            e = bytes(cpu.v[src[2]][:n])
        vset(cpu, d, e * (w // n))
    return h


def op_movdq(n):
    def h(cpu, ins, ops):  # VMOVD/VMOVQ between an XMM register and memory or a GPR
        src, d = ops
        if src[0] == 'vec' and d[0] in ('mem', 'sym'):
            cpu.store(addr(cpu, d), bytes(cpu.v[src[2]][:n]))
        elif src[0] in ('mem', 'sym') and d[0] == 'vec':
            vset(cpu, ('vec', 16, d[2]), cpu.load(addr(cpu, src), n) + bytes(16 - n))
        elif src[0] == 'vec' and d[0] == 'reg':  # zero-extended into the 64-bit register
            cpu.r[d[1]] = int.from_bytes(cpu.v[src[2]][:n], 'little')
        elif src[0] == 'reg' and d[0] == 'vec':
            vset(cpu, ('vec', 16, d[2]), (cpu.r[src[1]] & ((1 << (8 * n)) - 1)).to_bytes(n, 'little') + bytes(16 - n))
        else:
            raise ValueError('unmodelled form: ' + ins.text)
    return h


def op_cvttps2dq(cpu, ins, ops):
    # float32 lanes to int32, truncated toward zero; NaN and values outside
    # the int32 range give the integer indefinite 0x80000000
    src, d = ops
    w = vwidth(d)
    R = []
    for v in lanes(vget(cpu, src, w), 'f'):
        if math.isnan(v) or math.isinf(v) or not -2147483648 <= math.trunc(v) <= 2147483647:
            R.append(-2147483648)
        else:
            R.append(math.trunc(v))
    vset(cpu, d, ipack(R, 'i'))


def op_pack(sf, df, lo, hi):
    def h(cpu, ins, ops):  # VPACKSSDW/VPACKUSWB: per 128-bit lane, src1's then src2's elements, saturated
        s2, s1, d = ops
        w = vwidth(d)
        A = ilanes(vget(cpu, s1, w), sf)
        B = ilanes(vget(cpu, s2, w), sf)
        k = 16 // struct.calcsize(sf)
        R = []
        for l in range(w // 16):
            R += [max(lo, min(hi, v)) for v in A[k * l:k * l + k] + B[k * l:k * l + k]]
        vset(cpu, d, ipack(R, df))
    return h


def op_permd(cpu, ins, ops):
    s2, s1, d = ops  # Intel VPERMD dst, idx (src1), table (src2): dst[i] = table[idx[i] mod lanes]
    w = vwidth(d)
    if w < 32:
        raise ValueError('VPERMD has no 128-bit form: ' + ins.text)
    idx = ilanes(vget(cpu, s1, w), 'I')
    T = ilanes(vget(cpu, s2, w), 'I')
    vset(cpu, d, ipack([T[i & (len(T) - 1)] for i in idx], 'I'))


def op_pmovdb(cpu, ins, ops):
    # VPMOVDB: each dword truncated to its low byte, to memory (under an
    # opmask only the selected bytes are written, the others not accessed)
    # or to an XMM register (bits above cleared)
    src, d = ops
    if src[0] != 'vec':
        raise ValueError('unmodelled form: ' + ins.text)
    w = vwidth(src)
    b = bytes(ilanes(vget(cpu, src, w), 'I')[i] & 0xff for i in range(w // 4))
    if d[0] in ('mem', 'sym'):
        if 'Z' in ins.sfx:
            raise ValueError('zeroing into memory: ' + ins.text)
        a = addr(cpu, d)
        if ins.mask is None:
            cpu.store(a, b)
        else:
            m = cpu.k[ins.mask]
            for i in range(len(b)):
                if m >> i & 1:
                    cpu.store(a + i, b[i:i + 1])
    elif d[0] == 'vec':
        vset(cpu, ('vec', len(b), d[2]), b, ins.mask, 'Z' in ins.sfx, 1)
    else:
        raise ValueError('unmodelled form: ' + ins.text)


def op_pmovx(sf, df):
    def h(cpu, ins, ops):  # VPMOVSXBW/VPMOVZXBW: w/2 bytes of memory or an XMM, extended
        src, d = ops
        w = vwidth(d)
        n = w // struct.calcsize(df)
        sz = n * struct.calcsize(sf)
        b = cpu.load(addr(cpu, src), sz) if src[0] in ('mem', 'sym') else bytes(cpu.v[src[2]][:sz])
        vset(cpu, d, ipack(ilanes(b, sf), df))
    return h


def op_unpck(f, high):
    def h(cpu, ins, ops):  # VPUNPCKL/H(DQ|QDQ): per 128-bit lane, src1's and src2's low (high) halves interleaved
        s2, s1, d = ops
        w = vwidth(d)
        A = ilanes(vget(cpu, s1, w), f)
        B = ilanes(vget(cpu, s2, w), f)
        k = 16 // struct.calcsize(f)  # elements per 128-bit lane
        R = []
        for l in range(w // 16):
            o = k * l + (k // 2 if high else 0)
            for j in range(k // 2):
                R += [A[o + j], B[o + j]]
        vset(cpu, d, ipack(R, f))
    return h


def op_shufi32x4(cpu, ins, ops):
    # VSHUFI32X4 $imm, src2, src1, dst: the 128-bit lanes of dst, the low
    # half's from src1 and the high half's from src2, each chosen by imm
    imm, s2, s1, d = ops
    w = vwidth(d)
    if w not in (32, 64):
        raise ValueError('unmodelled form: ' + ins.text)
    A, B = vget(cpu, s1, w), vget(cpu, s2, w)
    n, bits = w // 16, (2 if w == 64 else 1)
    out = b''
    for i in range(n):
        sel = imm[1] >> (bits * i) & ((1 << bits) - 1)
        src = A if i < n // 2 else B
        out += src[16 * sel:16 * sel + 16]
    vset(cpu, d, out)


def op_permilps(cpu, ins, ops):
    if ops[0][0] != 'imm':
        raise ValueError('VPERMILPS by a vector: not modelled: ' + ins.text)
    op_pshufd(cpu, ins, ops)  # the immediate form moves the same dwords as VPSHUFD


CMP_PREDICATES = {0: lambda a, b: a == b,   # EQ_OQ: false on NaN; -0 = +0
                  1: lambda a, b: a < b,    # LT_OS
                  2: lambda a, b: a <= b}   # LE_OS


def op_cmpps(cpu, ins, ops):
    # VCMPPS $pred, src2, src1, [mask,] kdst: bit i of kdst = pred(src1[i],
    # src2[i]) for the lanes the opmask (if any) selects, the bits above 0;
    # the VEX form's destination is a vector (XMM, YMM): all ones in the
    # lanes where pred holds, zeros elsewhere (the bits above an XMM zeroed)
    imm, s2, s1, d = ops
    if d[0] not in ('k', 'vec') or imm[1] not in CMP_PREDICATES or d[0] == 'vec' and (ins.mask is not None or vwidth(d) > 32):
        raise ValueError('unmodelled form: ' + ins.text)
    w = vwidth(s1)
    A = lanes(vget(cpu, s1, w), 'f')
    B = lanes(vget(cpu, s2, w), 'f')
    if d[0] == 'vec':
        p = CMP_PREDICATES[imm[1]]
        vset(cpu, d, ipack([-1 if p(a, b) else 0 for a, b in zip(A, B)], 'i'))
        return
    m = cpu.k[ins.mask] if ins.mask is not None else (1 << len(A)) - 1
    p = CMP_PREDICATES[imm[1]]
    cpu.k[d[1]] = sum(1 << i for i in range(len(A)) if m >> i & 1 and p(A[i], B[i]))


INTVEC = {
    'VPMOVSXBW': op_pmovx('b', 'h'), 'VPMOVZXBW': op_pmovx('B', 'h'),
    'VPADDB': binop('b', lambda a, b: a + b), 'VPADDW': binop('h', lambda a, b: a + b),
    'VPADDD': binop('i', lambda a, b: a + b), 'VPSUBB': binop('b', lambda a, b: a - b),
    'VPSUBW': binop('h', lambda a, b: a - b), 'VPSUBD': binop('i', lambda a, b: a - b),
    'VPMADDUBSW': op_pmaddubsw, 'VPMADDWD': op_pmaddwd, 'VPDPBUSD': op_vpdpbusd,
    'VPSRLW': shift_imm('h', False), 'VPSLLD': shift_imm('i', True),
    'VPHADDD': op_phaddd, 'VPSHUFD': op_pshufd, 'VPBROADCASTD': op_pbroadcast(4),
    'VMOVD': op_movdq(4), 'VMOVQ': op_movdq(8),
    'VPMAXUD': binop('I', max), 'VPMAXSD': binop('i', max),
    'VCVTTPS2DQ': op_cvttps2dq, 'VPACKSSDW': op_pack('i', 'h', -32768, 32767),
    'VPACKUSWB': op_pack('h', 'B', 0, 255), 'VPERMD': op_permd, 'VPMOVDB': op_pmovdb,
    'VPBROADCASTQ': op_pbroadcast(8), 'VPMAXUQ': binop('Q', max), 'VPSUBQ': binop('q', lambda a, b: a - b),
    'VPSRAD': op_psra_imm('i'), 'VPSLLQ': shift_imm('q', True), 'VPMOVZXDQ': op_pmovx('I', 'q'),
    'VINSERTI128': op_inserti128, 'VCVTDQ2PD': op_cvtdq2pd, 'VCVTPD2PS': op_cvtpd2ps,
    'VPCMPEQD': op_pcmpeq('i'), 'VMOVMSKPS': op_movmskps,
    'VPMULLD': binop('i', lambda a, b: a * b),  # the low 32 bits of each product (ipack wraps)
    'VPUNPCKLDQ': op_unpck('i', False), 'VPUNPCKHDQ': op_unpck('i', True),
    'VPUNPCKLQDQ': op_unpck('q', False), 'VPUNPCKHQDQ': op_unpck('q', True),
    'VSHUFI32X4': op_shufi32x4, 'VPERMILPS': op_permilps, 'VCMPPS': op_cmpps,
    'VCVTPD2PSX': op_cvtpd2ps,  # Go's name of the form with an XMM (or m128) source
    'VCVTPD2PSY': op_cvtpd2ps,  # and with a YMM source (to an XMM)
}
INTVEC_MASKED = {'VPMOVDB', 'VPMAXUQ', 'VCVTDQ2PD', 'VCMPPS'}  # the handlers that apply ins.mask themselves
