package main

import (
	"fmt"
	"math"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The micro-kernels and tile functions of package gram for amd64.

// gemmSpec is one register-tile micro-kernel.
type gemmSpec struct {
	name   string // sgemm6x16
	mr, nr int
}

// gemmOf returns the micro-kernel of element type t for instruction set v:
// two vectors of the B side per row, as many rows as the registers hold
// (6 on AVX2 with 16 YMM registers, 12 on AVX-512 with 32 ZMM ones).
func gemmOf(t elem, v isa) gemmSpec {
	mr := 6
	if v.masked {
		mr = 12
	}
	nr := 2 * v.vec / t.size
	p := "s"
	if !t.is32() {
		p = "d"
	}
	return gemmSpec{fmt.Sprintf("%sgemm%dx%d", p, mr, nr), mr, nr}
}

// gemmKernel emits the mr×nr micro-kernel: the tile c[r·ldc+j] (+)=
// Σₖ a[k·mr+r]·b[k·nr+j] for k < kc, one FMA chain per value in k order,
// continuing from the tile's values if acc != 0.
func gemmKernel(f *asmFile, im *implSpec, t elem, v isa) {
	s := gemmOf(t, v)
	g := f.fn(im, t, v, s.name, "func(kc int, a, b, c *T, ldc int, acc int)")
	W := v.vec
	vn, nacc, bReg, aReg := "Y", 2*s.mr, 2*s.mr, 2*s.mr+2
	if v.masked {
		vn = "Z"
	}
	g.Commentf("The %d×%d tile c[r·ldc+j] (+)= Σₖ a[k·%d+r]·b[k·%d+j] for k < kc,", s.mr, s.nr, s.mr, s.nr)
	g.Commentf("one FMA chain per value in k order. %s0..%s%d hold the tile (row r in", vn, vn, nacc-1)
	g.Commentf("%s(2r), %s(2r+1)), %s%d/%s%d the %d values of b at k, %s%d/%s%d a[k·%d+r]",
		vn, vn, vn, bReg, vn, bReg+1, s.nr, vn, aReg, vn, aReg+1, s.mr)
	// row returns the address of row r of the tile at byte offset off.
	var row func(r, off int) operand.Mem
	if s.mr <= 6 {
		g.Comment("broadcast; SI walks a, DI walks b, CX counts k, DX and R9..R13 point at",
			"the tile's rows.")
		rows := []reg.Register{reg.RDX, reg.R9, reg.R10, reg.R11, reg.R12, reg.R13}
		row = func(r, off int) operand.Mem { return mem(rows[r], off) }
	} else {
		g.Comment("broadcast; SI walks a, DI walks b, CX counts k. Row r of the tile is at",
			"base + (r mod 4)·R8 with base DX, R10, R11 for rows 0-3, 4-7, 8-11",
			"(R8 = stride in bytes, R9 = 3·R8).")
		bases := []reg.Register{reg.RDX, reg.R10, reg.R11}
		row = func(r, off int) operand.Mem {
			m := mem(bases[r/4], off)
			switch r % 4 {
			case 1:
				m.Index, m.Scale = reg.R8, 1
			case 2:
				m.Index, m.Scale = reg.R8, 2
			case 3:
				m.Index, m.Scale = reg.R9, 1
			}
			return m
		}
	}
	g.MOVQ(g.param("kc"), reg.RCX)
	g.MOVQ(g.param("a"), reg.RSI)
	g.MOVQ(g.param("b"), reg.RDI)
	g.MOVQ(g.param("c"), reg.RDX)
	g.MOVQ(g.param("ldc"), reg.R8)
	g.Comment("row stride in bytes")
	g.shiftBytes(reg.R8)
	if s.mr <= 6 {
		rows := []reg.Register{reg.RDX, reg.R9, reg.R10, reg.R11, reg.R12, reg.R13}
		for r := 1; r < s.mr; r++ {
			g.LEAQ(mem(rows[r-1], 0, reg.R8), rows[r])
		}
	} else {
		g.LEAQ(memx(reg.R8, 0, reg.R8, 2), reg.R9)
		g.LEAQ(memx(reg.RDX, 0, reg.R8, 4), reg.R10)
		g.LEAQ(memx(reg.R10, 0, reg.R8, 4), reg.R11)
	}
	g.CMPQ(g.param("acc"), imm(0))
	g.JEQ(lbl("zero"))
	g.Comment("continue the chains from the tile's values")
	for r := 0; r < s.mr; r++ {
		g.movu(row(r, 0), g.V(2*r))
		g.movu(row(r, W), g.V(2*r+1))
	}
	g.JMP(lbl("start"))
	g.Label("zero")
	for i := 0; i < nacc; i++ {
		if v.masked {
			g.VPXORD(zr[i], zr[i], zr[i])
		} else {
			g.xor(yr[i], yr[i], yr[i])
		}
	}
	g.Label("start")
	step := func(ao, bo int) {
		g.movu(mem(reg.RDI, bo), g.V(bReg))
		g.movu(mem(reg.RDI, bo+W), g.V(bReg+1))
		for r := 0; r < s.mr; r++ {
			a := g.V(aReg + r&1)
			g.broadcast(mem(reg.RSI, ao+r*t.size), a)
			g.fmadd231(g.V(bReg), a, g.V(2*r))
			g.fmadd231(g.V(bReg+1), a, g.V(2*r+1))
		}
	}
	astep, bstep := s.mr*t.size, s.nr*t.size
	g.SUBQ(imm(4), reg.RCX)
	g.JLT(lbl("tail"))
	g.Label("loop4")
	g.Comment("four k steps")
	for u := 0; u < 4; u++ {
		step(u*astep, u*bstep)
	}
	g.ADDQ(imm(4*astep), reg.RSI)
	g.ADDQ(imm(4*bstep), reg.RDI)
	g.SUBQ(imm(4), reg.RCX)
	g.JGE(lbl("loop4"))
	g.Label("tail")
	g.ADDQ(imm(4), reg.RCX)
	g.JEQ(lbl("store"))
	g.Label("loop1")
	g.Comment("one k step")
	step(0, 0)
	g.ADDQ(imm(astep), reg.RSI)
	g.ADDQ(imm(bstep), reg.RDI)
	g.DECQ(reg.RCX)
	g.JNE(lbl("loop1"))
	g.Label("store")
	for r := 0; r < s.mr; r++ {
		g.movu(g.V(2*r), row(r, 0))
		g.movu(g.V(2*r+1), row(r, W))
	}
	g.VZEROUPPER()
	g.RET()
}

// expConst is one constant of the exponential, repeated in every lane of a
// YMM vector in the table.
type expConst struct {
	name string
	v    float64
}

// expConsts returns the exponential's constants for t: the range limit,
// log₂e, ln2 in two parts (Cephes' C1 + C2), and the polynomial — Cephes'
// expf P(r) of degree 5 with e^r = 1 + r + r²·P(r) for float32, the Taylor
// series of degree 13 (p0 = 1/13!, ..., p13 = 1) for float64.
func expConsts(t elem) []expConst {
	if t.is32() {
		return []expConst{{"lo", -86.0}, {"log2e", 1.44269504088896341}, {"c1", 0.693359375}, {"c2", -2.12194440e-4},
			{"p0", 1.9875691500e-4}, {"p1", 1.3981999507e-3}, {"p2", 8.3334519073e-3}, {"p3", 4.1665795894e-2},
			{"p4", 1.6666665459e-1}, {"p5", 5.0000001201e-1}, {"one", 1.0}}
	}
	cs := []expConst{{"lo", -708.0}, {"log2e", 1.4426950408889634073599}, {"c1", 6.93145751953125e-1}, {"c2", 1.42860682030941723212e-6}}
	fact := 1.0
	for k := 1; k <= 13; k++ {
		fact *= float64(k)
	}
	for k := 13; k >= 0; k-- {
		cs = append(cs, expConst{fmt.Sprintf("p%d", 13-k), 1 / fact})
		if k > 0 {
			fact /= float64(k)
		}
	}
	return cs
}

// expTable emits the constants of expConsts(t) as the table expf32<> or
// expf64<>, each constant in the lanes of one 32-byte vector, and returns a
// function giving the address of a constant by name.
func expTable(f *asmFile, t elem) func(name string) operand.Mem {
	cs := expConsts(t)
	sym := "expf" + bits(t)
	f.ctx.StaticGlobal(sym)
	f.ctx.DataAttributes(rodataNoptr)
	off := map[string]int{}
	for i, c := range cs {
		off[c.name] = 32 * i
		for l := 0; l < 32/t.size; l++ {
			if t.is32() {
				f.ctx.AddDatum(32*i+4*l, operand.U32(math.Float32bits(float32(c.v))))
			} else {
				f.ctx.AddDatum(32*i+8*l, operand.U64(math.Float64bits(c.v)))
			}
		}
	}
	base := operand.NewDataAddr(operand.NewStaticSymbol(sym), 0)
	return func(name string) operand.Mem {
		o, ok := off[name]
		if !ok {
			panic("no constant " + name)
		}
		return base.Offset(o)
	}
}

// expTableDoc describes the tables in the file's comment (avo prints DATA
// without comments).
func expTableDoc() []string {
	var lines []string
	for _, t := range []elem{f32, f64} {
		line := fmt.Sprintf("expf%s<>, one %s constant per 32 bytes, in every lane:", bits(t), t.goType)
		lines = append(lines, line)
		var cur string
		for i, c := range expConsts(t) {
			item := fmt.Sprintf("+%d %s = %v", 32*i, c.name, c.v)
			if len(cur)+len(item) > 72 {
				lines = append(lines, "  "+cur)
				cur = ""
			}
			if cur != "" {
				cur += ", "
			}
			cur += item
		}
		lines = append(lines, "  "+cur)
	}
	return lines
}

// rbfKernel emits the RBF tile function: dst[j] = exp(−gamma·max(ni +
// nj[j] − 2·dst[j], 0)) for j < n, n a multiple of the lanes of a YMM
// vector. exp(x) = 2ⁿ·e^r with n = round(x·log₂e), r = x − n·ln2 (ln2 in
// two parts) and e^r from the polynomial of expConsts; x below the limit
// gives 0.
func rbfKernel(f *asmFile, im *implSpec, t elem, c func(string) operand.Mem) {
	g := f.fn(im, t, avx2, "rbfAVX2"+t.sfx, "func(dst, nj *T, n int, ni, gamma T)")
	lanes := 32 / t.size
	lo := expConsts(t)[0].v
	if t.is32() {
		g.Comment("dst[j] = exp(−gamma·max(ni + nj[j] − 2·dst[j], 0)) for j < n, n a multiple",
			"of 8. exp(x) = 2ⁿ·e^r with n = round(x·log₂e), r = x − n·ln2 (ln2 in two",
			"parts, Cephes' C1 + C2) and e^r = 1 + r + r²·P(r), Cephes' expf",
			"polynomial; x < −86 gives 0. Y15 = ni, Y14 = −gamma, Y13 = 0, Y12 = −86,",
			"Y0..Y5 work registers; DI walks dst, SI walks nj.")
	} else {
		g.Comment("dst[j] = exp(−gamma·max(ni + nj[j] − 2·dst[j], 0)) for j < n, n a multiple",
			"of 4: as rbfAVX2F32 with Cephes' ln2 split for float64 and e^r by its",
			"Taylor series of degree 13 (truncation error below 5·10⁻¹⁸ for",
			"|r| ≤ ln2/2); x < −708 gives 0. Y15 = ni, Y14 = −gamma, Y13 = 0,",
			"Y12 = −708.")
	}
	g.MOVQ(g.param("dst"), reg.RDI)
	g.MOVQ(g.param("nj"), reg.RSI)
	g.MOVQ(g.param("n"), reg.RCX)
	g.broadcast(g.param("ni"), reg.Y15)
	g.broadcast(g.param("gamma"), reg.Y14)
	g.xor(reg.Y13, reg.Y13, reg.Y13)
	g.Comment("−gamma")
	g.sub(reg.Y14, reg.Y13, reg.Y14)
	g.movu(c("lo"), reg.Y12)
	g.SHRQ(imm(int(math.Log2(float64(lanes)))), reg.RCX)
	g.JEQ(lbl("done"))
	g.Label("loop")
	g.movu(mem(reg.RDI, 0), reg.Y1)
	g.Comment("t = ni + nj − 2s, then max(t, 0); x = −gamma·t")
	g.add(mem(reg.RSI, 0), reg.Y15, reg.Y0)
	g.add(reg.Y1, reg.Y1, reg.Y1)
	g.sub(reg.Y1, reg.Y0, reg.Y0)
	g.max(reg.Y13, reg.Y0, reg.Y0)
	g.mul(reg.Y14, reg.Y0, reg.Y0)
	g.Commentf("Y5 = x < %v: underflow to 0", lo)
	g.cmp(operand.Imm(1), reg.Y12, reg.Y0, reg.Y5)
	g.max(reg.Y12, reg.Y0, reg.Y0)
	g.Comment("n = round(x·log2e); r = x − n·C1 − n·C2")
	g.mul(c("log2e"), reg.Y0, reg.Y1)
	if t.is32() {
		g.VROUNDPS(operand.Imm(0), reg.Y1, reg.Y1)
	} else {
		g.VROUNDPD(operand.Imm(0), reg.Y1, reg.Y1)
	}
	g.fnmadd231(c("c1"), reg.Y1, reg.Y0)
	g.fnmadd231(c("c2"), reg.Y1, reg.Y0)
	if t.is32() {
		g.Comment("P(r) by Horner; e^r = r²·P(r) + r + 1")
		g.movu(c("p0"), reg.Y2)
		for k := 1; k <= 5; k++ {
			g.fmadd213(c(fmt.Sprintf("p%d", k)), reg.Y0, reg.Y2)
		}
		g.mul(reg.Y0, reg.Y0, reg.Y3)
		g.fmadd213(reg.Y0, reg.Y3, reg.Y2)
		g.add(c("one"), reg.Y2, reg.Y2)
		g.Comment("·2ⁿ in the exponent field; 0 where x was below the limit")
		g.VCVTPS2DQ(reg.Y1, reg.Y1)
		g.VPSLLD(imm(23), reg.Y1, reg.Y1)
		g.VPADDD(reg.Y1, reg.Y2, reg.Y2)
	} else {
		g.Comment("e^r by Horner")
		g.movu(c("p0"), reg.Y2)
		for k := 1; k <= 13; k++ {
			g.fmadd213(c(fmt.Sprintf("p%d", k)), reg.Y0, reg.Y2)
		}
		g.Comment("·2ⁿ in the exponent field; 0 where x was below the limit")
		g.VCVTPD2DQY(reg.Y1, reg.X1)
		g.VPMOVSXDQ(reg.X1, reg.Y1)
		g.VPSLLQ(imm(52), reg.Y1, reg.Y1)
		g.VPADDQ(reg.Y1, reg.Y2, reg.Y2)
	}
	g.andn(reg.Y2, reg.Y5, reg.Y2)
	g.movu(reg.Y2, mem(reg.RDI, 0))
	g.ADDQ(imm(32), reg.RDI)
	g.ADDQ(imm(32), reg.RSI)
	g.DECQ(reg.RCX)
	g.JNE(lbl("loop"))
	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// polyKernel emits the polynomial tile function: dst[j] = (gamma·dst[j] +
// coef0)^degree for j < n, n a multiple of the lanes of a YMM vector, by
// binary powering (as gram's powi).
func polyKernel(f *asmFile, im *implSpec, t elem, c func(string) operand.Mem) {
	g := f.fn(im, t, avx2, "polyAVX2"+t.sfx, "func(dst *T, n int, gamma, coef0 T, degree int)")
	lanes := 32 / t.size
	g.Commentf("dst[j] = (gamma·dst[j] + coef0)^degree for j < n, n a multiple of %d, by", lanes)
	g.Comment("binary powering (as powi). Y15 = gamma, Y14 = coef0, Y13 = 1, Y0 the base,",
		"Y1 the power; DX holds the remaining bits of the degree.")
	g.MOVQ(g.param("dst"), reg.RDI)
	g.MOVQ(g.param("n"), reg.RCX)
	g.broadcast(g.param("gamma"), reg.Y15)
	g.broadcast(g.param("coef0"), reg.Y14)
	if t.is32() {
		g.broadcast(c("one"), reg.Y13)
	} else {
		g.broadcast(c("p13"), reg.Y13)
	}
	g.SHRQ(imm(int(math.Log2(float64(lanes)))), reg.RCX)
	g.JEQ(lbl("done"))
	g.Label("loop")
	g.Comment("base = gamma·s + coef0")
	g.movu(mem(reg.RDI, 0), reg.Y0)
	g.fmadd213(reg.Y14, reg.Y15, reg.Y0)
	g.mova(reg.Y13, reg.Y1)
	g.MOVQ(g.param("degree"), reg.RDX)
	g.Label("bit")
	g.TESTQ(imm32(1), reg.RDX)
	g.JEQ(lbl("sq"))
	g.mul(reg.Y0, reg.Y1, reg.Y1)
	g.Label("sq")
	g.SHRQ(imm(1), reg.RDX)
	g.JEQ(lbl("next"))
	g.mul(reg.Y0, reg.Y0, reg.Y0)
	g.JMP(lbl("bit"))
	g.Label("next")
	g.movu(reg.Y1, mem(reg.RDI, 0))
	g.ADDQ(imm(32), reg.RDI)
	g.DECQ(reg.RCX)
	g.JNE(lbl("loop"))
	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// transKernel emits the transpose of a column block: dst[c·ldd+r] =
// src[r·lds+c] for c < L and r < rows, rows a multiple of L, with L the
// lanes of a YMM vector: L×L blocks transposed in registers.
func transKernel(f *asmFile, im *implSpec, t elem) {
	g := f.fn(im, t, avx2, "transAVX2"+t.sfx, "func(dst *T, ldd int, src *T, lds int, rows int)")
	L := 32 / t.size
	g.Commentf("dst[c·ldd+r] = src[r·lds+c] for c < %d and r < rows, rows a multiple of %d:", L, L)
	g.Commentf("%d×%d blocks transposed in registers. SI walks src down %d rows a block, DI", L, L, L)
	g.Commentf("walks dst right %d columns a block; R8 = lds and R9 = ldd in bytes, R10 =", L)
	if t.is32() {
		g.Comment("3·lds, R11 = 3·ldd, R12/R13 point at rows 4..7 of the block. Y0..Y7 the",
			"rows, Y8..Y15 the interleaved halves.")
	} else {
		g.Comment("3·lds, R11 = 3·ldd. Y0..Y3 the rows, Y4..Y7 the interleaved pairs.")
	}
	g.MOVQ(g.param("dst"), reg.RDI)
	g.MOVQ(g.param("ldd"), reg.R9)
	g.MOVQ(g.param("src"), reg.RSI)
	g.MOVQ(g.param("lds"), reg.R8)
	g.MOVQ(g.param("rows"), reg.RCX)
	g.shiftBytes(reg.R8)
	g.shiftBytes(reg.R9)
	g.LEAQ(memx(reg.R8, 0, reg.R8, 2), reg.R10)
	g.LEAQ(memx(reg.R9, 0, reg.R9, 2), reg.R11)
	g.SHRQ(imm(int(math.Log2(float64(L)))), reg.RCX)
	g.JEQ(lbl("done"))
	g.Label("loop")
	// rowAt returns row i (< 4) of a group of four starting at base.
	rowAt := func(base reg.Register, i int, stride, stride3 reg.Register) operand.Mem {
		switch i {
		case 1:
			return memx(base, 0, stride, 1)
		case 2:
			return memx(base, 0, stride, 2)
		case 3:
			return memx(base, 0, stride3, 1)
		}
		return mem(base, 0)
	}
	if t.is32() {
		g.LEAQ(memx(reg.RSI, 0, reg.R8, 4), reg.R12)
		for i := 0; i < 8; i++ {
			base := reg.RSI
			if i >= 4 {
				base = reg.R12
			}
			g.movu(rowAt(base, i%4, reg.R8, reg.R10), yr[i])
		}
		g.Comment("rows a..h: Y8 = a0 b0 a1 b1 | a4 b4 a5 b5, Y9 = a2 b2 a3 b3 | a6 b6 a7 b7, ...")
		for i := 0; i < 4; i++ {
			g.VUNPCKLPS(yr[2*i+1], yr[2*i], yr[8+2*i])
			g.VUNPCKHPS(yr[2*i+1], yr[2*i], yr[9+2*i])
		}
		g.Comment("Y0 = a0 b0 c0 d0 | a4 b4 c4 d4, Y1 = a1 b1 c1 d1 | a5 ..., Y4 = e0 f0 g0 h0 | e4 ...")
		for h := 0; h < 2; h++ {
			for i := 0; i < 2; i++ {
				src1, src2 := yr[8+4*h+i], yr[10+4*h+i]
				g.VSHUFPS(operand.Imm(0x44), src2, src1, yr[4*h+2*i])
				g.VSHUFPS(operand.Imm(0xEE), src2, src1, yr[4*h+2*i+1])
			}
		}
		g.Comment("Y8..Y15 = columns 0..7")
		for i := 0; i < 4; i++ {
			g.VPERM2F128(operand.Imm(0x20), yr[4+i], yr[i], yr[8+i])
		}
		for i := 0; i < 4; i++ {
			g.VPERM2F128(operand.Imm(0x31), yr[4+i], yr[i], yr[12+i])
		}
		g.LEAQ(memx(reg.RDI, 0, reg.R9, 4), reg.R13)
		for i := 0; i < 8; i++ {
			base := reg.RDI
			if i >= 4 {
				base = reg.R13
			}
			g.movu(yr[8+i], rowAt(base, i%4, reg.R9, reg.R11))
		}
		g.LEAQ(memx(reg.RSI, 0, reg.R8, 8), reg.RSI)
	} else {
		for i := 0; i < 4; i++ {
			g.movu(rowAt(reg.RSI, i, reg.R8, reg.R10), yr[i])
		}
		g.Comment("Y4 = a0 b0 | a2 b2, Y5 = a1 b1 | a3 b3, Y6 = c0 d0 | c2 d2, Y7 = c1 d1 | c3 d3")
		g.VUNPCKLPD(reg.Y1, reg.Y0, reg.Y4)
		g.VUNPCKHPD(reg.Y1, reg.Y0, reg.Y5)
		g.VUNPCKLPD(reg.Y3, reg.Y2, reg.Y6)
		g.VUNPCKHPD(reg.Y3, reg.Y2, reg.Y7)
		g.Comment("Y0..Y3 = columns 0..3")
		g.VPERM2F128(operand.Imm(0x20), reg.Y6, reg.Y4, reg.Y0)
		g.VPERM2F128(operand.Imm(0x20), reg.Y7, reg.Y5, reg.Y1)
		g.VPERM2F128(operand.Imm(0x31), reg.Y6, reg.Y4, reg.Y2)
		g.VPERM2F128(operand.Imm(0x31), reg.Y7, reg.Y5, reg.Y3)
		for i := 0; i < 4; i++ {
			g.movu(yr[i], rowAt(reg.RDI, i, reg.R9, reg.R11))
		}
		g.LEAQ(memx(reg.RSI, 0, reg.R8, 4), reg.RSI)
	}
	g.ADDQ(imm(32), reg.RDI)
	g.DECQ(reg.RCX)
	g.JNE(lbl("loop"))
	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// mirrorKernel emits the transpose of one AVX2 register tile (6 rows by
// two vectors), the copy of a tile below the diagonal of a symmetric
// result to its place above it: dst[c·ldd+r] = src[r·lds+c] for r < 6 and
// c < nr. Called on each tile right after it is finished, while it is in
// L1, its stores (six values a column) go out while the next tile
// computes, instead of in a separate pass over the finished strip.
func mirrorKernel(f *asmFile, im *implSpec, t elem) {
	s := gemmOf(t, avx2)
	g := f.fn(im, t, avx2, "mirrorAVX2"+t.sfx, "func(dst *T, ldd int, src *T, lds int)")
	L := 32 / t.size
	g.Commentf("dst[c·ldd+r] = src[r·lds+c] for r < %d, c < %d: the %d×%d tile transposed.", s.mr, s.nr, s.mr, s.nr)
	g.Commentf("Each half of %d columns: Y0..Y5 its six rows a..f, Y6..Y11 the", L)
	g.Comment("interleaved pairs, Y12..Y15 the four-row columns; R8 = lds and R9 =",
		"ldd in bytes, R11 = 3·ldd; DI, AX, BX, R12 point at columns 0, 4, 8, 12",
		"of dst (rows of dst).")
	g.MOVQ(g.param("dst"), reg.RDI)
	g.MOVQ(g.param("ldd"), reg.R9)
	g.MOVQ(g.param("src"), reg.RSI)
	g.MOVQ(g.param("lds"), reg.R8)
	g.shiftBytes(reg.R8)
	g.shiftBytes(reg.R9)
	g.LEAQ(memx(reg.R9, 0, reg.R9, 2), reg.R11)
	g.LEAQ(memx(reg.RDI, 0, reg.R9, 4), reg.RAX)
	g.LEAQ(memx(reg.RAX, 0, reg.R9, 4), reg.RBX)
	g.LEAQ(memx(reg.RBX, 0, reg.R9, 4), reg.R12)
	// col returns column c (< 2L) of the tile in dst at byte offset off.
	col := func(c, off int) operand.Mem {
		bases := []reg.Register{reg.RDI, reg.RAX, reg.RBX, reg.R12}
		base := bases[c/4]
		switch c % 4 {
		case 1:
			return memx(base, off, reg.R9, 1)
		case 2:
			return memx(base, off, reg.R9, 2)
		case 3:
			return memx(base, off, reg.R11, 1)
		}
		return mem(base, off)
	}
	// srcRow returns row r of the tile in src at byte offset off (R10 =
	// 3·lds, R13 = src + 3·lds).
	g.LEAQ(memx(reg.R8, 0, reg.R8, 2), reg.R10)
	g.LEAQ(memx(reg.RSI, 0, reg.R10, 1), reg.R13)
	srcRow := func(r, off int) operand.Mem {
		base := reg.RSI
		if r >= 3 {
			base, r = reg.R13, r-3
		}
		switch r {
		case 1:
			return memx(base, off, reg.R8, 1)
		case 2:
			return memx(base, off, reg.R8, 2)
		}
		return mem(base, off)
	}
	for h := 0; h < 2; h++ {
		g.Commentf("columns %d..%d", h*L, h*L+L-1)
		for r := 0; r < 6; r++ {
			g.movu(srcRow(r, 32*h), yr[r])
		}
		c0 := h * L
		if t.is32() {
			g.Comment("Y6 = a0 b0 a1 b1 | a4 b4 a5 b5, Y7 = a2 b2 a3 b3 | a6 b6 a7 b7, Y8/Y9 c d, Y10/Y11 e f")
			for i := 0; i < 3; i++ {
				g.VUNPCKLPS(yr[2*i+1], yr[2*i], yr[6+2*i])
				g.VUNPCKHPS(yr[2*i+1], yr[2*i], yr[7+2*i])
			}
			g.Comment("Y12 = a0 b0 c0 d0 | a4 b4 c4 d4, Y13 = column 1 | 5, Y14 = 2 | 6, Y15 = 3 | 7")
			g.VSHUFPS(operand.Imm(0x44), reg.Y8, reg.Y6, reg.Y12)
			g.VSHUFPS(operand.Imm(0xEE), reg.Y8, reg.Y6, reg.Y13)
			g.VSHUFPS(operand.Imm(0x44), reg.Y9, reg.Y7, reg.Y14)
			g.VSHUFPS(operand.Imm(0xEE), reg.Y9, reg.Y7, reg.Y15)
			g.Comment("rows a..d of columns 0..3, then e f from Y10/Y11")
			quads := []reg.VecPhysical{reg.X12, reg.X13, reg.X14, reg.X15}
			for c := 0; c < 4; c++ {
				g.VMOVUPS(quads[c], col(c0+c, 0))
			}
			g.VMOVLPS(reg.X10, col(c0+0, 16))
			g.VMOVHPS(reg.X10, col(c0+1, 16))
			g.VMOVLPS(reg.X11, col(c0+2, 16))
			g.VMOVHPS(reg.X11, col(c0+3, 16))
			g.Comment("columns 4..7 from the upper lanes")
			for c := 0; c < 4; c++ {
				g.VEXTRACTF128(operand.Imm(1), yr[12+c], col(c0+4+c, 0))
			}
			g.VEXTRACTF128(operand.Imm(1), reg.Y10, reg.X0)
			g.VEXTRACTF128(operand.Imm(1), reg.Y11, reg.X1)
			g.VMOVLPS(reg.X0, col(c0+4, 16))
			g.VMOVHPS(reg.X0, col(c0+5, 16))
			g.VMOVLPS(reg.X1, col(c0+6, 16))
			g.VMOVHPS(reg.X1, col(c0+7, 16))
		} else {
			g.Comment("per pair of rows (a b, c d, e f): Y6+i = x0 y0 | x2 y2, Y9+i = x1 y1 | x3 y3")
			for i := 0; i < 3; i++ {
				g.VUNPCKLPD(yr[2*i+1], yr[2*i], yr[6+i])
				g.VUNPCKHPD(yr[2*i+1], yr[2*i], yr[9+i])
			}
			lo := []reg.VecPhysical{reg.X6, reg.X7, reg.X8}
			hi := []reg.VecPhysical{reg.X9, reg.X10, reg.X11}
			for i := 0; i < 3; i++ {
				g.VMOVUPD(lo[i], col(c0+0, 16*i))
				g.VMOVUPD(hi[i], col(c0+1, 16*i))
				g.VEXTRACTF128(operand.Imm(1), yr[6+i], col(c0+2, 16*i))
				g.VEXTRACTF128(operand.Imm(1), yr[9+i], col(c0+3, 16*i))
			}
		}
	}
	g.VZEROUPPER()
	g.RET()
}

// gramAVX2File returns gram/micro_amd64.s: the AVX2 micro-kernels and the
// tile functions (used by the avx512 implementation too).
func gramAVX2File() ([]byte, error) {
	about := []string{
		"AVX2+FMA micro-kernels and tile functions of package gram (the \"avx2\"",
		"implementation; the avx512 one uses the tile functions too). The Go",
		"declarations, with what each computes, are in micro_amd64.go; the",
		"generator's gram_x86.go holds the definitions. Constant tables:",
	}
	f := newAsmFile(append(about, expTableDoc()...)...)
	for _, t := range []elem{f32, f64} {
		gemmKernel(f, implAVX2, t, avx2)
	}
	c32, c64 := expTable(f, f32), expTable(f, f64)
	for _, t := range []elem{f32, f64} {
		c := c32
		if !t.is32() {
			c = c64
		}
		rbfKernel(f, implAVX2, t, c)
		f.also("rbfAVX2"+t.sfx, implAVX512)
	}
	for _, t := range []elem{f32, f64} {
		c := c32
		if !t.is32() {
			c = c64
		}
		polyKernel(f, implAVX2, t, c)
		f.also("polyAVX2"+t.sfx, implAVX512)
	}
	for _, t := range []elem{f32, f64} {
		transKernel(f, implAVX2, t)
		f.also("transAVX2"+t.sfx, implAVX512)
	}
	for _, t := range []elem{f32, f64} {
		mirrorKernel(f, implAVX2, t)
	}
	return f.render()
}

// gramAVX512File returns gram/micro_avx512_amd64.s: the AVX-512
// micro-kernels.
func gramAVX512File() ([]byte, error) {
	f := newAsmFile(
		"AVX-512F micro-kernels of package gram: the AVX2 ones (micro_amd64.s)",
		"with 512-bit registers and twice the rows. The Go declarations are in",
		"micro_amd64.go; the generator's gram_x86.go holds the definitions.",
	)
	for _, t := range []elem{f32, f64} {
		gemmKernel(f, implAVX512, t, avx512)
	}
	return f.render()
}
