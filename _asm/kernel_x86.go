package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/ir"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The vector kernels of package kernel for amd64, each written once and
// instantiated for float32 and float64 and for AVX2 (YMM, 32 bytes) and
// AVX-512 (ZMM, 64 bytes). W below is the vector width in bytes.
//
// Conventions for every function:
//   - lengths are turned into byte counts at entry, so both element types
//     share one structure;
//   - all vector loads and stores are unaligned: Go only guarantees 4- or
//     8-byte alignment;
//   - reductions keep independent partial sums so the FMA latency is hidden;
//   - no kernel reads or writes a byte outside its slices. On AVX-512 every
//     tail is one operation under an opmask K1 (masked loads zero the lanes
//     past the end and, like masked stores, suppress faults there). On AVX2
//     a reduction whose length is not a whole number of vectors finishes
//     with the last 32 bytes of the slice, which overlap bytes already
//     summed; those lanes are cleared with VANDPS against a mask from
//     tailMask, so every element counts once (VMASKMOVPS would also be
//     correct on hardware, but emulators such as qemu 7.2 fault on its
//     masked-off bytes past a page end). Inputs shorter than one vector take
//     one XMM vector (plus an overlapping one) or single elements;
//     element-wise kernels finish with one XMM vector and a scalar loop.
//     Scalars are loaded with VMOVSS/VMOVSD, never as a memory operand of
//     the arithmetic: qemu 7.2 reads 16 bytes for those and faults at a page
//     end;
//   - VZEROUPPER before every RET (only Z0-Z15 are used on AVX-512, so it
//     cleans all upper state).

// kernelFuncs emits the five kernels of implementation im for both element
// types into f.
func kernelFuncs(f *asmFile, im *implSpec, v isa) {
	for _, t := range []elem{f32, f64} {
		dotKernel(f, im, t, v, false)
		dotKernel(f, im, t, v, true)
		axpyKernel(f, im, t, v)
		scaleKernel(f, im, t, v)
		matvecKernel(f, im, t, v)
	}
}

// tailMaskData emits the AVX2 mask table: 32 zero bytes then 32 bytes of
// ones. The 32 bytes at tailMask+r (0 ≤ r < 32) have only their last r
// bytes set: ANDed with the last 32 bytes of a slice, they keep the r bytes
// not yet summed. The 16 bytes at tailMask+16+r (0 ≤ r < 16) do the same
// for an XMM vector.
func tailMaskData(f *asmFile) operand.Mem {
	m := f.ctx.StaticGlobal("tailMask")
	f.ctx.DataAttributes(rodataNoptr)
	for i := 0; i < 8; i++ {
		v := uint64(0)
		if i >= 4 {
			v = ^uint64(0)
		}
		f.ctx.AddDatum(8*i, operand.U64(v))
	}
	return m
}

// reduceStep emits one block of a reduction: the x vectors at xs (loaded
// into registers V8.., or given as registers when xreg is set), combined
// with the y operands ys into the accumulators accs. Dot: acc += x·y;
// SqDist: x −= y, acc += x·x.
func (g *x86) reduceStep(sq bool, xs []operand.Op, ys []operand.Op, tmp []reg.VecPhysical, accs []reg.VecPhysical) {
	for i, x := range xs {
		if _, isReg := x.(reg.VecPhysical); !isReg {
			g.movu(x, tmp[i])
		}
	}
	reg := func(i int) reg.VecPhysical {
		if r, ok := xs[i].(reg.VecPhysical); ok {
			return r
		}
		return tmp[i]
	}
	if sq {
		for i := range xs {
			g.sub(ys[i], reg(i), reg(i))
		}
		for i := range xs {
			g.fmadd231(reg(i), reg(i), accs[i])
		}
		return
	}
	for i := range xs {
		g.fmadd231(ys[i], reg(i), accs[i])
	}
}

// vecs returns the n vector operands at disp(base), disp+W(base), ...
func (g *x86) vecs(base reg.Register, disp, n int, index ...reg.Register) []operand.Op {
	ops := make([]operand.Op, n)
	for i := range ops {
		ops[i] = mem(base, disp+i*g.v.vec, index...)
	}
	return ops
}

// vregs returns vector registers first..first+n-1.
func (g *x86) vregs(first, n int) []reg.VecPhysical {
	rs := make([]reg.VecPhysical, n)
	for i := range rs {
		rs[i] = g.V(first + i)
	}
	return rs
}

// dotKernel emits dot (sq false) or sqdist (sq true).
func dotKernel(f *asmFile, im *implSpec, t elem, v isa, sq bool) {
	kind := "dot"
	if sq {
		kind = "sqdist"
	}
	g := f.fn(im, t, v, kind+v.name+t.sfx, "func(x, y []T) T")
	g.Comment("SI = &x[0], DI = &y[0], CX = bytes left")
	g.MOVQ(g.param("x", "base"), reg.RSI)
	g.MOVQ(g.param("y", "base"), reg.RDI)
	g.MOVQ(g.param("x", "len"), reg.RCX)
	g.shiftBytes(reg.RCX)
	g.dotBody(sq)
}

// dotBody emits the body of dot or sqdist from SI = &x[0], DI = &y[0] and
// CX = the length in bytes; it returns through storeResult. Its labels
// carry g's prefix, so several bodies can share one function (dotAuto).
func (g *x86) dotBody(sq bool) {
	v := g.v
	W := v.vec
	vn := "Y"
	if v.masked {
		vn = "Z"
	}
	if v.masked {
		// CX ≤ W as CX < W+1: JB is a form the asmemu interpreter reads
		g.CMPQ(reg.RCX, imm(W+1))
		g.JB(g.L("one"))
		g.CMPQ(reg.RCX, imm(4*W+1))
		g.JB(g.L("mid"))
	}
	if !v.masked {
		// CX ≤ 4W as CX < 4W+1, as above
		g.CMPQ(reg.RCX, imm(4*W+1))
		g.JB(g.L("mid"))
	}
	// AVX-512's main loop adds into eight partial sums. AVX2's adds into
	// four (two FMAs each an iteration) below longLoop bytes: on Zen 3 an
	// AVX2 dot is bound by its two loads a cycle, one FMA a cycle, so four
	// chains of 4-cycle FMAs keep up, and a call of a few hundred elements
	// is bound by its latency more than by its loads (the out-of-order
	// window overlaps little of consecutive calls): four sums leave two
	// levels of adds to the end of the call where eight left three, and
	// spare four zeroing and four folding instructions. From longLoop
	// bytes on, where that is a few percent of the call and a load that
	// comes late (the 32 KiB of two 4096-float32 vectors fill Zen 3's L1)
	// stalls four chains more than eight, AVX2 takes the eight-sum loop
	// (long, after the return below).
	loop := func(name string, second []reg.VecPhysical) {
		g.pcalign(32)
		g.label(name)
		what := "x vectors"
		if sq {
			what = "x-y differences"
		}
		g.Commentf("8 vectors (%d bytes) per iteration; %s8..%s11 = %s", 8*W, vn, vn, what)
		g.reduceStep(sq, g.vecs(reg.RSI, 0, 4), g.vecs(reg.RDI, 0, 4), g.vregs(8, 4), g.vregs(0, 4))
		g.reduceStep(sq, g.vecs(reg.RSI, 4*W, 4), g.vecs(reg.RDI, 4*W, 4), g.vregs(8, 4), second)
		g.ADDQ(imm(8*W), reg.RSI)
		g.ADDQ(imm(8*W), reg.RDI)
		g.SUBQ(imm(8*W), reg.RCX)
		g.CMPQ(reg.RCX, imm(8*W))
		g.JAE(g.L(name))
	}
	fold := func() {
		g.Commentf("fold the loop's eight partial sums into %s0..%s3", vn, vn)
		for i := 0; i < 4; i++ {
			g.add(g.V(4+i), g.V(i), g.V(i))
		}
	}
	if v.masked {
		g.Comment(fmt.Sprintf("%s0..%s3 = four independent partial sums; the main loop adds", vn, vn),
			fmt.Sprintf("%s4..%s7 and folds them in afterwards", vn, vn))
	} else {
		g.Comment(fmt.Sprintf("%s0..%s3 = four independent partial sums; from %d bytes on the", vn, vn, longLoop),
			fmt.Sprintf("main loop (long) adds %s4..%s7 too and folds them in afterwards", vn, vn))
	}
	g.zero(0, 1, 2, 3)
	g.CMPQ(reg.RCX, imm(8*W))
	g.JB(g.L("tail"))
	if v.masked {
		g.zero(4, 5, 6, 7)
		loop("loop", g.vregs(4, 4))
		fold()
	} else {
		g.CMPQ(reg.RCX, imm(longLoop))
		g.JAE(g.L("long"))
		loop("loop", g.vregs(0, 4))
		g.label("join")
	}
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(g.L("sum"))

	g.label("tail")
	g.Commentf("CX < %d: 4, 2 and 1 whole vectors as the bits of CX say, then", 8*W)
	if v.masked {
		g.Comment("one masked vector, spread over the partial sums so that no sum")
	} else {
		g.Comment("the overlapping masked last vector, spread over the partial sums so that no sum")
	}
	g.Comment("takes more than two of these steps")
	// blocks of 4, 2, 1 vectors into the sums 0-3, 2-3, 0
	for _, b := range []struct{ n, acc int }{{4, 0}, {2, 2}, {1, 0}} {
		next := fmt.Sprintf("tail%d", b.n*W/2)
		if b.n == 1 {
			next = "tailmask"
		}
		if b.n != 4 {
			g.label(fmt.Sprintf("tail%d", b.n*W))
		}
		g.CMPQ(reg.RCX, imm(b.n*W))
		g.JB(g.L(next))
		g.reduceStep(sq, g.vecs(reg.RSI, 0, b.n), g.vecs(reg.RDI, 0, b.n), g.vregs(8, b.n), g.vregs(b.acc, b.n))
		g.ADDQ(imm(b.n*W), reg.RSI)
		g.ADDQ(imm(b.n*W), reg.RDI)
		g.SUBQ(imm(b.n*W), reg.RCX)
	}

	g.label("tailmask")
	x8, x9 := g.V(8), g.V(9)
	if v.masked {
		g.Comment("CX < 64 bytes left: K1 = one bit per remaining element,")
		if sq {
			g.Comment("Z8, Z9 = the masked x and y lanes (zero elsewhere, so 0-0 there)")
		} else {
			g.Comment("Z8, Z9 = the masked x and y lanes (zero elsewhere)")
		}
		g.TESTQ(reg.RCX, reg.RCX)
		g.JZ(g.L("sum"))
		g.kmask()
		g.movuZ(mem(reg.RSI, 0), reg.K1, x8)
		g.movuZ(mem(reg.RDI, 0), reg.K1, x9)
	} else {
		g.Comment("0 < CX < 32 bytes left: Y12 = mask of the last CX bytes of a vector;",
			"Y8, Y9 = the last 32 bytes of x and y (in bounds: the input is at")
		if sq {
			g.Comment("least 32 bytes long) with the lanes already summed cleared (0-0 there)")
		} else {
			g.Comment("least 32 bytes long) with the lanes already summed cleared")
		}
		g.TESTQ(reg.RCX, reg.RCX)
		g.JZ(g.L("sum"))
		g.LEAQ(tailMask, reg.RAX)
		g.VMOVDQU(mem(reg.RAX, 0, reg.RCX), reg.Y12)
		g.and(mem(reg.RSI, -32, reg.RCX), reg.Y12, reg.Y8)
		g.and(mem(reg.RDI, -32, reg.RCX), reg.Y12, reg.Y9)
	}
	g.reduceStep(sq, []operand.Op{x8}, []operand.Op{x9}, nil, []reg.VecPhysical{g.V(1)})

	g.label("sum")
	if v.masked {
		g.Comment("pairwise sum of the four partial sums, fold to YMM, then across lanes")
	} else {
		g.Comment("pairwise sum of the four partial sums, then across lanes")
	}
	g.add(g.V(1), g.V(0), g.V(0))
	g.add(g.V(3), g.V(2), g.V(2))
	g.add(g.V(2), g.V(0), g.V(0))
	if v.masked {
		g.fold(0, 1)
	}
	g.hsum()
	g.storeResult()
	g.VZEROUPPER()
	g.RET()

	if !v.masked {
		g.label("long")
		g.Commentf("CX ≥ %d: the main loop with eight partial sums", longLoop)
		g.zero(4, 5, 6, 7)
		loop("loop8", g.vregs(4, 4))
		fold()
		g.JMP(g.L("join"))
	}

	if v.masked {
		g.pcalign(hotAlign)
		g.label("one")
		g.Comment("CX ≤ 64 bytes: one vector under the mask K1 (one bit per element),",
			"no partial sums to set up or fold: Z0 = x·y or (x−y)², then across lanes",
			"(out of the way of longer inputs, for which the JB above is not taken)")
		g.kmasks(0, false)
		g.movuZ(mem(reg.RSI, 0), reg.K1, reg.Z0)
		g.movuZ(mem(reg.RDI, 0), reg.K1, reg.Z1)
		if sq {
			g.sub(reg.Z1, reg.Z0, reg.Z0)
			g.mul(reg.Z0, reg.Z0, reg.Z0)
		} else {
			g.mul(reg.Z1, reg.Z0, reg.Z0)
		}
		g.zmmReturn()

		g.midBody(sq)
		return
	}
	g.midBodyAVX2(sq)
}

// longLoop is the length in bytes from which AVX2's dot and sqdist take
// their main loop with eight partial sums, not four (dotBody): 1024
// float32, 512 float64.
const longLoop = 4096

// midBodyAVX2 emits the AVX2 path of dotBody for CX ≤ 128 bytes (up to 32
// float32, 16 float64): straight-line code, as midBody is for AVX-512, but
// without masked loads, which AVX2 CPUs such as Zen 3 lack or run slowly
// and emulators fault on past a page end. Each whole vector is one
// multiply (the first into Y0, the second into Y1, no partial sums to
// zero or fold); the bytes past the last whole vector come from the last
// 32 bytes of the slice, which overlap bytes already summed, with those
// lanes cleared by a tailMask AND (all lanes kept at 96 bytes). Exactly
// 16, 64 and 128 bytes take whole vectors alone. Below 32 bytes the same
// with XMM vectors, and below 16 bytes a scalar loop.
func (g *x86) midBodyAVX2(sq bool) {
	W := g.v.vec
	prod := func(disp int, acc, t reg.VecPhysical, first bool) { g.prod(sq, disp, nil, acc, t, first) }
	// last emits acc += the product of the last w bytes of x and y (w = 32:
	// YMM, 16: XMM) with the mask at AX+disp+CX, of their last CX+disp bytes:
	// the lanes already summed are cleared (0·0, or 0−0 for sqdist)
	last := func(w, disp int, acc reg.VecPhysical) {
		m, x, y := reg.Y12, reg.Y8, reg.Y9
		if w == 16 {
			m, x, y = reg.X12, reg.X8, reg.X9
		}
		g.VMOVDQU(mem(reg.RAX, disp, reg.RCX), m)
		g.and(mem(reg.RSI, -w, reg.RCX), m, x)
		g.and(mem(reg.RDI, -w, reg.RCX), m, y)
		g.reduceStep(sq, []operand.Op{x}, []operand.Op{y}, nil, []reg.VecPhysical{acc})
	}
	ret := func(two bool) {
		if two {
			g.add(reg.Y1, reg.Y0, reg.Y0)
		}
		g.hsum()
		g.storeResult()
		g.VZEROUPPER()
		g.RET()
	}
	g.label("mid")
	g.Commentf("CX ≤ %d bytes: below %d, XMM vectors or single elements; else Y0 = the", 4*W, W)
	g.Comment("product over the first vector, then the last 32 bytes masked to the",
		"CX−32 not yet summed (AX = tailMask), or, at exactly 64, the second vector")
	g.CMPQ(reg.RCX, imm(W))
	g.JB(g.L("small"))
	prod(0, reg.Y0, reg.Y0, true)
	g.CMPQ(reg.RCX, imm(2*W+1))
	g.JAE(g.L("mid3"))
	g.CMPQ(reg.RCX, imm(2*W))
	g.JE(g.L("mid2w"))
	g.LEAQ(tailMask, reg.RAX)
	last(W, -W, reg.Y0)
	ret(false)
	g.label("mid2w")
	prod(W, reg.Y0, reg.Y1, false)
	ret(false)

	g.label("mid3")
	g.Commentf("%d < CX ≤ %d: Y1 = the product over the second vector; above %d a third", 2*W, 4*W, 3*W)
	g.Comment("into Y0; then the last 32 bytes masked to those not yet summed, or, at",
		"exactly 128, the fourth vector")
	prod(W, reg.Y1, reg.Y1, true)
	g.CMPQ(reg.RCX, imm(3*W+1))
	g.JAE(g.L("mid4"))
	g.LEAQ(tailMask, reg.RAX)
	last(W, -2*W, reg.Y0)
	ret(true)
	g.label("mid4")
	prod(2*W, reg.Y0, reg.Y2, false)
	g.CMPQ(reg.RCX, imm(4*W))
	g.JE(g.L("mid4w"))
	g.LEAQ(tailMask, reg.RAX)
	last(W, -3*W, reg.Y1)
	ret(true)
	g.label("mid4w")
	prod(3*W, reg.Y1, reg.Y3, false)
	ret(true)

	g.label("small")
	g.Comment("CX < 32 bytes: X0 = the product over the first 16 bytes, then the last",
		"16 masked to the CX−16 not yet summed; below 16 bytes, single elements")
	g.CMPQ(reg.RCX, imm(16))
	g.JB(g.L("scalar"))
	prod(0, reg.X0, reg.X0, true)
	g.CMPQ(reg.RCX, imm(16))
	g.JE(g.L("smallsum"))
	g.LEAQ(tailMask.Offset(16), reg.RAX)
	last(16, -16, reg.X0)
	g.label("smallsum")
	g.hsumX()
	g.storeResult()
	g.VZEROUPPER()
	g.RET()

	g.label("scalar")
	g.Comment("X0[0] = the sum, the other lanes zero (the scalar FMAs keep them)")
	g.xor(reg.X0, reg.X0, reg.X0)
	g.TESTQ(reg.RCX, reg.RCX)
	g.JZ(g.L("done"))
	g.label("scalarloop")
	g.movs(mem(reg.RSI, 0), reg.X8)
	g.movs(mem(reg.RDI, 0), reg.X9)
	if sq {
		g.subs(reg.X9, reg.X8, reg.X8)
		g.fmadd231s(reg.X8, reg.X8, reg.X0)
	} else {
		g.fmadd231s(reg.X9, reg.X8, reg.X0)
	}
	g.ADDQ(imm(g.t.size), reg.RSI)
	g.ADDQ(imm(g.t.size), reg.RDI)
	g.SUBQ(imm(g.t.size), reg.RCX)
	g.JNZ(g.L("scalarloop"))
	g.label("done")
	g.storeResult()
	g.VZEROUPPER()
	g.RET()
}

// kMaskData emits the AVX-512 opmask tables of the short dot paths, one
// per element type: at byte offset r (a multiple of the element size, 0 ≤
// r ≤ 2W) an element-sized entry with its low r/size bits set. KMOVW from
// kMask+r is then the mask of the first r bytes of a vector (the bits past
// the vector's lanes are ignored), and KMOVW from kMask+r+lanes/8 that of
// the r−W bytes of the next one: a load instead of a shift, a decrement and
// a move from a general register, and no masks to compute from n.
func kMaskData(f *asmFile) {
	for _, t := range []elem{f32, f64} {
		f.ctx.StaticGlobal(kMaskName(t))
		f.ctx.DataAttributes(rodataNoptr)
		W := avx512.vec
		for r := 0; r <= 2*W; r += t.size {
			e := r / t.size
			if t.size == 4 {
				f.ctx.AddDatum(r, operand.U32(uint32(1)<<e-1))
			} else {
				f.ctx.AddDatum(r, operand.U64(uint64(1)<<e-1))
			}
		}
	}
}

// kMaskName is the symbol of the opmask table of element type t (kMaskData).
func kMaskName(t elem) string { return "kMask" + t.sfx }

// kmasks sets K1 to the mask of the first CX+disp bytes of a vector, from
// the table kMaskData emits, and, if both, K2 to that of the CX+disp−W
// bytes past it; CX is a multiple of the element size with 0 ≤ CX+disp ≤
// 2W (clobbers AX).
func (g *x86) kmasks(disp int, both bool) {
	g.LEAQ(operand.NewDataAddr(operand.NewStaticSymbol(kMaskName(g.t)), 0), reg.RAX)
	g.KMOVW(mem(reg.RAX, disp, reg.RCX), reg.K1)
	if both {
		g.KMOVW(mem(reg.RAX, disp+g.lanes()/8, reg.RCX), reg.K2)
	}
}

// tailMask is the AVX2 mask table of the file (tailMaskData).
var tailMask = operand.NewDataAddr(operand.NewStaticSymbol("tailMask"), 0)

// axpyKernel emits axpy: y += a·x, one FMA per element.
func axpyKernel(f *asmFile, im *implSpec, t elem, v isa) {
	elementwise(f, im, t, v, true)
}

// scaleKernel emits scale: x *= a.
func scaleKernel(f *asmFile, im *implSpec, t elem, v isa) {
	elementwise(f, im, t, v, false)
}

// elementwise emits axpy (axpy true) or scale.
func elementwise(f *asmFile, im *implSpec, t elem, v isa, axpy bool) {
	name, sig := "scale", "func(a T, x []T)"
	if axpy {
		name, sig = "axpy", "func(a T, x, y []T)"
	}
	g := f.fn(im, t, v, name+v.name+t.sfx, sig)
	W := v.vec
	vn := "Y"
	if v.masked {
		vn = "Z"
	}
	if axpy {
		g.Commentf("%s0 = a in every lane, SI = &x[0], DI = &y[0], CX = bytes left", vn)
	} else {
		g.Commentf("%s0 = a in every lane, SI = &x[0], CX = bytes left", vn)
	}
	g.broadcast(g.param("a"), g.V(0))
	g.MOVQ(g.param("x", "base"), reg.RSI)
	if axpy {
		g.MOVQ(g.param("y", "base"), reg.RDI)
	}
	g.MOVQ(g.param("x", "len"), reg.RCX)
	g.shiftBytes(reg.RCX)
	g.CMPQ(reg.RCX, imm(4*W))
	g.JB(lbl("tail"))
	g.pcalign(32)

	// step emits n vectors at the pointers' current position, through
	// registers 1..n of width w.
	step := func(n int, rs []reg.VecPhysical, a reg.VecPhysical) {
		w := int(rs[0].Size())
		if axpy {
			for i := 0; i < n; i++ {
				g.movu(mem(reg.RSI, i*w), rs[i])
			}
			for i := 0; i < n; i++ {
				g.fmadd213(mem(reg.RDI, i*w), a, rs[i])
			}
			for i := 0; i < n; i++ {
				g.movu(rs[i], mem(reg.RDI, i*w))
			}
		} else {
			for i := 0; i < n; i++ {
				g.mul(mem(reg.RSI, i*w), a, rs[i])
			}
			for i := 0; i < n; i++ {
				g.movu(rs[i], mem(reg.RSI, i*w))
			}
		}
		g.ADDQ(imm(n*w), reg.RSI)
		if axpy {
			g.ADDQ(imm(n*w), reg.RDI)
		}
		g.SUBQ(imm(n*w), reg.RCX)
	}

	g.Label("loop")
	if axpy {
		g.Commentf("4 vectors (%d bytes) per iteration: %sk = a*x + y, stored to y", 4*W, vn)
	} else {
		g.Commentf("4 vectors (%d bytes) per iteration: %sk = a*x, stored back to x", 4*W, vn)
	}
	step(4, g.vregs(1, 4), g.V(0))
	g.CMPQ(reg.RCX, imm(4*W))
	g.JAE(lbl("loop"))

	g.Label("tail")
	if v.masked {
		g.Commentf("CX < %d: 2 and 1 whole vectors, then one masked vector", 4*W)
	} else {
		g.Commentf("CX < %d: 2 and 1 whole vectors, one XMM vector, then single elements", 4*W)
	}
	g.CMPQ(reg.RCX, imm(2*W))
	g.JB(lbl(fmt.Sprintf("tail%d", W)))
	step(2, g.vregs(1, 2), g.V(0))
	g.Label(fmt.Sprintf("tail%d", W))
	g.CMPQ(reg.RCX, imm(W))
	if v.masked {
		g.JB(lbl("tailmask"))
		step(1, g.vregs(1, 1), g.V(0))
		g.Label("tailmask")
		g.Comment("CX < 64 bytes left: K1 = one bit per remaining element,")
		if axpy {
			g.Comment("Z1 = masked x, Z2 = masked y, then Z2 += a*Z1 stored under K1")
		} else {
			g.Comment("Z1 = a * masked x, stored under K1")
		}
		g.TESTQ(reg.RCX, reg.RCX)
		g.JZ(lbl("done"))
		g.kmask()
		g.movuZ(mem(reg.RSI, 0), reg.K1, reg.Z1)
		if axpy {
			g.movuZ(mem(reg.RDI, 0), reg.K1, reg.Z2)
			g.fmadd231(reg.Z1, reg.Z0, reg.Z2)
			g.movu(reg.Z2, reg.K1, mem(reg.RDI, 0))
		} else {
			g.mul(reg.Z1, reg.Z0, reg.Z1)
			g.movu(reg.Z1, reg.K1, mem(reg.RSI, 0))
		}
	} else {
		g.JB(lbl("tail16"))
		step(1, g.vregs(1, 1), g.V(0))
		g.Label("tail16")
		g.CMPQ(reg.RCX, imm(16))
		g.JB(lbl("scalar"))
		step(1, []reg.VecPhysical{reg.X1}, reg.X0)

		g.Label("scalar")
		if axpy {
			g.Commentf("fewer than 16 bytes left: one element at a time, X1 = a*x[i] + y[i].")
		} else {
			g.Comment("fewer than 16 bytes left: one element at a time, X1 = a*x[i]")
		}
		g.TESTQ(reg.RCX, reg.RCX)
		g.JZ(lbl("done"))
		g.Label("scalarloop")
		g.movs(mem(reg.RSI, 0), reg.X1)
		if axpy {
			g.movs(mem(reg.RDI, 0), reg.X2)
			g.fmadd213s(reg.X2, reg.X0, reg.X1)
			g.movs(reg.X1, mem(reg.RDI, 0))
		} else {
			g.muls(reg.X1, reg.X0, reg.X1)
			g.movs(reg.X1, mem(reg.RSI, 0))
		}
		g.ADDQ(imm(t.size), reg.RSI)
		if axpy {
			g.ADDQ(imm(t.size), reg.RDI)
		}
		g.SUBQ(imm(t.size), reg.RCX)
		g.JNZ(lbl("scalarloop"))
	}

	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// matvecKernel emits matvec: dst[i] = row i of the row-major len(dst)×len(w)
// matrix m times w, four rows at a time (each load of w shared by the four),
// the remaining rows one at a time as dot does. Below 1 MiB the four rows
// of a block are i, i+q, i+2q and i+3q (q = len(dst)/4), so that each load
// instruction streams through one quarter of the matrix: on Zen 5 (d = 784
// float32, 200 rows, from L2) that took the kernel from 32 to 20 ns per row
// (AVX-512; AVX2 34 to 23), where four consecutive rows, each load jumping
// three rows ahead at every block, kept the prefetchers from following
// (BenchmarkPredictBound, bench/results/perceptron/predict-bound-zen5-matvec-ab.txt).
// From 1 MiB on the blocks are four consecutive rows, prefetched (AVX2) as
// one stream.
func matvecKernel(f *asmFile, im *implSpec, t elem, v isa) {
	g := f.fn(im, t, v, "matvec"+v.name+t.sfx, "func(dst, m, w []T)")
	W := v.vec
	if v.masked {
		g.Comment("DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],",
			fmt.Sprintf("R8 = row length in bytes (d*%d), R12 = R8 rounded down to %d bytes,", t.size, 2*W),
			"R13 = R8 mod 64 (bytes of the masked tail), K1 = its element mask")
	} else {
		g.Comment("DX = &dst[i], BX = rows left, SI = &m[i*d], DI = &w[0],",
			fmt.Sprintf("R8 = row length in bytes (d*%d), R12 = R8 rounded down to 64 bytes,", t.size),
			"Y12 = mask keeping the last R8 mod 32 bytes of a vector,",
			"X13 = mask keeping the last R8 mod 16 bytes of an XMM vector")
	}
	g.MOVQ(g.param("dst", "base"), reg.RDX)
	g.MOVQ(g.param("dst", "len"), reg.RBX)
	g.MOVQ(g.param("m", "base"), reg.RSI)
	g.MOVQ(g.param("w", "base"), reg.RDI)
	g.MOVQ(g.param("w", "len"), reg.R8)
	g.shiftBytes(reg.R8)
	g.MOVQ(reg.R8, reg.R12)
	g.ANDQ(imm(-2*W), reg.R12)
	if v.masked {
		g.MOVQ(reg.R8, reg.R13)
		g.ANDQ(imm(63), reg.R13)
		g.MOVQ(reg.R13, reg.RCX)
		g.kmask()
		g.CMPQ(reg.RBX, imm(4))
		g.JB(lbl("rows1"))
	} else {
		g.LEAQ(tailMask, reg.RAX)
		g.MOVQ(reg.R8, reg.RCX)
		g.ANDQ(imm(31), reg.RCX)
		g.VMOVDQU(mem(reg.RAX, 0, reg.RCX), reg.Y12)
		g.MOVQ(reg.R8, reg.RCX)
		g.ANDQ(imm(15), reg.RCX)
		g.VMOVDQU(mem(reg.RAX, 16, reg.RCX), reg.X13)
		g.CMPQ(reg.R8, imm(32))
		g.JB(lbl("rows1"))
		g.CMPQ(reg.RBX, imm(4))
		g.JB(lbl("rows1"))
	}

	g.Comment("CX = the matrix's size in bytes: from 1 MiB on (beyond L2) the rows are",
		"taken four consecutive ones at a time (block4), below it from the four",
		"quarters of the matrix (quarters)")
	g.MOVQ(reg.RBX, reg.RCX)
	g.IMULQ(reg.R8, reg.RCX)
	g.CMPQ(reg.RCX, imm32(0x100000))
	g.JAE(lbl("block4"))

	g.Comment("rows i, i+q, i+2q and i+3q together for i < q = BX/4, so that each",
		"load instruction of the loop reads one contiguous stream (a quarter of",
		"the matrix) rather than jumping ahead by three rows every block; the",
		"hardware prefetchers follow such streams. CX = q, R14 = q rows in",
		"bytes, BX = blocks left; the rows 4q… are left to rows1")
	g.MOVQ(reg.RBX, reg.RCX)
	g.SHRQ(operand.Imm(2), reg.RCX)
	g.MOVQ(reg.RCX, reg.R14)
	g.IMULQ(reg.R8, reg.R14)
	g.MOVQ(reg.RCX, reg.RBX)
	g.Label("quarters")
	g.LEAQ(mem(reg.RSI, 0, reg.R14), reg.R9)
	g.LEAQ(mem(reg.R9, 0, reg.R14), reg.R10)
	g.LEAQ(mem(reg.R10, 0, reg.R14), reg.R11)
	matvecBlock4(g, "quarters", false)
	g.Comment("the four row sums to dst[i], dst[i+q], dst[i+2q], dst[i+3q]; next block")
	sc := uint8(t.size)
	if t.is32() {
		g.VMOVSS(reg.X0, mem(reg.RDX, 0))
		g.VEXTRACTPS(operand.Imm(1), reg.X0, memx(reg.RDX, 0, reg.RCX, sc))
		g.LEAQ(memx(reg.RDX, 0, reg.RCX, 2*sc), reg.R9)
		g.VEXTRACTPS(operand.Imm(2), reg.X0, mem(reg.R9, 0))
		g.VEXTRACTPS(operand.Imm(3), reg.X0, memx(reg.R9, 0, reg.RCX, sc))
	} else {
		g.VMOVSD(reg.X0, mem(reg.RDX, 0))
		g.VMOVHPD(reg.X0, memx(reg.RDX, 0, reg.RCX, sc))
		g.VEXTRACTF128(operand.Imm(1), reg.Y0, reg.X1)
		g.LEAQ(memx(reg.RDX, 0, reg.RCX, sc), reg.R9)
		g.VMOVSD(reg.X1, memx(reg.R9, 0, reg.RCX, sc))
		g.LEAQ(memx(reg.R9, 0, reg.RCX, sc), reg.R9)
		g.VMOVHPD(reg.X1, memx(reg.R9, 0, reg.RCX, sc))
	}
	g.ADDQ(imm(t.size), reg.RDX)
	g.ADDQ(reg.R8, reg.RSI)
	g.DECQ(reg.RBX)
	g.JNZ(lbl("quarters"))
	g.Comment("SI, DX = row 4q and its dst; BX = the len(dst) mod 4 rows left")
	g.LEAQ(mem(reg.RSI, 0, reg.R14), reg.RSI)
	g.LEAQ(memx(reg.RSI, 0, reg.R14, 2), reg.RSI)
	g.LEAQ(memx(reg.RCX, 0, reg.RCX, 2), reg.R9)
	g.LEAQ(memx(reg.RDX, 0, reg.R9, sc), reg.RDX)
	g.MOVQ(g.param("dst", "len"), reg.RBX)
	g.ANDQ(imm(3), reg.RBX)
	g.JMP(lbl("rows1"))

	g.Label("block4")
	g.LEAQ(mem(reg.RSI, 0, reg.R8), reg.R9)
	g.LEAQ(mem(reg.R9, 0, reg.R8), reg.R10)
	g.LEAQ(mem(reg.R10, 0, reg.R8), reg.R11)
	if !v.masked {
		g.LEAQ(mem(reg.R11, 0, reg.R8), reg.R13)
	}
	matvecBlock4(g, "block4", !v.masked)
	res, resBytes := "X0", 16
	if !t.is32() {
		res, resBytes = "Y0", 32
	}
	g.Commentf("%s = the four row sums, stored to dst[i:i+4]; next block", res)
	if t.is32() {
		g.movu(reg.X0, mem(reg.RDX, 0))
	} else {
		g.movu(reg.Y0, mem(reg.RDX, 0))
	}
	g.ADDQ(imm(resBytes), reg.RDX)
	g.LEAQ(mem(reg.R11, 0, reg.R8), reg.RSI)
	g.SUBQ(imm(4), reg.RBX)
	g.CMPQ(reg.RBX, imm(4))
	g.JAE(lbl("block4"))

	g.Label("rows1")
	if v.masked {
		g.Comment("the last BX < 4 rows one at a time, like dot:",
			"R9 = R8 rounded down to 256 bytes, SI = the row, AX = byte offset,",
			"Z0..Z3 = partial sums, Z8..Z11 = w vectors")
	} else {
		g.Comment("the remaining rows one at a time (all of them if a row is shorter",
			"than 32 bytes), like dot: R9 = R8 rounded down to 128 bytes,",
			"SI = the row, AX = byte offset, Y0..Y3 = partial sums,",
			"Y8..Y11 = w vectors")
	}
	g.TESTQ(reg.RBX, reg.RBX)
	g.JZ(lbl("done"))
	g.MOVQ(reg.R8, reg.R9)
	g.ANDQ(imm(-4*W), reg.R9)

	g.Label("row")
	g.zero(0, 1, 2, 3)
	g.XORL(reg.EAX, reg.EAX)
	if !v.masked {
		g.CMPQ(reg.R8, imm(32))
		g.JB(lbl("rowsmall"))
	}
	g.CMPQ(reg.RAX, reg.R9)
	g.JAE(lbl(fmt.Sprintf("rowv%d", 2*W)))
	g.pcalign(32)

	g.Label("rowloop")
	g.Commentf("4 vectors (%d bytes) per iteration", 4*W)
	for i := 0; i < 4; i++ {
		g.movu(mem(reg.RDI, i*W, reg.RAX), g.V(8+i))
	}
	for i := 0; i < 4; i++ {
		g.fmadd231(mem(reg.RSI, i*W, reg.RAX), g.V(8+i), g.V(i))
	}
	g.ADDQ(imm(4*W), reg.RAX)
	g.CMPQ(reg.RAX, reg.R9)
	g.JB(lbl("rowloop"))

	g.Label(fmt.Sprintf("rowv%d", 2*W))
	if v.masked {
		g.Comment("2 and 1 whole vectors as the bits of R8 say, then the masked tail")
	} else {
		g.Comment("2 and 1 whole vectors as the bits of R8 say, then the masked",
			"overlapping last vector")
	}
	g.TESTQ(imm32(2*W), reg.R8)
	g.JZ(lbl(fmt.Sprintf("rowv%d", W)))
	g.movu(mem(reg.RDI, 0, reg.RAX), g.V(8))
	g.movu(mem(reg.RDI, W, reg.RAX), g.V(9))
	g.fmadd231(mem(reg.RSI, 0, reg.RAX), g.V(8), g.V(0))
	g.fmadd231(mem(reg.RSI, W, reg.RAX), g.V(9), g.V(1))
	g.ADDQ(imm(2*W), reg.RAX)

	g.Label(fmt.Sprintf("rowv%d", W))
	g.TESTQ(imm32(W), reg.R8)
	if v.masked {
		g.JZ(lbl("rowmask"))
	} else {
		g.JZ(lbl("rowtail"))
	}
	g.movu(mem(reg.RDI, 0, reg.RAX), g.V(8))
	g.fmadd231(mem(reg.RSI, 0, reg.RAX), g.V(8), g.V(2))
	if v.masked {
		g.ADDQ(imm(W), reg.RAX)
		g.Label("rowmask")
		g.TESTQ(reg.R13, reg.R13)
		g.JZ(lbl("rowsum"))
		g.movuZ(mem(reg.RDI, 0, reg.RAX), reg.K1, reg.Z8)
		g.movuZ(mem(reg.RSI, 0, reg.RAX), reg.K1, reg.Z9)
		g.fmadd231(reg.Z9, reg.Z8, reg.Z3)
	} else {
		g.Label("rowtail")
		g.TESTQ(imm32(31), reg.R8)
		g.JZ(lbl("rowsum"))
		g.and(mem(reg.RDI, -32, reg.R8), reg.Y12, reg.Y8)
		g.and(mem(reg.RSI, -32, reg.R8), reg.Y12, reg.Y9)
		g.fmadd231(reg.Y9, reg.Y8, reg.Y3)
		g.JMP(lbl("rowsum"))

		g.Label("rowsmall")
		g.Comment("a row shorter than 32 bytes: one XMM vector and the overlapping last",
			"16 bytes masked by X13, or single elements")
		g.CMPQ(reg.R8, imm(16))
		g.JB(lbl("rowscalar"))
		g.movu(mem(reg.RDI, 0), reg.X8)
		g.fmadd231(mem(reg.RSI, 0), reg.X8, reg.X0)
		g.TESTQ(imm32(15), reg.R8)
		g.JZ(lbl("rowsum"))
		g.and(mem(reg.RDI, -16, reg.R8), reg.X13, reg.X8)
		g.and(mem(reg.RSI, -16, reg.R8), reg.X13, reg.X9)
		g.fmadd231(reg.X9, reg.X8, reg.X1)
		g.JMP(lbl("rowsum"))

		g.Label("rowscalar")
		g.CMPQ(reg.RAX, reg.R8)
		g.JAE(lbl("rowsum"))
		g.movs(mem(reg.RDI, 0, reg.RAX), reg.X8)
		g.movs(mem(reg.RSI, 0, reg.RAX), reg.X9)
		g.fmadd231s(reg.X9, reg.X8, reg.X0)
		g.ADDQ(imm(t.size), reg.RAX)
		g.JMP(lbl("rowscalar"))
	}

	g.Label("rowsum")
	g.Comment("X0[0] = the row sum, stored to dst[i]; next row")
	g.add(g.V(1), g.V(0), g.V(0))
	g.add(g.V(3), g.V(2), g.V(2))
	g.add(g.V(2), g.V(0), g.V(0))
	if v.masked {
		g.fold(0, 1)
	}
	g.hsum()
	g.movs(reg.X0, mem(reg.RDX, 0))
	g.ADDQ(imm(t.size), reg.RDX)
	g.ADDQ(reg.R8, reg.RSI)
	g.DECQ(reg.RBX)
	g.JNZ(lbl("row"))

	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// matvecBlock4 emits the body of one block of four rows (SI, R9, R10, R11),
// labels prefixed with p: the products with w (2 vectors per iteration,
// each load of w shared by the four rows; the block4 path of the AVX2
// variant, pf, prefetches the next four rows, R13, as it goes), the tail
// and the four sums, left in the lanes of X0 (float32) or Y0 (float64).
// Each row's sum is added in the same order whichever rows share its
// block, so a row's result does not depend on the path.
func matvecBlock4(g *x86, p string, pf bool) {
	W := g.v.vec
	rows := []reg.Register{reg.RSI, reg.R9, reg.R10, reg.R11}
	if g.v.masked {
		g.Comment("four rows at a time, each load of w shared by the four:",
			"SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,",
			"Z0..Z3 and Z4..Z7 = partial sums of rows 0..3 (even / odd vectors),",
			"Z8, Z9 = w vectors")
	} else {
		g.Comment("four rows (of at least 32 bytes) at a time, each load of w shared by",
			"the four: SI, R9, R10, R11 = rows 0..3, AX = byte offset in the row,",
			"Y0..Y3 and Y4..Y7 = partial sums of rows 0..3 (even / odd vectors),",
			"Y8, Y9 = w vectors")
	}
	g.zero(0, 1, 2, 3, 4, 5, 6, 7)
	g.XORL(reg.EAX, reg.EAX)
	g.CMPQ(reg.RAX, reg.R12)
	g.JAE(lbl(fmt.Sprintf("%sv%d", p, W)))
	g.pcalign(32)

	// block2 emits 2 vectors of each of the four rows at offset AX.
	block2 := func() {
		g.movu(mem(reg.RDI, 0, reg.RAX), g.V(8))
		g.movu(mem(reg.RDI, W, reg.RAX), g.V(9))
		for r := 0; r < 4; r++ {
			g.fmadd231(mem(rows[r], 0, reg.RAX), g.V(8), g.V(r))
		}
		for r := 0; r < 4; r++ {
			g.fmadd231(mem(rows[r], W, reg.RAX), g.V(9), g.V(4+r))
		}
		g.ADDQ(imm(2*W), reg.RAX)
		g.CMPQ(reg.RAX, reg.R12)
	}
	g.Label(p + "loop")
	if pf {
		g.Comment("a matrix of 1 MiB or more: while the four rows are read, the next",
			"four (4·R8 contiguous bytes from R13) are prefetched in order, 256",
			"bytes per iteration: a matrix streamed from DRAM is then fetched as one",
			"stream rather than as four interleaved ones")
		for i := 0; i < 4; i++ {
			g.PREFETCHT0(memx(reg.R13, 64*i, reg.RAX, 4))
		}
	}
	g.Commentf("2 vectors (%d bytes) of each of the four rows", 2*W)
	block2()
	g.JB(lbl(p + "loop"))

	g.Label(fmt.Sprintf("%sv%d", p, W))
	g.Commentf("one whole vector if the row has %d more bytes", W)
	next := p + "tail"
	if g.v.masked {
		next = p + "mask"
	}
	g.TESTQ(imm32(W), reg.R8)
	g.JZ(lbl(next))
	g.movu(mem(reg.RDI, 0, reg.RAX), g.V(8))
	for r := 0; r < 4; r++ {
		g.fmadd231(mem(rows[r], 0, reg.RAX), g.V(8), g.V(r))
	}
	if g.v.masked {
		g.ADDQ(imm(W), reg.RAX)
		g.Label(p + "mask")
		g.Comment("the R13-byte tail under K1: Z8 = masked w, Z9..Z11 = masked row lanes")
		g.TESTQ(reg.R13, reg.R13)
		g.JZ(lbl(p + "sum"))
		g.movuZ(mem(reg.RDI, 0, reg.RAX), reg.K1, reg.Z8)
		for r := 0; r < 3; r++ {
			g.movuZ(mem(rows[r], 0, reg.RAX), reg.K1, zr[9+r])
		}
		for r := 0; r < 3; r++ {
			g.fmadd231(zr[9+r], reg.Z8, zr[4+r])
		}
		g.movuZ(mem(rows[3], 0, reg.RAX), reg.K1, reg.Z9)
		g.fmadd231(reg.Z9, reg.Z8, reg.Z7)
	} else {
		g.Label(p + "tail")
		g.Comment("the last R8 mod 32 bytes: the last 32 bytes of w and of each row,",
			"ANDed with Y12 so the lanes already summed are cleared;",
			"Y8 = w, Y9..Y11 = rows")
		g.TESTQ(imm32(31), reg.R8)
		g.JZ(lbl(p + "sum"))
		g.and(mem(reg.RDI, -32, reg.R8), reg.Y12, reg.Y8)
		for r := 0; r < 3; r++ {
			g.and(mem(rows[r], -32, reg.R8), reg.Y12, yr[9+r])
		}
		for r := 0; r < 3; r++ {
			g.fmadd231(yr[9+r], reg.Y8, yr[4+r])
		}
		g.and(mem(rows[3], -32, reg.R8), reg.Y12, reg.Y9)
		g.fmadd231(reg.Y9, reg.Y8, reg.Y7)
	}

	g.Label(p + "sum")
	if g.v.masked {
		g.Comment("Y0..Y3 = row partial sums folded to YMM, then the four row sums")
	} else {
		g.Comment("the four row sums")
	}
	for r := 0; r < 4; r++ {
		g.add(g.V(4+r), g.V(r), g.V(r))
	}
	if g.v.masked {
		for r := 0; r < 4; r++ {
			g.fold(r, 8+r)
		}
	}
	g.rows4()
}

// dotAutoFile emits dotAuto, the body of the exported kernel.Dot on amd64:
// the length check, the choice of the active implementation and element
// type, and the four dot bodies (AVX-512 and AVX2, float32 and float64)
// inline, so that a call of kernel.Dot, which the Go compiler inlines into
// its caller, reaches the arithmetic through a single call. A separate Go
// function in between (the switch of the other exported kernels) costs a
// call level, about 1 ns on a Zen 5: as much as the arithmetic of a
// 64-element float32 Dot. The portable path and the length panic are Go
// functions it jumps to with their own arguments. sqdistAuto is the same
// for kernel.SqDist.
func dotAutoFile() ([]byte, error) {
	f := newAsmFile(
		"dotAuto and sqdistAuto: kernel.Dot and kernel.SqDist on amd64 (their Go",
		"side, which the compiler inlines into the caller, is in kernel_amd64.go).",
		"The AVX-512 and AVX2 bodies are those of dotAVX512F32/F64, sqdistAVX512F32/F64",
		"(kernel_avx512_amd64.s) and dotAVX2F32/F64, sqdistAVX2F32/F64 (kernel_amd64.s),",
		"from the same generator code (dotBody in _asm/kernel_x86.go), with the result",
		"stored where the first argument points.",
	)
	tailMaskData(f)
	kMaskData(f)
	for _, k := range autoKernels {
		autoFunc(f, k.kernel, k.kernel == "sqdist")
	}
	return f.render()
}

// autoFunc emits kernelAuto (dotAuto, or sqdistAuto when sq is set) into f.
func autoFunc(f *asmFile, kernel string, sq bool) {
	g := f.fn(implAVX512, f32, avx512, kernel+"Auto", "func(r, x, y *byte, nx, ny int, size uintptr)")
	// Listed under avx512, whose check covers every instruction here: each
	// body runs only when activeID names its implementation, which
	// kernel.choose picked among the available ones.
	g.Commentf("CX = len(x); a different len(y) panics (%sAutoLen)", kernel)
	g.MOVQ(g.param("nx"), reg.RCX)
	g.CMPQ(reg.RCX, g.param("ny"))
	g.JNE(lbl("mismatch"))
	g.Comment("SI = &x[0], DI = &y[0]; the body for the active implementation",
		"(activeID) and the element size")
	g.MOVQ(g.param("x"), reg.RSI)
	g.MOVQ(g.param("y"), reg.RDI)
	active := operand.Mem{Symbol: operand.Symbol{Name: "·activeID"}, Base: reg.StaticBase}
	g.CMPQ(g.param("size"), imm(4))
	g.JNE(lbl("f64"))
	bodies := []struct {
		t    elem
		next string
	}{{f32, "generic"}, {f64, "generic"}}
	// AVX2 is tested first: on an AVX2 CPU the taken jump past the AVX-512
	// body and its second test of activeID cost 0.1 to 0.3 ns a call at
	// 64 to 256 float32 on a Zen 3; on an AVX-512 one the extra test is a
	// branch not taken.
	for i, b := range bodies {
		if i == 1 {
			g.Label("f64")
		}
		avx2Label := strings.ToLower(b.t.sfx + "AVX2")
		g.CMPB(active, imm(idAVX2))
		g.JEQ(lbl(avx2Label))
		g.CMPB(active, imm(idAVX512))
		g.JNE(lbl("generic"))
		for _, v := range []isa{avx512, avx2} {
			p := strings.ToLower(v.name + b.t.sfx)
			if v.name == "AVX2" {
				g.Label(avx2Label)
			}
			g.Commentf("%s, %s: CX = bytes", v.name, b.t.goType)
			h := &x86{Context: f.ctx, t: b.t, v: v, pfx: p + "_", retPtr: true}
			h.shiftBytes(reg.RCX)
			h.dotBody(sq)
		}
	}
	g.Label("generic")
	g.Comment("no assembly implementation active: the portable Go code")
	g.tailCall(kernel + "AutoGeneric")
	g.Label("mismatch")
	g.tailCall(kernel + "AutoLen")
}

// The values of kernel.IDAVX2 and kernel.IDAVX512 that dotAuto compares
// activeID with; kernel_amd64.go fails to compile if they differ.
const (
	idAVX2   = 1
	idAVX512 = 2
)

// tailCall jumps to the Go function ·name, which takes the arguments of the
// function being built (a direct JMP: the function's frame is empty, so
// the callee finds them at its own 0(FP) and returns to our caller).
func (g *x86) tailCall(name string) {
	g.Instruction(&ir.Instruction{
		Opcode:     "JMP",
		Operands:   []operand.Op{operand.Mem{Symbol: operand.Symbol{Name: "·" + name}, Base: reg.StaticBase}},
		IsTerminal: true,
	})
}

// midBody emits the AVX-512 path of dotBody for W < CX ≤ 4W bytes (17 to
// 64 float32, 9 to 32 float64): straight-line code with two partial sums,
// one or two whole vectors and one or two masked ones, so a short vector
// pays no loop set-up, no branch per block and no four-way fold. The
// benchmarks count calls per second, in which the out-of-order engine
// overlaps consecutive calls: what bounds them is the number of
// instructions, not the latency of the sums.
func (g *x86) midBody(sq bool) {
	W := g.v.vec
	prod := func(disp int, k reg.Register, acc, t reg.VecPhysical, first bool) { g.prod(sq, disp, k, acc, t, first) }
	g.pcalign(hotAlign)
	g.label("mid")
	g.Commentf("%d < CX ≤ %d bytes: Z0 = x·y (or (x−y)²) over the first vector, then", W, 4*W)
	g.Comment("one masked vector (CX ≤ 2W) or a second whole vector into Z1 and two",
		"masked ones, under K1 and K2 (the elements past 2W, one bit each)")
	prod(0, nil, reg.Z0, reg.Z0, true)
	g.CMPQ(reg.RCX, imm(2*W+1))
	g.JB(g.L("mid2"))
	prod(W, nil, reg.Z1, reg.Z1, true)
	g.Commentf("CX = %d (four whole vectors): no masks, the loads fold into the FMAs", 4*W)
	g.CMPQ(reg.RCX, imm(4*W))
	g.JNE(g.L("mid3"))
	prod(2*W, nil, reg.Z0, reg.Z2, false)
	prod(3*W, nil, reg.Z1, reg.Z3, false)
	g.add(reg.Z1, reg.Z0, reg.Z0)
	g.zmmReturn()

	g.label("mid2")
	g.kmasks(-W, false)
	prod(W, reg.K1, reg.Z0, reg.Z2, false)
	g.zmmReturn()

	g.label("mid3")
	g.kmasks(-2*W, true)
	prod(2*W, reg.K1, reg.Z0, reg.Z2, false)
	prod(3*W, reg.K2, reg.Z1, reg.Z3, false)
	g.add(reg.Z1, reg.Z0, reg.Z0)
	g.zmmReturn()
}

// prod emits acc = (or +=, unless first) the product of the vectors of x
// and y at disp (SI, DI), or with sq (x−y)², through the temporary t; with
// an opmask k (AVX-512) both loads are masked, y into Z15.
func (g *x86) prod(sq bool, disp int, k reg.Register, acc, t reg.VecPhysical, first bool) {
	if k == nil {
		g.movu(mem(reg.RSI, disp), t)
	} else {
		g.movuZ(mem(reg.RSI, disp), k, t)
	}
	var y operand.Op = mem(reg.RDI, disp)
	if k != nil {
		g.movuZ(mem(reg.RDI, disp), k, reg.Z15)
		y = reg.Z15
	}
	if sq {
		g.sub(y, t, t)
		y = t
	}
	if first {
		g.mul(y, t, acc)
	} else {
		g.fmadd231(y, t, acc)
	}
}

// hotAlign aligns the short paths of the AVX-512 reductions (one, mid),
// which every call of up to 64 float32 takes: they start a fetch block of
// their own, so their speed does not depend on where the code above them
// happens to end.
const hotAlign = 64

// zmmReturn returns the sum of the lanes of Z0 (clobbers Z1).
func (g *x86) zmmReturn() {
	g.fold(0, 1)
	g.hsum()
	g.storeResult()
	g.VZEROUPPER()
	g.RET()
}
