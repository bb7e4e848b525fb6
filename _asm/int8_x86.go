package main

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The int8 kernels for amd64 (kernel/int8_amd64.s): dotsU8I8<V>,
// dotsI8<V> and matvecU8I8<V> (see int8.go) for the AVX2, AVX-VNNI and AVX512_VNNI variants.
// All three share one structure: the rows of w are taken in blocks of 4,
// then 2, then 1; a block reads each vector of x once, prepares it, and
// multiplies it into every row of the block; each row's lanes are summed at
// the end of the block.
//
// The products, per vector of W bytes (j a byte lane, acc an int32 lane):
//
//   - VNNI, unsigned x: VPDPBUSD adds x[4i..4i+3]·w[4i..4i+3] (u8·i8) to
//     acc[i], wrapping modulo 2³² like the plain loop, never saturating.
//   - VNNI, signed x: VPDPBUSD needs one unsigned operand, so each w is
//     taken as w+128 = w XOR 0x80 (unsigned) and acc = Σ (w+128)·x =
//     Σ w·x + 128·Σ x; Σ x is one more VPDPBUSD of x with bytes of 1, shared
//     by the rows of the block, and 128·Σx is subtracted from each row's sum.
//   - AVX2 (no VNNI), unsigned x: VPMADDUBSW multiplies u8 by i8 and adds
//     adjacent pairs into int16 with signed saturation, and a pair of full
//     bytes saturates (2·255·127 > 32 767). So x is split into its 4-bit
//     halves, x = 16·h + l with l, h in 0..15, and each half is multiplied
//     by w: a pair is then at most 2·15·128 = 3 840 in magnitude, no
//     saturation, and eight of them add up in an int16 lane without
//     overflow (30 720). Every eight vectors the two int16 sums are widened
//     and combined in int32 by VPMADDWD with 1 and 16 ("flush"): two
//     multiplies per 32 bytes and row, against the four FMAs of float32.
//   - AVX2 (no VNNI), signed x: both operands are sign-extended to int16
//     (VPMOVSXBW) and VPMADDWD multiplies and adds adjacent pairs into
//     int32, exactly (|pair| ≤ 2·128·128). (The 4-bit split needs an
//     unsigned operand: for signed x it costs an XOR of every w and a
//     shared correction, and measured slower.) MatVecU8I8, whose unsigned
//     operand is the rows, the same with the rows zero-extended.
//   - MatVecU8I8 on VNNI: VPDPBUSD with the row (unsigned) in a register
//     and the shared vector w as the signed operand.
//
// Tails: AVX512_VNNI loads the last len mod 64 bytes of x and of each row
// under the opmask K1 (AVX512BW byte masking: the lanes past the end are
// zero and never read). AVX2 and AVX-VNNI (YMM, no byte masks) take the last
// 32 bytes of x and of each row, which overlap bytes already summed, and
// clear those lanes of x with a mask from i8tail: a zero x lane contributes
// nothing whatever w holds (for signed x through the nibble path, the
// cleared lane gives l = 0 and hs = 0). Inputs shorter than 32 bytes take a
// scalar loop. Nothing outside the slices is read or written.
//
// AVX-VNNI is VPDPBUSD with a VEX prefix, which neither avo nor the Go
// assembler knows (Go's VPDPBUSD is the EVEX one, an AVX-512 instruction):
// the generator encodes it itself, as BYTEs with the GNU mnemonic in a
// comment, and internal/asmcheck re-assembles every one with the GNU
// assembler (kernel's wordenc_test.go). The EVEX VPDPBUSD of AVX512_VNNI,
// which avo lacks but the Go assembler has, is emitted as a raw instruction.
// The generator checks both against the variant's CPU features itself,
// since avo's instruction tables do not list them.

// int8X86File returns kernel/int8_amd64.s.
func int8X86File() ([]byte, error) {
	f := newAsmFile(
		"int8 kernels of package kernel for amd64: the \"avx2\", \"avxvnni\" and",
		"\"avx512vnni\" int8 implementations. The Go declarations, with the plain Go",
		"loop each computes, are in int8_amd64.go; the generator's int8_x86.go holds",
		"their definition and explains the arithmetic.",
		"",
		"The AVX-VNNI instruction VPDPBUSD (VEX) is encoded as BYTEs, its GNU",
		"mnemonic in the comment; wordenc_test.go re-assembles each one.",
	)
	i8ConstData(f)
	extra := map[string][]string{} // function → ISA extensions of raw instructions
	for _, v := range []*i8Variant{i8AVX2, i8AVXVNNI, i8AVX512VNNI} {
		for _, k := range i8Kinds {
			if err := i8Uncovered(v, i8Dots(f, v, k, extra), extra); err != nil {
				return nil, err
			}
		}
	}
	out, err := f.render()
	if err != nil {
		return nil, err
	}
	return encodeVEX(out)
}

// The constants: i8c holds 32-byte vectors (0x0F bytes; int16 1 and 16)
// and dwords of 0x80 and of 0x01 bytes for broadcasting; i8tail is 32 zero
// bytes then 32 bytes of 0xFF: the 32 bytes at i8tail+r keep the last r
// bytes of a vector.
var (
	i8c    = operand.NewDataAddr(operand.NewStaticSymbol("i8c"), 0)
	i8tail = operand.NewDataAddr(operand.NewStaticSymbol("i8tail"), 0)
)

const (
	i8c0F   = 0   // 32 × 0x0F
	i8cW1   = 32  // 16 × int16 1
	i8cW16  = 64  // 16 × int16 16
	i8c80   = 96  // 4 × 0x80, broadcast
	i8cOnes = 100 // 4 × 0x01, broadcast
)

func i8ConstData(f *asmFile) {
	f.ctx.StaticGlobal("i8c")
	f.ctx.DataAttributes(rodataNoptr)
	for i, b := range []uint64{0x0f0f0f0f0f0f0f0f, 0x0001000100010001, 0x0010001000100010} {
		for q := 0; q < 4; q++ {
			f.ctx.AddDatum(32*i+8*q, operand.U64(b))
		}
	}
	f.ctx.AddDatum(i8c80, operand.U32(0x80808080))
	f.ctx.AddDatum(i8cOnes, operand.U32(0x01010101))
	f.ctx.StaticGlobal("i8tail")
	f.ctx.DataAttributes(rodataNoptr)
	for i := 0; i < 8; i++ {
		v := uint64(0)
		if i >= 4 {
			v = ^uint64(0)
		}
		f.ctx.AddDatum(8*i, operand.U64(v))
	}
}

// i8x86 emits one int8 function.
type i8x86 struct {
	*x86
	v     *i8Variant
	k     i8Kind
	W     int
	name  string
	extra map[string][]string
}

// vpdpbusd emits VPDPBUSD src2, src1, dst (Go operand order: dst += the
// dword sums of src1 (unsigned bytes) times src2 (signed bytes)).
func (g *i8x86) vpdpbusd(src2 operand.Op, src1, dst reg.VecPhysical) {
	if g.v.vec == 64 {
		g.Instruction(&ir.Instruction{Opcode: "VPDPBUSD", Operands: []operand.Op{src2, src1, dst}})
		g.needISA("AVX512VNNI")
		return
	}
	if _, ok := src2.(reg.VecPhysical); !ok {
		panic("VEX VPDPBUSD: register operands only")
	}
	// A placeholder, replaced by its encoding in encodeVEX.
	g.Instruction(&ir.Instruction{Opcode: "VPDPBUSDVEX", Operands: []operand.Op{src2, src1, dst}})
	g.needISA("AVXVNNI")
}

func (g *i8x86) needISA(isa string) {
	for _, s := range g.extra[g.name] {
		if s == isa {
			return
		}
	}
	g.extra[g.name] = append(g.extra[g.name], isa)
}

// i8Uncovered returns an error if function name, emitted for int8 variant
// v, has a raw instruction (extra[name], from needISA) whose ISA extension
// v's availability check does not cover; else nil.
func i8Uncovered(v *i8Variant, name string, extra map[string][]string) error {
	for _, isa := range extra[name] {
		if !v.spec.covers(isa) {
			return fmt.Errorf("%s uses %s, which the availability check of int8 %s does not cover (%v)", name, isa, v.spec.name, v.spec.features)
		}
	}
	return nil
}

var vexRE = regexp.MustCompile(`(?m)^\tVPDPBUSDVEX\s+Y(\d+), Y(\d+), Y(\d+)$`)

// encodeVEX replaces each VPDPBUSDVEX placeholder by the bytes of
// {vex} VPDPBUSD: VEX.256.66.0F38.W0 50 /r, ModRM.reg the destination,
// VEX.vvvv the unsigned source, ModRM.rm the signed one.
func encodeVEX(src []byte) ([]byte, error) {
	var bad error
	out := vexRE.ReplaceAllFunc(src, func(m []byte) []byte {
		sub := vexRE.FindSubmatch(m)
		var r [3]int
		for i := range r {
			n, err := strconv.Atoi(string(sub[i+1]))
			if err != nil || n > 15 {
				bad = fmt.Errorf("VPDPBUSDVEX operand %s", sub[i+1])
			}
			r[i] = n
		}
		src2, src1, dst := r[0], r[1], r[2]
		enc := vexVPDPBUSD(dst, src1, src2)
		s := "\t"
		for i, b := range enc {
			if i > 0 {
				s += "; "
			}
			s += fmt.Sprintf("BYTE $0x%02x", b)
		}
		return []byte(fmt.Sprintf("%s // {vex} vpdpbusd %%ymm%d, %%ymm%d, %%ymm%d", s, src2, src1, dst))
	})
	if bad != nil {
		return nil, bad
	}
	if i := regexp.MustCompile(`VPDPBUSDVEX`).FindIndex(out); i != nil {
		return nil, fmt.Errorf("a VPDPBUSDVEX placeholder was not encoded")
	}
	return out, nil
}

// vexVPDPBUSD returns the encoding of {vex} vpdpbusd ymm(src2), ymm(src1),
// ymm(dst) (AT&T order), registers 0..15.
func vexVPDPBUSD(dst, src1, src2 int) []byte {
	b1 := byte(0x40 | 0x02) // X̄ = 1 (no index), map 0F38
	if dst < 8 {
		b1 |= 0x80 // R̄
	}
	if src2 < 8 {
		b1 |= 0x20 // B̄
	}
	b2 := byte((^src1&15)<<3 | 1<<2 | 0x01) // W0, v̄v̄v̄v̄, L = 256, pp = 66
	modrm := byte(0xc0 | (dst&7)<<3 | src2&7)
	return []byte{0xc4, b1, b2, 0x50, modrm}
}

// i8Dots emits dots<kind><variant> and returns its name.
func i8Dots(f *asmFile, v *i8Variant, k i8Kind, extra map[string][]string) string {
	vi := avx2
	if v.vec == 64 {
		vi = avx512
	}
	name := k.asmName(v)
	g := &i8x86{x86: f.fn(v.spec, f32, vi, name, k.sig()),
		v: v, k: k, W: v.vec, name: name, extra: extra}
	W := g.W
	g.Commentf("DX = &dst[k], BX = rows left, SI = row k of %s, DI = &%s[0], R8 = d = len(%s)", k.rows, k.vec, k.vec)
	g.MOVQ(g.param("dst", "base"), reg.RDX)
	g.MOVQ(g.param("dst", "len"), reg.RBX)
	g.MOVQ(g.param(k.rows, "base"), reg.RSI)
	g.MOVQ(g.param(k.vec, "base"), reg.RDI)
	g.MOVQ(g.param(k.vec, "len"), reg.R8)
	if v.vec == 64 {
		g.Comment("K1 = one bit per byte of the tail, d mod 64 (AVX512BW)")
		g.MOVQ(reg.R8, reg.RCX)
		g.ANDQ(imm(W-1), reg.RCX)
		g.tailMaskQ()
	} else {
		g.CMPQ(reg.R8, imm(W))
		g.JB(lbl("small"))
	}
	g.Commentf("R13 = d rounded down to %d bytes (the whole vectors)", W)
	g.MOVQ(reg.R8, reg.R13)
	g.ANDQ(imm(-W), reg.R13)
	if v.vnni && k.signed() {
		g.Comment("the signed form: Y14/Z14 = bytes of 0x80 (w XOR 0x80 = w+128, unsigned),",
			"Y15/Z15 = bytes of 1 (for Σx)")
		g.VPBROADCASTD(i8c.Offset(i8c80), g.V(14))
		g.VPBROADCASTD(i8c.Offset(i8cOnes), g.V(15))
	}

	if v.vec == 64 && k == kindU8I8 {
		g.Label("rows10")
		g.CMPQ(reg.RBX, imm(10))
		g.JB(lbl("rows4"))
		g.vnni10Block(true)
		g.ADDQ(imm(40), reg.RDX)
		g.LEAQ(memx(reg.RSI, 0, reg.R8, 8), reg.RSI)
		g.LEAQ(memx(reg.RSI, 0, reg.R8, 2), reg.RSI)
		g.SUBQ(imm(10), reg.RBX)
		g.JMP(lbl("rows10"))
	}

	g.Label("rows4")
	g.CMPQ(reg.RBX, imm(4))
	g.JB(lbl("rows2"))
	g.i8Block(4)
	g.ADDQ(imm(16), reg.RDX)
	g.LEAQ(mem(reg.R11, 0, reg.R8), reg.RSI)
	g.SUBQ(imm(4), reg.RBX)
	g.JMP(lbl("rows4"))

	g.Label("rows2")
	g.CMPQ(reg.RBX, imm(2))
	g.JB(lbl("rows1"))
	g.i8Block(2)
	g.ADDQ(imm(8), reg.RDX)
	g.LEAQ(mem(reg.R9, 0, reg.R8), reg.RSI)
	g.SUBQ(imm(2), reg.RBX)

	g.Label("rows1")
	g.TESTQ(reg.RBX, reg.RBX)
	g.JZ(lbl("done"))
	g.i8Block(1)

	g.Label("done")
	g.VZEROUPPER()
	g.RET()

	if v.vec != 64 {
		g.Label("small")
		g.Commentf("d < %d: each row by a scalar loop; R9 = the sum, AX = j", W)
		g.TESTQ(reg.RBX, reg.RBX)
		g.JZ(lbl("smalldone"))
		g.Label("smallrow")
		g.XORL(reg.R9L, reg.R9L)
		g.XORL(reg.EAX, reg.EAX)
		g.TESTQ(reg.R8, reg.R8)
		g.JZ(lbl("smallstore"))
		g.Label("smallcol")
		if k.vecType == "int8" {
			g.MOVBQSX(mem(reg.RDI, 0, reg.RAX), reg.R10)
		} else {
			g.MOVBQZX(mem(reg.RDI, 0, reg.RAX), reg.R10)
		}
		if k.rowsType == "int8" {
			g.MOVBQSX(mem(reg.RSI, 0, reg.RAX), reg.R11)
		} else {
			g.MOVBQZX(mem(reg.RSI, 0, reg.RAX), reg.R11)
		}
		g.IMULL(reg.R11L, reg.R10L)
		g.ADDL(reg.R10L, reg.R9L)
		g.INCQ(reg.RAX)
		g.CMPQ(reg.RAX, reg.R8)
		g.JB(lbl("smallcol"))
		g.Label("smallstore")
		g.MOVL(reg.R9L, mem(reg.RDX, 0))
		g.ADDQ(imm(4), reg.RDX)
		g.ADDQ(reg.R8, reg.RSI)
		g.DECQ(reg.RBX)
		g.JNZ(lbl("smallrow"))
		g.Label("smalldone")
		g.RET()
	}
	return name
}

// i8Block emits the code for a block of R rows (SI, R9, R10, R11) and
// stores their R sums at DX. Labels are prefixed with "b<R>".
func (g *i8x86) i8Block(R int) {
	switch {
	case g.v.vnni:
		g.vnniBlock(R)
	case g.k.signed() || g.k.swap():
		g.widenBlock(R)
	default:
		g.nibbleBlock(R)
	}
}

// widenBlock: the AVX2 variant for signed x (and for MatVecU8I8, whose
// vector is the signed operand). The operands are extended to int16, the
// signed ones with VPMOVSXBW, unsigned rows with VPMOVZXBW, and VPMADDWD
// multiplies and adds adjacent pairs into int32 exactly (|pair| ≤
// 2·255·128, far from its one overflow, −32 768·−32 768 twice).
// acc(r) = Y(r); Y8, Y9 = x widened (low and high 16 bytes); Y10..
// temporaries.
func (g *i8x86) widenBlock(R int) {
	p := fmt.Sprintf("b%d", R)
	xl, xh := reg.Y8, reg.Y9
	g.Commentf("%d row(s) at a time: Y0.. = int32 sums, Y8, Y9 = the 32 bytes of x", R)
	g.Comment("sign-extended to int16, AX = byte offset")
	g.rowPointers(R)
	var zs []reg.VecPhysical
	for r := 0; r < R; r++ {
		zs = append(zs, yr[r], yr[4+r])
	}
	g.vzero(zs...)
	g.XORL(reg.EAX, reg.EAX)
	step := func(at func(r, half int) operand.Mem) {
		for r := 0; r < R; r++ {
			t0, t1 := yr[10+r%2*2], yr[11+r%2*2]
			if g.k.swap() {
				g.VPMOVZXBW(at(r, 0), t0)
				g.VPMOVZXBW(at(r, 1), t1)
			} else {
				g.VPMOVSXBW(at(r, 0), t0)
				g.VPMOVSXBW(at(r, 1), t1)
			}
			g.VPMADDWD(xl, t0, t0)
			g.VPMADDWD(xh, t1, t1)
			g.VPADDD(t0, yr[r], yr[r])
			g.VPADDD(t1, yr[4+r], yr[4+r])
		}
	}
	g.CMPQ(reg.RAX, reg.R13)
	g.JAE(lbl(p + "tail"))
	g.pcalign(32)
	g.Label(p + "loop")
	g.VPMOVSXBW(mem(reg.RDI, 0, reg.RAX), xl)
	g.VPMOVSXBW(mem(reg.RDI, 16, reg.RAX), xh)
	step(func(r, half int) operand.Mem { return mem(rowRegs[r], 16*half, reg.RAX) })
	g.ADDQ(imm(32), reg.RAX)
	g.CMPQ(reg.RAX, reg.R13)
	g.JB(lbl(p + "loop"))

	g.Label(p + "tail")
	g.Comment("the last 32 bytes of x, with the lanes already summed cleared,",
		"against the last 32 bytes of each row")
	g.TESTQ(imm32(31), reg.R8)
	g.JZ(lbl(p + "sum"))
	g.tailSetup()
	g.VMOVDQU(mem(reg.RDI, -32, reg.R8), xh)
	g.VPAND(mem(reg.RAX, 0, reg.RCX), xh, xh)
	g.VPMOVSXBW(reg.X9, xl)
	g.VEXTRACTI128(operand.Imm(1), xh, reg.X9)
	g.VPMOVSXBW(reg.X9, xh)
	step(func(r, half int) operand.Mem { return mem(rowRegs[r], -32+16*half, reg.R8) })

	g.Label(p + "sum")
	for r := 0; r < R; r++ {
		g.VPADDD(yr[4+r], yr[r], yr[r])
	}
	g.reduceRows(R, nil)
}

// rowRegs are the row pointers of a block.
var rowRegs = []reg.Register{reg.RSI, reg.R9, reg.R10, reg.R11}

func (g *i8x86) rowPointers(R int) {
	for r := 1; r < R; r++ {
		g.LEAQ(mem(rowRegs[r-1], 0, reg.R8), rowRegs[r])
	}
}

func (g *i8x86) vzero(rs ...reg.VecPhysical) {
	for _, r := range rs {
		y := yr[r.PhysicalIndex()]
		g.VPXOR(y, y, y)
	}
}

// tailSetup sets AX to the address of i8tail and CX to d mod 32 for the
// overlapping tail of the YMM variants.
func (g *i8x86) tailSetup() {
	g.MOVQ(reg.R8, reg.RCX)
	g.ANDQ(imm(31), reg.RCX)
	g.LEAQ(i8tail, reg.RAX)
}

// vnniBlock: acc(r, u) = V(u·R + r) for the R rows and U vectors per
// iteration; X(u) = V8+u the x vectors; S(u) the Σx sums (signed x);
// V12, V13 temporaries; V14 = 0x80 bytes, V15 = 1 bytes (signed x).
func (g *i8x86) vnniBlock(R int) {
	U := 2
	if R == 1 {
		U = 4
	}
	W := g.W
	p := fmt.Sprintf("b%d", R)
	signed := g.k.signed()
	acc := func(r, u int) reg.VecPhysical { return g.V(u*R + r) }
	X := func(u int) reg.VecPhysical { return g.V(8 + u) }
	S := func(u int) reg.VecPhysical {
		if R*U+U <= 8 {
			return g.V(R*U + u)
		}
		return g.V(8 + U + u)
	}
	T := []reg.VecPhysical{g.V(12), g.V(13)}
	vn := "Y"
	if W == 64 {
		vn = "Z"
	}
	g.Commentf("%d row(s) at a time, %d vectors (%d bytes) per iteration: %s0..%s%d = the",
		R, U, U*W, vn, vn, R*U-1)
	if signed {
		g.Commentf("rows' partial sums of (w XOR 0x80)·x, %s%d.. = Σx, %s8.. = x vectors,", vn, S(0).PhysicalIndex(), vn)
	} else {
		g.Commentf("rows' partial sums, %s8.. = x vectors,", vn)
	}
	g.Commentf("AX = byte offset, R12 = d rounded down to %d bytes", U*W)
	g.rowPointers(R)
	var zs []reg.VecPhysical
	for r := 0; r < R; r++ {
		for u := 0; u < U; u++ {
			zs = append(zs, acc(r, u))
		}
	}
	if signed {
		for u := 0; u < U; u++ {
			zs = append(zs, S(u))
		}
	}
	g.vzero(zs...)
	g.MOVQ(reg.R8, reg.R12)
	g.ANDQ(imm(-U*W), reg.R12)
	g.XORL(reg.EAX, reg.EAX)

	// prepare loads the x vector at src into X(u) (and adds it to Σx).
	prepare := func(u int, src operand.Op) {
		g.movdqu(src, X(u))
	}
	sumX := func(u int) {
		if signed {
			g.vpdpbusd(X(u), g.V(15), S(u))
		}
	}
	// step multiplies X(u) into the rows at offset disp(row)(idx), into
	// acc(r, a); ld loads a row vector into a register (masked tail).
	step := func(u, a int, at func(r int) operand.Mem, ld func(src operand.Op, dst reg.VecPhysical)) {
		for r := 0; r < R; r++ {
			t := T[r%2]
			switch {
			case g.k.swap():
				// the row is the unsigned operand: in a register
				if ld != nil {
					ld(at(r), t)
				} else {
					g.movdqu(at(r), t)
				}
				g.vpdpbusd(X(u), t, acc(r, a))
			case signed:
				if ld != nil {
					ld(at(r), t)
					g.xorC80(t, t)
				} else {
					g.xorC80(at(r), t)
				}
				g.vpdpbusd(X(u), t, acc(r, a))
			case ld != nil || g.W == 32:
				if ld != nil {
					ld(at(r), t)
				} else {
					g.movdqu(at(r), t)
				}
				g.vpdpbusd(t, X(u), acc(r, a))
			default:
				g.vpdpbusd(at(r), X(u), acc(r, a))
			}
		}
	}
	g.CMPQ(reg.RAX, reg.R12)
	g.JAE(lbl(p + "one"))
	g.pcalign(32)
	g.Label(p + "loop")
	for u := 0; u < U; u++ {
		prepare(u, mem(reg.RDI, u*W, reg.RAX))
		sumX(u)
	}
	for u := 0; u < U; u++ {
		uu := u
		step(u, u, func(r int) operand.Mem { return mem(rowRegs[r], uu*W, reg.RAX) }, nil)
	}
	g.ADDQ(imm(U*W), reg.RAX)
	g.CMPQ(reg.RAX, reg.R12)
	g.JB(lbl(p + "loop"))

	g.Label(p + "one")
	g.Commentf("the remaining whole vectors one at a time (fewer than %d)", U)
	g.CMPQ(reg.RAX, reg.R13)
	g.JAE(lbl(p + "tail"))
	prepare(0, mem(reg.RDI, 0, reg.RAX))
	sumX(0)
	step(0, 0, func(r int) operand.Mem { return mem(rowRegs[r], 0, reg.RAX) }, nil)
	g.ADDQ(imm(W), reg.RAX)
	g.JMP(lbl(p + "one"))

	g.Label(p + "tail")
	g.TESTQ(imm32(W-1), reg.R8)
	g.JZ(lbl(p + "sum"))
	if W == 64 {
		g.Comment("the last d mod 64 bytes under K1 (zero beyond the end)")
		g.VMOVDQU8_Z(mem(reg.RDI, 0, reg.RAX), reg.K1, X(0))
		sumX(0)
		step(0, 1%U, func(r int) operand.Mem { return mem(rowRegs[r], 0, reg.RAX) },
			func(src operand.Op, dst reg.VecPhysical) { g.VMOVDQU8_Z(src, reg.K1, dst) })
	} else {
		g.Comment("the last 32 bytes of x, with the lanes already summed cleared,",
			"against the last 32 bytes of each row")
		g.tailSetup()
		g.VMOVDQU(mem(reg.RDI, -32, reg.R8), X(0))
		g.VPAND(mem(reg.RAX, 0, reg.RCX), X(0), X(0))
		sumX(0)
		step(0, 1%U, func(r int) operand.Mem { return mem(rowRegs[r], -32, reg.R8) }, nil)
	}

	g.Label(p + "sum")
	for r := 0; r < R; r++ {
		for u := 1; u < U; u++ {
			g.VPADDD(acc(r, u), acc(r, 0), acc(r, 0))
		}
	}
	var corr reg.VecPhysical
	if signed {
		for u := 1; u < U; u++ {
			g.VPADDD(S(u), S(0), S(0))
		}
		corr = S(0)
	}
	g.reduceRows(R, corr)
}

// movdqu is an unaligned vector move: VMOVDQU (YMM) or VMOVDQU64 (ZMM).
func (g *i8x86) movdqu(src, dst operand.Op) {
	if g.W == 64 {
		g.VMOVDQU64(src, dst)
		return
	}
	g.VMOVDQU(src, dst)
}

// xorC80 sets dst = src XOR bytes of 0x80 (V14).
func (g *i8x86) xorC80(src operand.Op, dst reg.VecPhysical) {
	if g.W == 64 {
		g.VPXORD(src, g.V(14), dst)
		return
	}
	g.VPXOR(src, g.V(14), dst)
}

// nibbleBlock: the AVX2 variant for unsigned x. acc(r) = Y(r) int32 sums,
// lo(r) = Y(4+r) and hi(r) = Y(8+r) the int16 sums of l·w and h·w;
// Y12 = l, Y13 = h, Y14 = the row vector, Y15 = temporary.
func (g *i8x86) nibbleBlock(R int) {
	p := fmt.Sprintf("b%d", R)
	acc := func(r int) reg.VecPhysical { return yr[r] }
	lo := func(r int) reg.VecPhysical { return yr[4+r] }
	hi := func(r int) reg.VecPhysical { return yr[8+r] }
	l, h, w, t := reg.Y12, reg.Y13, reg.Y14, reg.Y15
	g.Commentf("%d row(s) at a time, 8 vectors (256 bytes) per flush: Y0.. = int32 sums,", R)
	g.Comment("Y4.. = int16 sums of l·w, Y8.. = int16 sums of h·w, Y12 = l, Y13 = h;",
		"AX = byte offset, R12 = d rounded down to 256 bytes")
	g.rowPointers(R)
	var zs []reg.VecPhysical
	for r := 0; r < R; r++ {
		zs = append(zs, acc(r), lo(r), hi(r))
	}
	g.vzero(zs...)
	g.MOVQ(reg.R8, reg.R12)
	g.ANDQ(imm(-256), reg.R12)
	g.XORL(reg.EAX, reg.EAX)

	// prepare splits the x vector in Y13 into l and h.
	prepare := func() {
		g.VPAND(i8c.Offset(i8c0F), h, l)
		g.VPSRLW(operand.Imm(4), h, h)
		g.VPAND(i8c.Offset(i8c0F), h, h)
	}
	step := func(at func(r int) operand.Mem) {
		for r := 0; r < R; r++ {
			g.VMOVDQU(at(r), w)
			g.VPMADDUBSW(w, h, t)
			g.VPADDW(t, hi(r), hi(r))
			g.VPMADDUBSW(w, l, t)
			g.VPADDW(t, lo(r), lo(r))
		}
	}
	flush := func(clear bool) {
		for r := 0; r < R; r++ {
			g.VPMADDWD(i8c.Offset(i8cW1), lo(r), lo(r))
			g.VPMADDWD(i8c.Offset(i8cW16), hi(r), hi(r))
			g.VPADDD(lo(r), acc(r), acc(r))
			g.VPADDD(hi(r), acc(r), acc(r))
		}
		if clear {
			var zs []reg.VecPhysical
			for r := 0; r < R; r++ {
				zs = append(zs, lo(r), hi(r))
			}
			g.vzero(zs...)
		}
	}
	g.CMPQ(reg.RAX, reg.R12)
	g.JAE(lbl(p + "one"))
	g.pcalign(32)
	g.Label(p + "loop")
	g.Comment("8 vectors, then the int16 sums into the int32 ones")
	for s := 0; s < 8; s++ {
		ss := s
		g.VMOVDQU(mem(reg.RDI, 32*s, reg.RAX), h)
		prepare()
		step(func(r int) operand.Mem { return mem(rowRegs[r], 32*ss, reg.RAX) })
	}
	g.ADDQ(imm(256), reg.RAX)
	flush(true)
	g.CMPQ(reg.RAX, reg.R12)
	g.JB(lbl(p + "loop"))

	g.Label(p + "one")
	g.Comment("the remaining whole vectors one at a time (fewer than 8)")
	g.CMPQ(reg.RAX, reg.R13)
	g.JAE(lbl(p + "tail"))
	g.VMOVDQU(mem(reg.RDI, 0, reg.RAX), h)
	prepare()
	step(func(r int) operand.Mem { return mem(rowRegs[r], 0, reg.RAX) })
	g.ADDQ(imm(32), reg.RAX)
	g.JMP(lbl(p + "one"))

	g.Label(p + "tail")
	g.Comment("the last 32 bytes of x, with the lanes already summed cleared,",
		"against the last 32 bytes of each row (at most the eighth vector",
		"since the last flush)")
	g.TESTQ(imm32(31), reg.R8)
	g.JZ(lbl(p + "sum"))
	g.tailSetup()
	g.VMOVDQU(mem(reg.RDI, -32, reg.R8), h)
	g.VPAND(mem(reg.RAX, 0, reg.RCX), h, h)
	prepare()
	step(func(r int) operand.Mem { return mem(rowRegs[r], -32, reg.R8) })

	g.Label(p + "sum")
	flush(false)
	g.reduceRows(R, nil)
}

// reduceRows sums the int32 lanes of V0..V(R-1) and stores the R sums at
// DX, less 128 times the lane sum of corr if corr is not nil (signed x on
// VNNI).
func (g *i8x86) reduceRows(R int, corr reg.VecPhysical) {
	if g.W == 64 {
		g.Comment("fold each ZMM sum onto its low half (Y12, Y13: the high halves)")
		for r := 0; r < R; r++ {
			g.VEXTRACTI64X4(operand.Imm(1), zr[r], yr[12+r%2])
			g.VPADDD(yr[12+r%2], yr[r], yr[r])
		}
		if corr != nil {
			g.VEXTRACTI64X4(operand.Imm(1), corr, yr[12])
			g.VPADDD(yr[12], yr[corr.PhysicalIndex()], yr[corr.PhysicalIndex()])
		}
	}
	if corr != nil {
		c, t := xr[corr.PhysicalIndex()], reg.X12
		g.Comment("X" + strconv.Itoa(int(corr.PhysicalIndex())) + " = 128·Σx in every lane")
		g.VEXTRACTI128(operand.Imm(1), yr[corr.PhysicalIndex()], t)
		g.VPADDD(t, c, c)
		g.VPSHUFD(operand.Imm(0x4e), c, t)
		g.VPADDD(t, c, c)
		g.VPSHUFD(operand.Imm(0xb1), c, t)
		g.VPADDD(t, c, c)
		g.VPSLLD(operand.Imm(7), c, c)
	}
	switch R {
	case 4:
		g.Comment("X0 = the four row sums: pairwise adds within the 128-bit lanes, then",
			"the high lane onto the low")
		g.VPHADDD(reg.Y1, reg.Y0, reg.Y0)
		g.VPHADDD(reg.Y3, reg.Y2, reg.Y2)
		g.VPHADDD(reg.Y2, reg.Y0, reg.Y0)
		g.VEXTRACTI128(operand.Imm(1), reg.Y0, reg.X1)
		g.VPADDD(reg.X1, reg.X0, reg.X0)
		if corr != nil {
			g.VPSUBD(xr[corr.PhysicalIndex()], reg.X0, reg.X0)
		}
		g.VMOVDQU(reg.X0, mem(reg.RDX, 0))
	case 2:
		g.Comment("X0[0:2] = the two row sums")
		g.VPHADDD(reg.Y1, reg.Y0, reg.Y0)
		g.VEXTRACTI128(operand.Imm(1), reg.Y0, reg.X1)
		g.VPADDD(reg.X1, reg.X0, reg.X0)
		g.VPHADDD(reg.X0, reg.X0, reg.X0)
		if corr != nil {
			g.VPSUBD(xr[corr.PhysicalIndex()], reg.X0, reg.X0)
		}
		g.VMOVQ(reg.X0, mem(reg.RDX, 0))
	case 1:
		g.Comment("X0[0] = the row sum")
		g.VEXTRACTI128(operand.Imm(1), reg.Y0, reg.X1)
		g.VPADDD(reg.X1, reg.X0, reg.X0)
		g.VPSHUFD(operand.Imm(0x4e), reg.X0, reg.X1)
		g.VPADDD(reg.X1, reg.X0, reg.X0)
		g.VPSHUFD(operand.Imm(0xb1), reg.X0, reg.X1)
		g.VPADDD(reg.X1, reg.X0, reg.X0)
		if corr != nil {
			g.VPSUBD(xr[corr.PhysicalIndex()], reg.X0, reg.X0)
		}
		g.VMOVD(reg.X0, mem(reg.RDX, 0))
	}
}

// vnni10Block: the AVX512_VNNI block of 10 rows for unsigned x (DotsU8I8),
// the 10-class case: each vector of x is loaded once and multiplied into
// all 10 rows, whose bytes are VPDPBUSD's memory operand, two vectors per
// iteration so that each row has two independent sums (VPDPBUSD's latency
// would otherwise bound the loop). Z(r), Z(10+r) = row r's int32 sums,
// Z20, Z21 = the x vectors, Z22, Z23 = masked tail rows. The rows are
// addressed from three cursors with d·{1, 2, 4, 8} as the scaled index:
// CX = row 0 (rows 0, 1, 2, 4, 8), R9 = row 3, R10 = row 5 (rows 5, 6, 7,
// 9); R12 = the x cursor, R11 = its end. SI and DI are left as they were.
// With store, the 10 sums go to DX; else they are left in X0 (rows 0..3),
// X4 (rows 4..7) and X8's low two lanes (rows 8, 9).
func (g *i8x86) vnni10Block(store bool) {
	g.vnni10Loop(reg.R8, nil)
	g.vnni10Sum(store)
}

// vnni10Loop emits vnni10Block's loop: at its end Z(r), Z(10+r) hold row
// r's two sets of int32 sums. R8 is the rows' stride and d the register
// of len(x) (R8 too in DotsU8I8; the fused prediction's rows may be padded
// past len(x)); R13 = len(x) rounded down to 64 and K1 the tail's mask, as
// in vnni10Block. With flip (a register of 0x80 bytes), x's bytes are
// flipped after each load: signed bytes v read as the unsigned v + 128
// (the masked tail's zero lanes become 0x80, against the rows' zero ones).
func (g *i8x86) vnni10Loop(d reg.Register, flip reg.VecPhysical) {
	const p = "b10"
	acc := func(r, u int) reg.VecPhysical { return zr[r+10*u] }
	X := []reg.VecPhysical{reg.Z20, reg.Z21}
	T := []reg.VecPhysical{reg.Z22, reg.Z23}
	g.Comment("10 rows at a time, two vectors (128 bytes) per iteration: Z(r), Z(10+r) =",
		"row r's sums, Z20, Z21 = x; CX = row 0, R9 = row 3, R10 = row 5 (the others",
		"at d·{1, 2, 4, 8} from these), R12 = x cursor, R11 = end of x's 128-byte blocks")
	rows10Cursors(g.x86, d, 128)
	for r := 0; r < 20; r++ {
		g.VPXORD(zr[r], zr[r], zr[r])
	}
	at := rows10At
	advance := func(n int) {
		for _, c := range []reg.Register{reg.R12, reg.RCX, reg.R9, reg.R10} {
			g.ADDQ(imm(n), c)
		}
	}
	g.CMPQ(reg.R12, reg.R11)
	g.JAE(lbl(p + "one"))
	g.pcalign(32)
	g.Label(p + "loop")
	for u := 0; u < 2; u++ {
		g.VMOVDQU64(mem(reg.R12, 64*u), X[u])
		if flip != nil {
			g.VPXORD(flip, X[u], X[u])
		}
	}
	for u := 0; u < 2; u++ {
		for r := 0; r < 10; r++ {
			g.vpdpbusd(at(r, 64*u), X[u], acc(r, u))
		}
	}
	advance(128)
	g.CMPQ(reg.R12, reg.R11)
	g.JB(lbl(p + "loop"))

	g.Label(p + "one")
	g.Comment("one more whole vector if d mod 128 ≥ 64")
	g.LEAQ(mem(reg.RDI, 0, reg.R13), reg.R11)
	g.CMPQ(reg.R12, reg.R11)
	g.JAE(lbl(p + "tail"))
	g.VMOVDQU64(mem(reg.R12, 0), X[0])
	if flip != nil {
		g.VPXORD(flip, X[0], X[0])
	}
	for r := 0; r < 10; r++ {
		g.vpdpbusd(at(r, 0), X[0], acc(r, 0))
	}
	advance(64)

	g.Label(p + "tail")
	g.TESTQ(imm32(63), d)
	g.JZ(lbl(p + "sum"))
	g.Comment("the last d mod 64 bytes under K1 (zero beyond the end)")
	g.VMOVDQU8_Z(mem(reg.R12, 0), reg.K1, X[1])
	if flip != nil {
		g.VPXORD(flip, X[1], X[1])
	}
	for r := 0; r < 10; r++ {
		t := T[r%2]
		g.VMOVDQU8_Z(at(r, 0), reg.K1, t)
		g.vpdpbusd(t, X[1], acc(r, 1))
	}

	g.Label(p + "sum")
}

// vnni10Sum emits vnni10Block's end: the rows' two ZMMs of sums added and
// reduced to X0, X4, X8 (and stored to DX with store).
func (g *i8x86) vnni10Sum(store bool) {
	acc := func(r, u int) reg.VecPhysical { return zr[r+10*u] }
	g.Comment("Y(r) = row r's sums, the two ZMMs added and folded onto 8 lanes (Y10, Y11:",
		"the high halves)")
	for r := 0; r < 10; r++ {
		g.VPADDD(acc(r, 1), acc(r, 0), acc(r, 0))
	}
	for r := 0; r < 10; r++ {
		g.VEXTRACTI64X4(operand.Imm(1), acc(r, 0), yr[10+r%2])
		g.VPADDD(yr[10+r%2], yr[r], yr[r])
	}
	g.Comment("X0, X4 = the sums of rows 0..3 and 4..7: pairwise adds within the 128-bit",
		"lanes give Y0 = rows 0..3 and Y4 = rows 4..7 (low lanes' sums, high lanes'",
		"sums), then the high lane onto the low")
	g.VPHADDD(reg.Y1, reg.Y0, reg.Y0)
	g.VPHADDD(reg.Y3, reg.Y2, reg.Y2)
	g.VPHADDD(reg.Y2, reg.Y0, reg.Y0)
	g.VPHADDD(reg.Y5, reg.Y4, reg.Y4)
	g.VPHADDD(reg.Y7, reg.Y6, reg.Y6)
	g.VPHADDD(reg.Y6, reg.Y4, reg.Y4)
	g.VEXTRACTI128(operand.Imm(1), reg.Y0, reg.X1)
	g.VPADDD(reg.X1, reg.X0, reg.X0)
	g.VEXTRACTI128(operand.Imm(1), reg.Y4, reg.X5)
	g.VPADDD(reg.X5, reg.X4, reg.X4)
	if store {
		g.VMOVDQU(reg.X0, mem(reg.RDX, 0))
		g.VMOVDQU(reg.X4, mem(reg.RDX, 16))
	}
	g.Comment("X8[0:2] = the sums of rows 8, 9")
	g.VPHADDD(reg.Y9, reg.Y8, reg.Y8)
	g.VEXTRACTI128(operand.Imm(1), reg.Y8, reg.X9)
	g.VPADDD(reg.X9, reg.X8, reg.X8)
	g.VPHADDD(reg.X8, reg.X8, reg.X8)
	if store {
		g.VMOVQ(reg.X8, mem(reg.RDX, 32))
	}
}

// rows10Cursors emits the start of the 10-row loops (vnni10Loop,
// dotsRescale10YMM): rows10At's cursors CX, R9 and R10 from SI = row 0 and
// R8 = the stride, R12 = the x cursor from DI = &x[0], and R11 = the end of
// x's whole blocks of block bytes (a power of two), d holding len(x).
func rows10Cursors(g *x86, d reg.Register, block int) {
	g.MOVQ(reg.RSI, reg.RCX)
	g.LEAQ(memx(reg.RSI, 0, reg.R8, 2), reg.R9)
	g.ADDQ(reg.R8, reg.R9)
	g.LEAQ(memx(reg.R9, 0, reg.R8, 2), reg.R10)
	g.MOVQ(reg.RDI, reg.R12)
	g.MOVQ(d, reg.R11)
	g.ANDQ(imm(-block), reg.R11)
	g.ADDQ(reg.RDI, reg.R11)
}

// rows10At is the address of row r's bytes at disp past the cursors of the
// 10-row loops (vnni10Loop, dotsRescale10YMM): CX = row 0 (rows 0, 1, 2, 4,
// 8 at R8 = the stride times {0, 1, 2, 4, 8}), R9 = row 3, R10 = row 5
// (rows 5, 6, 7, 9).
func rows10At(r, disp int) operand.Mem {
	switch r {
	case 0:
		return mem(reg.RCX, disp)
	case 1, 2, 4, 8:
		return memx(reg.RCX, disp, reg.R8, uint8(r))
	case 3:
		return mem(reg.R9, disp)
	case 5:
		return mem(reg.R10, disp)
	default: // 6, 7, 9
		return memx(reg.R10, disp, reg.R8, uint8(r-5))
	}
}
