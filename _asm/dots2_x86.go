package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// dots2Kernel emits dots2: the scores of two samples against every weight
// vector. dst[k] = W[k]·x[:d] and dst[K+k] = W[k]·x[d:] for the K = len(dst)/2
// rows of the row-major K×d matrix W, d = len(x)/2 (at least one vector:
// the Go wrapper sends shorter rows to Dots). The classes are processed
// five at a time (then a last tile of 1 to 4): a 2×5 register tile of
// accumulators, so each vector step loads 2 sample vectors and 5 weight
// vectors for 10 multiply-adds (Dots: 5 loads for 4), which keeps the FMA
// units rather than the load ports the bound.
func dots2Kernel(f *asmFile, im *implSpec, t elem, v isa) {
	g := f.fn(im, t, v, "dots2"+v.name+t.sfx, "func(dst, w, x []T)")
	W := v.vec
	g.Comment("DX = &dst[k0], R14 = K in bytes (dst[K+k0] = R14(DX)), BX = classes left,",
		"SI = x0, R9 = x1, DI = the tile's first weight row, R10, R11, R13, CX = the",
		fmt.Sprintf("next ones, R8 = d in bytes, R12 = R8 rounded down to %d bytes, AX = byte", W),
		"offset in the rows; V0..V4 and V5..V9 = accumulators of x0 and x1 against",
		"the tile's rows, V10, V11 = sample vectors, V12 = weight vector")
	g.MOVQ(g.param("dst", "base"), reg.RDX)
	g.MOVQ(g.param("dst", "len"), reg.RBX)
	g.SHRQ(operand.Imm(1), reg.RBX)
	g.MOVQ(reg.RBX, reg.R14)
	g.shiftBytes(reg.R14)
	g.MOVQ(g.param("w", "base"), reg.RDI)
	g.MOVQ(g.param("x", "base"), reg.RSI)
	g.MOVQ(g.param("x", "len"), reg.R8)
	g.SHRQ(operand.Imm(1), reg.R8)
	g.shiftBytes(reg.R8)
	g.LEAQ(mem(reg.RSI, 0, reg.R8), reg.R9)
	g.MOVQ(reg.R8, reg.R12)
	g.ANDQ(imm(-W), reg.R12)
	if v.masked {
		g.Comment("K1 = the element mask of the R8 mod 64 bytes of the tail")
		g.MOVQ(reg.R8, reg.RCX)
		g.ANDQ(imm(63), reg.RCX)
		g.kmask()
	} else {
		g.Comment("Y13 = mask keeping the last R8 mod 32 bytes of a vector")
		g.LEAQ(tailMask, reg.RAX)
		g.MOVQ(reg.R8, reg.RCX)
		g.ANDQ(imm(31), reg.RCX)
		g.VMOVDQU(mem(reg.RAX, 0, reg.RCX), reg.Y13)
	}
	g.CMPQ(reg.RBX, imm(5))
	g.JB(lbl("rem"))
	g.Label("tile5")
	dots2Tile(g, 5)
	g.CMPQ(reg.RBX, imm(5))
	g.JAE(lbl("tile5"))
	g.Label("rem")
	for c := 4; c >= 1; c-- {
		g.CMPQ(reg.RBX, imm(c))
		g.JE(lbl(fmt.Sprintf("tile%d", c)))
	}
	g.JMP(lbl("done"))
	for c := 4; c >= 1; c-- {
		g.Label(fmt.Sprintf("tile%d", c))
		dots2Tile(g, c)
		g.JMP(lbl("done"))
	}
	g.Label("done")
	g.VZEROUPPER()
	g.RET()
}

// dots2Tile emits one tile of c ≤ 5 classes starting at weight row DI,
// stores its 2c scores and advances DI, DX and BX past it.
func dots2Tile(g *x86, c int) {
	W := g.v.vec
	p := fmt.Sprintf("t%d", c)
	bases := []reg.Register{reg.RDI, reg.R10, reg.R11, reg.R13, reg.RCX}[:c]
	for i := 1; i < c; i++ {
		g.LEAQ(mem(bases[i-1], 0, reg.R8), bases[i])
	}
	for i := 0; i < c; i++ {
		g.zero(i, 5+i)
	}
	if c < 4 {
		g.Comment("the unused accumulators of the four-row sums stay zero")
		for i := c; i < 4; i++ {
			g.zero(i, 5+i)
		}
	}
	g.XORL(reg.EAX, reg.EAX)
	g.CMPQ(reg.RAX, reg.R12)
	g.JAE(lbl(p + "tail"))
	g.pcalign(32)
	g.Label(p + "loop")
	g.Commentf("one vector (%d bytes) of both samples and of the %d rows", W, c)
	g.movu(mem(reg.RSI, 0, reg.RAX), g.V(10))
	g.movu(mem(reg.R9, 0, reg.RAX), g.V(11))
	for i, b := range bases {
		g.movu(mem(b, 0, reg.RAX), g.V(12))
		g.fmadd231(g.V(12), g.V(10), g.V(i))
		g.fmadd231(g.V(12), g.V(11), g.V(5+i))
	}
	g.ADDQ(imm(W), reg.RAX)
	g.CMPQ(reg.RAX, reg.R12)
	g.JB(lbl(p + "loop"))

	g.Label(p + "tail")
	if g.v.masked {
		g.Comment("the R8 mod 64 bytes left, under K1 (masked lanes load as zero)")
		g.TESTQ(imm32(63), reg.R8)
		g.JZ(lbl(p + "sum"))
		g.movuZ(mem(reg.RSI, 0, reg.RAX), reg.K1, g.V(10))
		g.movuZ(mem(reg.R9, 0, reg.RAX), reg.K1, g.V(11))
		for i, b := range bases {
			g.movuZ(mem(b, 0, reg.RAX), reg.K1, g.V(12))
			g.fmadd231(g.V(12), g.V(10), g.V(i))
			g.fmadd231(g.V(12), g.V(11), g.V(5+i))
		}
	} else {
		g.Comment("the last R8 mod 32 bytes: the last 32 bytes of each row, ANDed with",
			"Y13 so the lanes already summed are cleared")
		g.TESTQ(imm32(31), reg.R8)
		g.JZ(lbl(p + "sum"))
		g.and(mem(reg.RSI, -32, reg.R8), reg.Y13, reg.Y10)
		g.and(mem(reg.R9, -32, reg.R8), reg.Y13, reg.Y11)
		for i, b := range bases {
			g.and(mem(b, -32, reg.R8), reg.Y13, reg.Y12)
			g.fmadd231(reg.Y12, reg.Y10, yr[i])
			g.fmadd231(reg.Y12, reg.Y11, yr[5+i])
		}
	}

	g.Label(p + "sum")
	if g.v.masked {
		g.Comment("the ZMM accumulators folded to YMM")
		for i := 0; i < max(c, 4); i++ {
			g.fold(i, 12)
			g.fold(5+i, 12)
		}
	}
	g.Commentf("x0's %d sums to dst[k0:], x1's to dst[K+k0:]", c)
	for s := 0; s < 2; s++ {
		at := func(disp int) operand.Mem {
			if s == 0 {
				return mem(reg.RDX, disp)
			}
			return mem(reg.RDX, disp, reg.R14)
		}
		if s == 1 {
			for i := 0; i < 4; i++ {
				g.mova(yr[5+i], yr[i])
			}
		}
		g.rows4()
		g.storeLanes(min(c, 4), at(0))
		if c == 5 {
			g.mova(yr[4+5*s], reg.Y0)
			g.hsum()
			g.movs(reg.X0, at(4*g.t.size))
		}
	}
	g.LEAQ(mem(bases[c-1], 0, reg.R8), reg.RDI)
	g.ADDQ(imm(c*g.t.size), reg.RDX)
	g.SUBQ(imm(c), reg.RBX)
}

// storeLanes stores the first n ≤ 4 lanes of the rows4 result (X0 for
// float32, Y0 for float64) to m; clobbers X1.
func (g *x86) storeLanes(n int, m operand.Mem) {
	if g.t.is32() {
		switch n {
		case 4:
			g.VMOVUPS(reg.X0, m)
		case 3:
			g.VMOVSD(reg.X0, m)
			m.Disp += 8
			g.VEXTRACTPS(operand.Imm(2), reg.X0, m)
		case 2:
			g.VMOVSD(reg.X0, m)
		case 1:
			g.VMOVSS(reg.X0, m)
		}
		return
	}
	switch n {
	case 4:
		g.VMOVUPD(reg.Y0, m)
	case 3:
		g.VMOVUPD(reg.X0, m)
		g.VEXTRACTF128(operand.Imm(1), reg.Y0, reg.X1)
		m.Disp += 16
		g.VMOVSD(reg.X1, m)
	case 2:
		g.VMOVUPD(reg.X0, m)
	case 1:
		g.VMOVSD(reg.X0, m)
	}
}
