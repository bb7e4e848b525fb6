package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The sparse kernels of package kernel for amd64 (kernel/sparse_amd64.s):
// the sparse·dense dot Σ val[i]·w[idx[i]] and the scatter axpy
// y[idx[i]] += a·val[i], each for AVX2 and AVX-512 (the same code: the
// loops use XMM registers only, VEX-encoded) and both element types.
//
// Index safety: every index is checked before its element is read or
// written, against bound = min(len(w), 2³¹) as an unsigned number (the
// index zero-extended), so a negative index (2³¹ or more as unsigned)
// fails as one ≥ len(w) does. A failed check returns at once with
// ok = false (dot) or the number of non-zeros already updated (axpy); the
// Go caller then runs the Go loop on the rest, which panics with Go's
// index-out-of-range error at that index. Nothing outside w or y is read
// or written.
//
// The dot reads four indices with two 8-byte loads, checks them, loads the
// four weights into the lanes of an XMM register (VMOVSS + three
// VINSERTPS; float64: VMOVSD + VMOVHPD into two registers) and multiplies
// them with the four values as one vector: eight non-zeros per iteration
// into two vector partial sums (float64: four), then four, then single
// non-zeros into a scalar sum. Gathers (VGATHERDPS/VGATHERDPD with the
// indices checked as a vector first) were measured against this loop on
// Zen 5 and lost at every size from 8 to 100 non-zeros, hot and cold, on
// AVX2 and AVX-512 (bench/results/kernels/sparse-gather-vs-scalar-zen5.txt), and
// were removed. The axpy is a scalar loop in the plain loop's order, so
// that a repeated index adds twice.

// sparseFuncs emits the sparse kernels for both element types. They use
// AVX and FMA on XMM registers only, so the AVX-512 implementation calls
// the same functions (f.also records it for the ISA check).
func sparseFuncs(f *asmFile) {
	for _, t := range []elem{f32, f64} {
		dotSparseKernel(f, implAVX2, t, avx2)
		f.also("dotSparseAVX2"+t.sfx, implAVX512)
		axpySparseKernel(f, implAVX2, t, avx2)
		f.also("axpySparseAVX2"+t.sfx, implAVX512)
		matVecSparseKernel(f, implAVX2, t, avx2)
		f.also(matVecSparseName("AVX2", t), implAVX512)
	}
}

// dotSparseAutoFunc emits dotSparseAuto, kernel.DotSparse on amd64: the
// lengths, the implementation (activeID) and the element type checked in
// assembly, then the dot body of that type inline, so that a call of
// kernel.DotSparse (its Go side inlines into the caller) reaches the
// arithmetic through one call, as dotAuto does for Dot. When len(idx) !=
// nval, no assembly implementation is active, or at an index outside w
// (having read nothing outside w), it jumps to the Go function dotSparseGo
// with its own arguments, which panics or runs the Go loop.
func dotSparseAutoFunc(f *asmFile) {
	g := f.fn(implAVX2, f32, avx2, "dotSparseAuto", "func(idx []int32, val, w *byte, nval, nw int, size uintptr) uint64")
	g.Comment("CX = len(idx); to Go (dotSparseGo) unless len(val) is the same and",
		"activeID names avx2 or avx512 (whose sparse kernels are these XMM bodies)")
	g.MOVQ(g.param("idx", "len"), reg.RCX)
	g.CMPQ(reg.RCX, g.param("nval"))
	g.JNE(lbl("fail"))
	active := operand.Mem{Symbol: operand.Symbol{Name: "·activeID"}, Base: reg.StaticBase}
	g.CMPB(active, imm(idAVX2))
	g.JE(lbl("go"))
	g.CMPB(active, imm(idAVX512))
	g.JNE(lbl("fail"))
	g.Label("go")
	g.Comment("SI = &idx[0], DI = &val[0], DX = &w[0], R8 = min(nw, 2³¹)")
	g.MOVQ(g.param("idx", "base"), reg.RSI)
	g.MOVQ(g.param("val"), reg.RDI)
	g.MOVQ(g.param("w"), reg.RDX)
	g.boundFrom(g.param("nw"))
	g.CMPQ(g.param("size"), imm(4))
	g.JNE(lbl("f64"))
	for _, t := range []elem{f32, f64} {
		if !t.is32() {
			g.Label("f64")
		}
		h := &x86{Context: f.ctx, t: t, v: avx2, pfx: strings.ToLower(t.sfx) + "_", ret8: true}
		h.dotSparseBody(true)
	}
	g.Label("fail")
	g.tailCall("dotSparseGo")
}

func sparseAVXFile() ([]byte, error) {
	f := newAsmFile(
		"Sparse kernels of package kernel (the \"avx2\" and \"avx512\" implementations,",
		"which share them): the sparse·dense dot and the scatter axpy. The Go",
		"declarations are in sparse_amd64.go; the generator's sparse_x86.go holds",
		"their definition and conventions.",
	)
	sparseFuncs(f)
	dotSparseAutoFunc(f)
	return f.render()
}

// sparseBound sets R8 = min(len(w), 2³¹) from the slice parameter p.
func (g *x86) sparseBound(p string) { g.boundFrom(g.param(p, "len")) }

// boundFrom sets R8 = min(n, 2³¹) for the length n at m.
func (g *x86) boundFrom(m operand.Mem) {
	g.MOVQ(m, reg.R8)
	g.MOVL(operand.U32(1<<31), reg.R9L)
	g.CMPQ(reg.R8, reg.R9)
	g.CMOVQHI(reg.R9, reg.R8)
}

// scalarDot emits one non-zero of the scalar dot at offset k (elements)
// of SI (idx) and DI (val) into accumulator acc, using index register
// ix and vector temporaries ta, tb.
func (g *x86) scalarDot(k int, ix reg.GPPhysical, ta, tb, acc reg.VecPhysical) {
	g.MOVL(mem(reg.RSI, 4*k), ix.As32())
	g.CMPQ(ix.As64(), reg.R8)
	g.JAE(g.L("bad"))
	g.movs(memx(reg.RDX, 0, ix.As64(), uint8(g.t.size)), ta)
	g.movs(mem(reg.RDI, k*g.t.size), tb)
	g.fmadd231s(tb, ta, acc)
}

// laneDot4 adds the products of the non-zeros k..k+3 to the vector
// accumulators: the four indices read with two 8-byte loads and checked,
// the four weights loaded into the lanes of one XMM register (float32:
// VMOVSS and three VINSERTPS; float64: two registers of two, VMOVSD and
// VMOVHPD), multiplied with the values as vectors: loads of one weight
// each, and one load per vector of values instead of one per value.
// float32 uses ta and acca; float64 ta, tb and acca, accb.
func (g *x86) laneDot4(k int, ta, tb, acca, accb reg.VecPhysical) {
	r := sparseIdxRegs
	g.MOVQ(mem(reg.RSI, 4*k), r[0])
	g.MOVQ(mem(reg.RSI, 4*k+8), r[2])
	g.MOVL(r[0].As32(), r[1].As32())
	g.MOVL(r[2].As32(), r[3].As32())
	g.SHRQ(operand.U8(32), r[0])
	g.SHRQ(operand.U8(32), r[2])
	// in order: r[1] = idx[k], r[0] = idx[k+1], r[3] = idx[k+2], r[2] = idx[k+3]
	ord := []reg.GPPhysical{r[1], r[0], r[3], r[2]}
	for _, x := range ord {
		g.CMPQ(x, reg.R8)
		g.JAE(g.L("bad"))
	}
	w := func(x reg.GPPhysical) operand.Mem { return memx(reg.RDX, 0, x, uint8(g.t.size)) }
	if g.t.is32() {
		g.VMOVSS(w(ord[0]), ta)
		for l := 1; l < 4; l++ {
			g.VINSERTPS(operand.U8(l<<4), w(ord[l]), ta, ta)
		}
		g.VFMADD231PS(mem(reg.RDI, 4*k), ta, acca)
		return
	}
	g.VMOVSD(w(ord[0]), ta)
	g.VMOVHPD(w(ord[1]), ta, ta)
	g.VMOVSD(w(ord[2]), tb)
	g.VMOVHPD(w(ord[3]), tb, tb)
	g.VFMADD231PD(mem(reg.RDI, 8*k), ta, acca)
	g.VFMADD231PD(mem(reg.RDI, 8*k+16), tb, accb)
}

var sparseIdxRegs = []reg.GPPhysical{reg.RAX, reg.RBX, reg.R10, reg.R11}

// dotSparseKernel emits dotSparse<INFIX><T>(idx []int32, val, w []T) (s T, ok bool).
func dotSparseKernel(f *asmFile, im *implSpec, t elem, v isa) {
	g := f.fn(im, t, v, "dotSparse"+v.name+t.sfx, "func(idx []int32, val, w []T) (s T, ok bool)")
	g.Comment("SI = &idx[0], DI = &val[0], DX = &w[0], CX = non-zeros left,",
		"R8 = min(len(w), 2³¹): an index is valid iff it is below R8 as unsigned")
	g.MOVQ(g.param("idx", "base"), reg.RSI)
	g.MOVQ(g.param("val", "base"), reg.RDI)
	g.MOVQ(g.param("w", "base"), reg.RDX)
	g.MOVQ(g.param("idx", "len"), reg.RCX)
	g.sparseBound("w")
	g.dotSparseBody(false)
}

// dotSparseBody emits the sparse dot from SI = &idx[0], DI = &val[0],
// DX = &w[0], CX = the non-zeros and R8 = the index bound; it stores the
// result (storeResult) and ok, or, for dotSparseAuto (auto), the result
// alone, with a jump to dotSparseGo at an invalid index. Its labels carry
// g's prefix, so that dotSparseAuto holds one body per element type.
func (g *x86) dotSparseBody(auto bool) {
	g.dotSparseSum()
	g.storeResult()
	if auto {
		g.VZEROUPPER()
		g.RET()
		g.label("bad")
		g.Comment("an index outside w: the Go loop panics there")
		g.VZEROUPPER()
		g.tailCall("dotSparseGo")
		return
	}
	okRes := g.resultAt(1)
	g.MOVB(operand.U8(1), okRes)
	g.VZEROUPPER()
	g.RET()

	g.label("bad")
	g.Comment("an index outside w: s = 0, ok = false, nothing read there")
	g.xor(reg.X0, reg.X0, reg.X0)
	g.storeResult()
	g.MOVB(operand.U8(0), okRes)
	g.VZEROUPPER()
	g.RET()
}

// dotSparseSum emits the arithmetic of the sparse dot from SI = &idx[0],
// DI = &val[0], DX = &w[0], CX = the non-zeros and R8 = the index bound,
// leaving the sum in X0 (lane 0); an invalid index jumps to g's "bad".
// It uses AX, BX, R10, R11 and X0..X12 besides.
func (g *x86) dotSparseSum() {
	t := g.t
	g.Comment("X0..X5 = vector partial sums (float32: X0, X2, X4), X6 = the single",
		"non-zeros' sum; eight non-zeros per iteration, then four, then one at a time")
	for i := 0; i < 8; i++ {
		g.xor(xr[i], xr[i], xr[i])
	}
	g.CMPQ(reg.RCX, imm(8))
	g.JB(g.L("s4"))
	g.label("sloop")
	g.laneDot4(0, xr[8], xr[9], xr[0], xr[1])
	g.laneDot4(4, xr[10], xr[11], xr[2], xr[3])
	g.ADDQ(imm(8*4), reg.RSI)
	g.ADDQ(imm(8*t.size), reg.RDI)
	g.SUBQ(imm(8), reg.RCX)
	g.CMPQ(reg.RCX, imm(8))
	g.JAE(g.L("sloop"))
	g.label("s4")
	g.CMPQ(reg.RCX, imm(4))
	g.JB(g.L("s1"))
	g.laneDot4(0, xr[8], xr[9], xr[4], xr[5])
	g.ADDQ(imm(4*4), reg.RSI)
	g.ADDQ(imm(4*t.size), reg.RDI)
	g.SUBQ(imm(4), reg.RCX)
	g.label("s1")
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(g.L("ssum"))
	g.label("s1loop")
	g.scalarDot(0, reg.RAX, reg.X8, reg.X12, reg.X6)
	g.ADDQ(imm(4), reg.RSI)
	g.ADDQ(imm(t.size), reg.RDI)
	g.DECQ(reg.RCX)
	g.JNZ(g.L("s1loop"))
	g.label("ssum")
	if g.t.is32() {
		g.Comment("(X0+X2) + (X4+X6) as vectors (X6 holds the single non-zeros in lane 0,",
			"zeros above), then across the lanes")
		g.add(reg.X2, reg.X0, reg.X0)
		g.add(reg.X6, reg.X4, reg.X4)
		g.add(reg.X4, reg.X0, reg.X0)
	} else {
		g.Comment("((X0+X1) + (X2+X3)) + ((X4+X5) + X6) as vectors (X6 holds the single",
			"non-zeros in lane 0, zero above), then across the lanes")
		g.add(reg.X1, reg.X0, reg.X0)
		g.add(reg.X3, reg.X2, reg.X2)
		g.add(reg.X5, reg.X4, reg.X4)
		g.add(reg.X2, reg.X0, reg.X0)
		g.add(reg.X6, reg.X4, reg.X4)
		g.add(reg.X4, reg.X0, reg.X0)
	}
	g.hsumX()
}

// matVecSparseKernel emits matVecSparse<INFIX><T> (matVecSparseSig): for
// each row i in turn, dst[i] = the sparse dot of idx[ptr[i]:ptr[i+1]],
// val[ptr[i]:ptr[i+1]] with w, dotSparseSum's arithmetic (so each is
// DotSparse's result bit for bit), with no call per row. It stops before a
// row whose offsets are not 0 ≤ ptr[i] ≤ ptr[i+1] ≤ len(idx) or that holds
// an index outside w, having written only the rows before it, and returns
// the rows done; len(ptr) == len(dst)+1 and len(val) == len(idx) are the
// caller's checks.
func matVecSparseKernel(f *asmFile, im *implSpec, t elem, v isa) {
	g := f.fn(im, t, v, matVecSparseName(v.name, t), "func"+matVecSparseSig)
	g.Comment("R12 = the row, R13 = len(dst), R14 = &ptr[0], DX = &w[0],",
		"R8 = min(len(w), 2³¹); per row SI, DI, CX as dotSparseSum wants them")
	g.MOVQ(g.param("w", "base"), reg.RDX)
	g.sparseBound("w")
	g.MOVQ(g.param("dst", "len"), reg.R13)
	g.MOVQ(g.param("ptr", "base"), reg.R14)
	g.XORL(reg.R12L, reg.R12L)
	g.Label("row")
	g.CMPQ(reg.R12, reg.R13)
	g.JAE(lbl("done"))
	g.MOVQ(memx(reg.R14, 0, reg.R12, 8), reg.RAX)
	g.MOVQ(memx(reg.R14, 8, reg.R12, 8), reg.RCX)
	g.Comment("ptr[i] ≤ ptr[i+1] ≤ len(idx), as unsigned numbers (a negative one fails)")
	g.CMPQ(reg.RCX, g.param("idx", "len"))
	g.JHI(lbl("done"))
	g.CMPQ(reg.RAX, reg.RCX)
	g.JHI(lbl("done"))
	g.SUBQ(reg.RAX, reg.RCX)
	g.MOVQ(g.param("idx", "base"), reg.RSI)
	g.LEAQ(memx(reg.RSI, 0, reg.RAX, 4), reg.RSI)
	g.MOVQ(g.param("val", "base"), reg.RDI)
	g.LEAQ(memx(reg.RDI, 0, reg.RAX, uint8(t.size)), reg.RDI)
	h := &x86{Context: f.ctx, t: t, v: v, pfx: "dot_"}
	h.dotSparseSum()
	g.MOVQ(g.param("dst", "base"), reg.RAX)
	g.movs(reg.X0, memx(reg.RAX, 0, reg.R12, uint8(t.size)))
	g.INCQ(reg.R12)
	g.JMP(lbl("row"))
	g.Label("dot_bad")
	g.Comment("an index outside w: the row is not written")
	g.Label("done")
	g.MOVQ(reg.R12, g.result())
	g.VZEROUPPER()
	g.RET()
}

// axpySparseKernel emits axpySparse<INFIX><T>(a T, idx []int32, val, y []T) (done int):
// y[idx[i]] += a·val[i] in order, one fused multiply-add per non-zero,
// stopping before the first invalid index; done is the number updated.
func axpySparseKernel(f *asmFile, im *implSpec, t elem, v isa) {
	g := f.fn(im, t, v, "axpySparse"+v.name+t.sfx, "func(a T, idx []int32, val, y []T) (done int)")
	g.Comment("X15 = a, SI = &idx[0], DI = &val[0], DX = &y[0], BX = non-zeros done,",
		"CX = len(idx), R8 = min(len(y), 2³¹)")
	g.movs(g.param("a"), reg.X15)
	g.MOVQ(g.param("idx", "base"), reg.RSI)
	g.MOVQ(g.param("val", "base"), reg.RDI)
	g.MOVQ(g.param("y", "base"), reg.RDX)
	g.MOVQ(g.param("idx", "len"), reg.RCX)
	g.sparseBound("y")
	g.XORL(reg.EBX, reg.EBX)
	// one emits the update of non-zero BX+k (in order: a repeated index
	// reads the value the previous update stored).
	one := func(k int, ix reg.GPPhysical, ta, tb reg.VecPhysical) {
		g.MOVL(memx(reg.RSI, 4*k, reg.RBX, 4), ix.As32())
		g.CMPQ(ix.As64(), reg.R8)
		if k == 0 {
			g.JAE(lbl("done"))
		} else {
			g.JAE(lbl(fmt.Sprintf("done%d", k)))
		}
		g.movs(memx(reg.RDX, 0, ix.As64(), uint8(t.size)), ta)
		g.movs(memx(reg.RDI, k*t.size, reg.RBX, uint8(t.size)), tb)
		g.fmadd231s(reg.X15, tb, ta)
		g.movs(ta, memx(reg.RDX, 0, ix.As64(), uint8(t.size)))
	}
	g.LEAQ(mem(reg.RCX, -4), reg.R9)
	g.Comment("four non-zeros per iteration while BX+4 ≤ CX, then one at a time")
	g.CMPQ(reg.RBX, reg.R9)
	g.JG(lbl("rest"))
	g.Label("loop")
	for k := 0; k < 4; k++ {
		one(k, sparseIdxRegs[k%2*2], xr[k%2], xr[2+k%2])
	}
	g.ADDQ(imm(4), reg.RBX)
	g.CMPQ(reg.RBX, reg.R9)
	g.JLE(lbl("loop"))
	g.Label("rest")
	g.CMPQ(reg.RBX, reg.RCX)
	g.JAE(lbl("done"))
	one(0, reg.RAX, reg.X0, reg.X2)
	g.INCQ(reg.RBX)
	g.JMP(lbl("rest"))
	for k := 1; k < 4; k++ {
		g.Label(fmt.Sprintf("done%d", k))
		g.ADDQ(imm(k), reg.RBX)
		g.JMP(lbl("done"))
	}
	g.Label("done")
	g.MOVQ(reg.RBX, g.result())
	g.VZEROUPPER()
	g.RET()
}
