package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The input quantiser for amd64 (internal/modelkern/quantize_amd64.s; see quantize.go
// for the functions' contracts).
//
// quantRange: the bits of each vector folded into four running unsigned
// maxima (VPMAXUD) and four signed ones (VPMAXSD), independent chains from
// 0; the lanes are reduced at the end. AVX2 ends with the last 8 elements
// loaded again (overlapping: max is idempotent); AVX-512 with one vector
// loaded under a mask of the remaining lanes, the others zero, which is
// neutral for both.
//
// quantizeU8: t = x·inv (VMULPS) + off (VADDPS), two roundings as Go's
// float32(x*inv) + off; then VMINPS with 255 as the first source, so that
// a NaN t stays NaN (x86's MINPS returns its second source when either is
// NaN) and every other t > 255 becomes 255; VCVTTPS2DQ truncates toward
// zero, giving 0x80000000 for NaN and −Inf. Four vectors are packed with
// signed (VPACKSSDW) then unsigned (VPACKUSWB) saturation, which sends the
// negative values to 0 and keeps 0..255, and VPERMD puts the dwords the
// in-lane (128-bit) packs interleaved back in order (quantPerm,
// quantPerm512), for one store. AVX2's tail stores the last 8 bytes again
// from the last 8 elements. AVX-512's single vectors and masked tail clamp
// the negatives with VPMAXSD 0 and narrow with VPMOVDB (two µops each,
// where the packs cost five instructions per four vectors).

func quantizeX86File() ([]byte, error) {
	f := newAsmFile(
		"The input quantiser of package modelkern for amd64 (QuantRange and",
		"QuantizeU8 of the int8 implementations: avx2 and avxvnni run the AVX2",
		"functions, avx512vnni the AVX-512 ones). The Go declarations are in",
		"quantize_amd64.go; the generator's quantize.go and quantize_x86.go hold",
		"their definition.",
	)
	perm := f.ctx.StaticGlobal("quantPerm")
	f.ctx.DataAttributes(rodataNoptr)
	for i, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
		f.ctx.AddDatum(4*i, operand.U32(v))
	}
	perm512 := f.ctx.StaticGlobal("quantPerm512")
	f.ctx.DataAttributes(rodataNoptr)
	for i := range 16 {
		f.ctx.AddDatum(4*i, operand.U32(uint32(i%4*4+i/4)))
	}
	quantRangeX86(f, quantAVX2, avx2)
	quantizeX86(f, quantAVX2, avx2, perm)
	quantRangeX86(f, quantAVX512, avx512)
	quantizeX86(f, quantAVX512, avx512, perm512)
	return f.render()
}

// quantFn starts w's function name, registered for every int8
// implementation that runs it.
func quantFn(f *asmFile, w quantWidth, v isa, name, sig string) *x86 {
	g := f.fn(w.users[len(w.users)-1].spec, f32, v, name, sig)
	for _, u := range w.users[:len(w.users)-1] {
		f.also(name, u.spec)
	}
	return g
}

// quantLoops emits the loops over x (SI, CX elements left; with bytes, DI
// the dst cursor): four vectors a step (four), then one (one), then
// TESTQ CX, CX for the caller's tail.
func (g *x86) quantLoops(lanes int, bytes bool, four, one func()) {
	for _, n := range []int{4, 1} {
		next := "loop1"
		if n == 1 {
			next = "tail"
		}
		g.Label(fmt.Sprintf("loop%d", n))
		g.CMPQ(reg.RCX, imm(n*lanes))
		g.JB(lbl(next))
		if n == 4 {
			four()
		} else {
			one()
		}
		g.ADDQ(imm(4*n*lanes), reg.RSI)
		if bytes {
			g.ADDQ(imm(n*lanes), reg.RDI)
		}
		g.SUBQ(imm(n*lanes), reg.RCX)
		g.JMP(lbl(fmt.Sprintf("loop%d", n)))
	}
	g.Label("tail")
	g.TESTQ(reg.RCX, reg.RCX)
}

func quantRangeX86(f *asmFile, w quantWidth, v isa) {
	g := quantFn(f, w, v, w.rangeName(), quantRangeSig)
	zmm := v.vec == 64
	g.Comment("SI = &x[0], CX = elements left; V0-V3 the unsigned maxima, V4-V7 the",
		"signed maxima of the bits, from 0")
	g.MOVQ(g.param("x", "base"), reg.RSI)
	g.MOVQ(g.param("x", "len"), reg.RCX)
	for i := 0; i < 8; i++ {
		g.VPXOR(yr[i], yr[i], yr[i])
	}
	lanes := v.vec / 4
	fold := func(r, acc int) {
		g.VPMAXUD(g.V(r), g.V(acc), g.V(acc))
		g.VPMAXSD(g.V(r), g.V(acc+4), g.V(acc+4))
	}
	load := func(m operand.Mem, r int) {
		if zmm {
			g.VMOVDQU32(m, zr[r])
			return
		}
		g.VMOVDQU(m, yr[r])
	}
	g.quantLoops(lanes, false, func() {
		for j := 0; j < 4; j++ {
			load(mem(reg.RSI, j*v.vec), 8+j)
			fold(8+j, j)
		}
	}, func() {
		load(mem(reg.RSI, 0), 8)
		fold(8, 0)
	})
	g.JZ(lbl("reduce"))
	if zmm {
		g.Comment("the last CX < 16 elements, the other lanes zero")
		g.tailMask(reg.EAX)
		g.VMOVDQU32_Z(mem(reg.RSI, 0), reg.K1, reg.Z8)
	} else {
		g.Comment("the last 8 elements, overlapping those already seen")
		g.VMOVDQU(memx(reg.RSI, -v.vec, reg.RCX, 4), reg.Y8)
	}
	fold(8, 1)
	g.Label("reduce")
	for half, base := range []int{0, 4} {
		op := g.VPMAXUD
		if half == 1 {
			op = g.VPMAXSD
		}
		op(g.V(base+1), g.V(base), g.V(base))
		op(g.V(base+3), g.V(base+2), g.V(base+2))
		op(g.V(base+2), g.V(base), g.V(base))
		if zmm {
			g.VEXTRACTI64X4(operand.Imm(1), zr[base], yr[base+1])
			op(yr[base+1], yr[base], yr[base])
		}
		g.VEXTRACTI128(operand.Imm(1), yr[base], xr[base+1])
		op(xr[base+1], xr[base], xr[base])
		g.VPSHUFD(operand.Imm(0x4e), xr[base], xr[base+1])
		op(xr[base+1], xr[base], xr[base])
		g.VPSHUFD(operand.Imm(0xb1), xr[base], xr[base+1])
		op(xr[base+1], xr[base], xr[base])
		g.VMOVD(xr[base], reg.EAX)
		g.MOVL(reg.EAX, g.resultAt(half))
	}
	g.VZEROUPPER()
	g.RET()
}

func quantizeX86(f *asmFile, w quantWidth, v isa, perm operand.Mem) {
	g := quantFn(f, w, v, w.quantizeName(), quantizeU8Sig)
	zmm := v.vec == 64
	g.Comment("DI = &dst[0], SI = &x[0], CX = elements left; V12 = inv, V13 = off,",
		"V14 = 255.0 in every lane, V15 = the dword order after the packs;",
		"AVX-512: Z8 = 0 (not Z16-Z31, which VZEROUPPER leaves dirty)")
	g.MOVQ(g.param("dst", "base"), reg.RDI)
	g.MOVQ(g.param("x", "base"), reg.RSI)
	g.MOVQ(g.param("x", "len"), reg.RCX)
	g.VBROADCASTSS(g.param("inv"), g.V(12))
	g.VBROADCASTSS(g.param("off"), g.V(13))
	g.MOVL(operand.U32(0x437f0000), reg.EAX) // 255.0
	if zmm {
		g.VPBROADCASTD(reg.EAX, reg.Z14)
		g.VMOVDQU32(perm, reg.Z15)
		g.VPXOR(reg.Y8, reg.Y8, reg.Y8)
	} else {
		g.VMOVD(reg.EAX, reg.X14)
		g.VPBROADCASTD(reg.X14, reg.Y14)
		g.VMOVDQU(perm, reg.Y15)
	}
	lanes := v.vec / 4
	// conv turns the floats in register r (or at m, if given) into int32
	// lanes whose saturation to a byte is the result; clamp (AVX-512)
	// clamps them to 0..255 for VPMOVDB.
	conv := func(r int, m operand.Op, clamp bool) {
		if m == nil {
			m = g.V(r)
		}
		g.VMULPS(m, g.V(12), g.V(r))
		g.VADDPS(g.V(13), g.V(r), g.V(r))
		g.VMINPS(g.V(r), g.V(14), g.V(r))
		g.VCVTTPS2DQ(g.V(r), g.V(r))
		if clamp {
			g.VPMAXSD(reg.Z8, zr[r], zr[r])
		}
	}
	// store8 writes the 8 bytes of Y r to m (AVX2; clobbers Y r+1).
	store8 := func(r int, m operand.Mem) {
		g.VEXTRACTI128(operand.Imm(1), yr[r], xr[r+1])
		g.VPACKSSDW(xr[r+1], xr[r], xr[r])
		g.VPACKUSWB(xr[r], xr[r], xr[r])
		g.VMOVQ(xr[r], m)
	}
	g.quantLoops(lanes, true, func() {
		for j := 0; j < 4; j++ {
			conv(j, mem(reg.RSI, j*v.vec), false)
		}
		g.VPACKSSDW(g.V(1), g.V(0), g.V(0))
		g.VPACKSSDW(g.V(3), g.V(2), g.V(2))
		g.VPACKUSWB(g.V(2), g.V(0), g.V(0))
		g.VPERMD(g.V(0), g.V(15), g.V(0))
		if zmm {
			g.VMOVDQU8(reg.Z0, mem(reg.RDI, 0))
		} else {
			g.VMOVDQU(reg.Y0, mem(reg.RDI, 0))
		}
	}, func() {
		conv(0, mem(reg.RSI, 0), zmm)
		if zmm {
			g.VPMOVDB(reg.Z0, mem(reg.RDI, 0))
		} else {
			store8(0, mem(reg.RDI, 0))
		}
	})
	g.JZ(lbl("done"))
	if zmm {
		g.Comment("the last CX < 16 elements under the mask K1, loaded and stored")
		g.tailMask(reg.EAX)
		g.VMOVUPS_Z(mem(reg.RSI, 0), reg.K1, reg.Z0)
		conv(0, nil, true)
		g.VPMOVDB(reg.Z0, reg.K1, mem(reg.RDI, 0))
	} else {
		g.Comment("the last 8 elements and bytes again, overlapping those already done")
		conv(0, memx(reg.RSI, -v.vec, reg.RCX, 4), false)
		store8(0, memx(reg.RDI, -lanes, reg.RCX, 1))
	}
	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}
