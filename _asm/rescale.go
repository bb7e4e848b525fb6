package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The int8 models' last step (Int8Kernels.RescaleArgmax, written by hand
// with its Go loop in internal/modelkern/rescale.go): the integer scores to float32
// ones and their argmax. One assembly function, for avx512vnni:
//
//	rescaleArgmaxAVX512(dst []float32, acc []int32, s, b []float64, sx float64) (best int, finite bool)
//	    dst[k] = float32(float64(s[k]·sx·float64(acc[k])) + b[k]): the
//	    products rounded in float64 left to right, then the add, then the
//	    conversion, never fused; best the smallest k with dst[k] maximal
//	    and finite = true when every dst[k] is finite, else 0, false
//
// Eight scores per step, the last n mod 8 under a mask (K1: the loads past
// the end are neither read nor faulting, the lanes zero): VCVTDQ2PD
// (exact), VMULPD by the broadcast sx, VMULPD, VADDPD, VCVTPD2PS (round to
// nearest, as Go's conversion), a masked store. The exponent bits of every
// score fold into a running VPMAXUD (the masked lanes are +0: neutral). The
// argmax is a running unsigned maximum (VPMAXUQ, merged under K1) of 64-bit
// keys, the score's bits made to order as the values do (+0 added first,
// so that −0 is +0: Go's > does not tell them apart; then the sign bit
// flipped for the non-negative scores and every bit for the negative ones)
// above 2³² − 1 − k: the largest key holds the largest score and, among
// equal ones, the smallest k (k < 2³²), in one reduction at the end. If a
// lane's exponent is all ones, the result is 0, false.
// The Go dispatch (internal/modelkern/rescale_<goarch>.go) sends the other
// implementations to the Go loop.

const rescaleSig = "func(dst []float32, acc []int32, s, b []float64, sx float64) (best int, finite bool)"

// rescaleX86File returns internal/modelkern/rescale_amd64.s.
func rescaleX86File() ([]byte, error) {
	f := newAsmFile(
		"The int8 models' rescale and argmax of package modelkern for amd64",
		"(RescaleArgmax of the avx512vnni implementation). The Go declaration is",
		"in rescale_amd64.go; the generator's rescale.go holds its definition.",
	)
	c := f.ctx.StaticGlobal("rescaleC")
	f.ctx.DataAttributes(rodataNoptr)
	f.ctx.AddDatum(0, operand.U32(0x7f800000)) // the exponent bits
	f.ctx.AddDatum(4, operand.U32(0x80000000)) // the sign bit
	for i := range 8 {
		f.ctx.AddDatum(8+8*i, operand.U64(0xffffffff-uint64(i))) // 2³² − 1 − lane
	}
	f.ctx.AddDatum(72, operand.U64(8))
	f.ctx.AddDatum(80, operand.U32(0x80808080)) // the bytes' sign bits (dotsRescaleI8AVX512)
	g := f.fn(i8AVX512VNNI.spec, f32, avx512, "rescaleArgmaxAVX512", rescaleSig)
	g.Comment("DI = dst, SI = acc, R8 = s, R9 = b, DX = n, AX = k; Z15 = sx, Y14 = exponent",
		"bits, Y9 = their running max, Z13 = the running max of the keys, Z11 = the",
		"step's 2³² − 1 − k, Z10 = 8, Y8 = +0, Y7 = the sign bit")
	g.MOVQ(g.param("dst", "base"), reg.RDI)
	g.MOVQ(g.param("acc", "base"), reg.RSI)
	g.MOVQ(g.param("s", "base"), reg.R8)
	g.MOVQ(g.param("b", "base"), reg.R9)
	g.MOVQ(g.param("dst", "len"), reg.RDX)
	g.XORL(reg.EAX, reg.EAX)
	g.TESTQ(reg.RDX, reg.RDX)
	g.JZ(lbl("found"))
	rescaleSetup(g, c)
	acc := memx(reg.RSI, 0, reg.RAX, 4)
	g.Comment("the whole steps of 8; BX = n rounded down to 8")
	g.MOVQ(reg.RDX, reg.RBX)
	g.ANDQ(imm(-8), reg.RBX)
	g.JZ(lbl("tail"))
	g.Label("scores")
	rescaleChunk(g, acc, false)
	g.VPSUBQ(reg.Z10, reg.Z11, reg.Z11)
	g.ADDQ(imm(8), reg.RAX)
	g.CMPQ(reg.RAX, reg.RBX)
	g.JB(lbl("scores"))
	g.Label("tail")
	g.Comment("the last n mod 8 under K1")
	g.MOVQ(reg.RDX, reg.RCX)
	g.ANDQ(imm(7), reg.RCX)
	g.JZ(lbl("check"))
	g.tailMask(reg.EBX)
	rescaleChunk(g, acc, true)
	g.Label("check")
	rescaleFinish(g)

	for i := range 8 {
		v := uint64(0)
		if i >= 4 {
			v = ^uint64(0)
		}
		f.ctx.AddDatum(rescaleTail+8*i, operand.U64(v))
	}
	dotsRescale10(f, c, false)
	dotsRescale10(f, c, true)
	dotsRescale10YMM(f, c, false)
	dotsRescale10YMM(f, c, true)
	dotsRescale10Wide(f, c, false)
	dotsRescale10Wide(f, c, true)
	out, err := f.render()
	if err != nil {
		return nil, err
	}
	return encodeVEX(out)
}

// rescaleSetup loads rescaleArgmax's constants (the registers of its
// comment) and zeroes its running maxima.
func rescaleSetup(g *x86, c operand.Mem) {
	g.VBROADCASTSD(g.param("sx"), reg.Z15)
	g.VPBROADCASTD(c.Offset(0), reg.Y14)
	g.VPBROADCASTD(c.Offset(4), reg.Y7)
	g.VMOVDQU64(c.Offset(8), reg.Z11)
	g.VPBROADCASTQ(c.Offset(72), reg.Z10)
	for _, r := range []reg.VecPhysical{reg.Y9, reg.Y8, reg.Y13} {
		g.VPXOR(r, r, r)
	}
}

// rescaleChunk emits the step of the 8 scores at AX, their int32 sums a
// (the memory at AX, or a YMM register), under K1 if masked (the tail):
// the loads and the store then touch only the bytes of the slices (the
// store's footprint is 32 bytes, AVX512VL), and the whole steps use plain
// ones, which a store just made forwards to. DI = dst, R8 = s, R9 = b.
func rescaleChunk(g *x86, a operand.Op, masked bool) { rescaleStep(g, a, masked, false) }

// rescaleStep is rescaleChunk, or with two (a a register, AX = 8: the
// 10-class model's rows 8, 9) the step of the two scores in a's low lanes:
// s and b by 16-byte loads (the lanes above zero), dst by an 8-byte store,
// the keys merged under K1 = 0b11; the scores of the lanes above are
// 0·sx·a + 0 = +0, which leave the exponents' maximum as it was.
func rescaleStep(g *x86, a operand.Op, masked, two bool) {
	s, b := memx(reg.R8, 0, reg.RAX, 8), memx(reg.R9, 0, reg.RAX, 8)
	am, inMem := a.(operand.Mem)
	switch {
	case two:
		g.VCVTDQ2PD(a, reg.Z0)
		g.VMOVUPD(s, reg.X1)
		g.VMOVUPD(b, reg.X2)
	case masked:
		g.VCVTDQ2PD_Z(a, reg.K1, reg.Z0)
		g.VMOVUPD_Z(s, reg.K1, reg.Z1)
		g.VMOVUPD_Z(b, reg.K1, reg.Z2)
	case inMem:
		// two 16-byte loads: each is forwarded from a store of 16
		// bytes or more just made (the kernels' blocks of 4 rows)
		g.VMOVDQU(am, reg.X0)
		g.VINSERTI128(operand.Imm(1), am.Offset(16), reg.Y0, reg.Y0)
		g.VCVTDQ2PD(reg.Y0, reg.Z0)
		g.VMOVUPD(s, reg.Z1)
		g.VMOVUPD(b, reg.Z2)
	default:
		g.VCVTDQ2PD(a, reg.Z0)
		g.VMOVUPD(s, reg.Z1)
		g.VMOVUPD(b, reg.Z2)
	}
	g.VMULPD(reg.Z15, reg.Z1, reg.Z1)
	g.VMULPD(reg.Z0, reg.Z1, reg.Z1)
	g.VADDPD(reg.Z2, reg.Z1, reg.Z1)
	g.VCVTPD2PS(reg.Z1, reg.Y1)
	switch {
	case two:
		g.VMOVQ(reg.X1, memx(reg.RDI, 0, reg.RAX, 4))
	case masked:
		g.VMOVUPS(reg.Y1, reg.K1, memx(reg.RDI, 0, reg.RAX, 4))
	default:
		g.VMOVUPS(reg.Y1, memx(reg.RDI, 0, reg.RAX, 4))
	}
	g.VPAND(reg.Y14, reg.Y1, reg.Y2)
	g.VPMAXUD(reg.Y2, reg.Y9, reg.Y9)
	g.Comment("the keys: the ordered bits of score + 0 above 2³² − 1 − k")
	g.VADDPS(reg.Y8, reg.Y1, reg.Y1)
	g.VPSRAD(operand.Imm(31), reg.Y1, reg.Y2)
	g.VPOR(reg.Y7, reg.Y2, reg.Y2)
	g.VPXOR(reg.Y2, reg.Y1, reg.Y1)
	g.VPMOVZXDQ(reg.Y1, reg.Z1)
	g.VPSLLQ(operand.Imm(32), reg.Z1, reg.Z1)
	g.VPORQ(reg.Z11, reg.Z1, reg.Z1)
	if masked || two {
		g.VPMAXUQ(reg.Z1, reg.Z13, reg.K1, reg.Z13)
	} else {
		g.VPMAXUQ(reg.Z1, reg.Z13, reg.Z13)
	}
}

// rescaleFinish emits the end of rescaleArgmax: the finiteness check, the
// reduction of the keys and the results; label found stores AX, true.
func rescaleFinish(g *x86) {
	g.Comment("a score with all exponent bits set (±Inf, NaN): 0, false")
	rescaleNonFinite(g, reg.Y9)
	g.Comment("AX = k of the largest key: its low 32 bits complemented")
	g.VEXTRACTI64X4(operand.Imm(1), reg.Z13, reg.Y0)
	g.VPMAXUQ(reg.Z0, reg.Z13, reg.Z0)
	g.VEXTRACTI32X4(operand.Imm(1), reg.Z0, reg.X1)
	g.VPMAXUQ(reg.Z1, reg.Z0, reg.Z0)
	g.VPSHUFD(operand.Imm(0x4e), reg.X0, reg.X1)
	g.VPMAXUQ(reg.Z1, reg.Z0, reg.Z0)
	g.VMOVQ(reg.X0, reg.RAX)
	g.NOTL(reg.EAX)
	g.Label("found")
	rescaleReturn(g)
}

// rescaleNonFinite emits the jump to label nonfinite if a lane of e (the
// scores' exponent bits, or their running maximum) equals Y14's (all ones).
func rescaleNonFinite(g *x86, e reg.VecPhysical) {
	g.VPCMPEQD(reg.Y14, e, reg.Y2)
	g.VMOVMSKPS(reg.Y2, reg.ECX)
	g.TESTL(reg.ECX, reg.ECX)
	g.JNZ(lbl("nonfinite"))
}

// rescaleReturn emits the end of rescaleArgmax and dotsRescaleU8AVX512:
// the results AX, true, and at label nonfinite 0, false.
func rescaleReturn(g *x86) {
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVB(operand.U8(1), g.resultAt(1))
	g.VZEROUPPER()
	g.RET()
	g.Label("nonfinite")
	g.MOVQ(operand.U32(0), g.resultAt(0))
	g.MOVB(operand.U8(0), g.resultAt(1))
	g.VZEROUPPER()
	g.RET()
}

// dotsRescaleSig is dotsRescaleU8AVX512's signature for avo; the Go
// declaration's m is a *Fused10 (internal/modelkern/rescale.go), whose first four words
// are the pointers w, sum, s and b, then the rows' stride and (read by
// dotsRescaleI8AVX512 alone) a pointer to the rows' own sums.
const dotsRescaleSig = "func(dst *[10]float32, m *[6]uintptr, x []uint8, z uint8, sx float64) (best int, finite bool)"

// dotsRescaleI8Sig is dotsRescaleI8AVX512's: signed bytes, no zero point.
const dotsRescaleI8Sig = "func(dst *[10]float32, m *[6]uintptr, x []int8, sx float64) (best int, finite bool)"

// fused10Fn starts a fused 10-class function of variant v (vector ISA vi,
// W bytes a vector): dotsRescaleU8<suffix> (dotsRescaleSig), or with
// signed dotsRescaleI8<suffix> (dotsRescaleI8Sig).
func fused10Fn(f *asmFile, v *i8Variant, vi isa, W int, suffix string, signed bool) *i8x86 {
	name, sig := "dotsRescaleU8"+suffix, dotsRescaleSig
	if signed {
		name, sig = "dotsRescaleI8"+suffix, dotsRescaleI8Sig
	}
	return &i8x86{x86: f.fn(v.spec, f32, vi, name, sig), v: v, k: kindU8I8, W: W, name: name, extra: map[string][]string{}}
}

// dotsRescale10 emits dotsRescaleU8AVX512, the 10-class prediction fused:
// DotsU8I8's loop of 10 rows (vnni10Loop: acc[k] = Σ w[k·d+i]·x[i]),
// acc[k] −= z·sum[k] (int32, wrapping as Go's), then RescaleArgmax on the
// sums still in registers. What follows the loop is one dependent chain,
// kept short:
//   - the 20 accumulators to the 10 sums by a transpose-and-add tree
//     (VPADDD of each row's two, then VPUNPCKL/HDQ, VPUNPCKL/HQDQ within the
//     128-bit lanes and VSHUFI32X4 across them): Y0 = rows 0..7, X8's low
//     lanes = rows 8, 9;
//   - the correction, VCVTDQ2PD, the product by s[k]·sx and the add of b[k]
//     one instruction each on rows 0..7 (ZMM) and on rows 8, 9 (XMM), in
//     parallel; z·sum, s·sx and b are made before the loop (Z24..Z31);
//   - the argmax without keys: the maximum m of the ten float32 scores by a
//     VMAXPS tree (rows 8, 9 merged into lanes 0, 1 under K2 = 0b11), then
//     the scores equal to m (VCMPPS EQ: −0 = +0) as a 16-bit mask, rows 0..7
//     in bits 0..7 and rows 8, 9 in bits 8, 9 (KUNPCKBW), and its lowest set
//     bit (BSF): the smallest k of the largest score, the documented rule.
//     The maximum is one of the ten scores, so one of bits 0..9 is set (and
//     the bits above, of lanes holding +0, never the lowest set); a score
//     with all exponent bits set (±Inf, NaN) returns 0, false first.
//
// m points to a modelkern.Fused10: the first elements of w, sum, s and b,
// then the stride of w's 10 rows (≥ len(x); Fused10's are 64-byte aligned
// and padded to a multiple of 64 bytes, whose pad is never read). The
// lengths (10 and the rows') are the caller's.
//
// With signed, it emits dotsRescaleI8AVX512 instead, the same for signed
// bytes x (DotsI8's sums, exact): each loaded vector of x has its sign bits
// flipped (VPXORD by Z24's 0x80 bytes), so that VPDPBUSD reads v + 128,
// z is 128 and sum the rows' own sums Σ w (Fused10's, at m + 40): Σ w·(v +
// 128) − 128·Σ w = Σ w·v (modulo 2³², as DotsI8's).
func dotsRescale10(f *asmFile, c operand.Mem, signed bool) {
	g := fused10Fn(f, i8AVX512VNNI, avx512, 64, "AVX512", signed)
	g.Comment("Y25 = z·sum[0:8], X26 = z·sum[8:10], Z28 = s[0:8]·sx, X29 = s[8:10]·sx,",
		"Z30 = b[0:8], X31 = b[8:10]: made before the loop, off the final chain")
	g.MOVQ(g.param("m"), reg.R10)
	if signed {
		g.MOVQ(mem(reg.R10, 40), reg.R11) // Fused10's own row sums Σ w
		g.MOVL(imm32(128), reg.R12L)
	} else {
		g.MOVQ(mem(reg.R10, 8), reg.R11)
		g.MOVBLZX(g.param("z"), reg.R12L)
	}
	g.VPBROADCASTD(reg.R12L, reg.Y24)
	g.VPMULLD(mem(reg.R11, 0), reg.Y24, reg.Y25)
	g.VMOVQ(mem(reg.R11, 32), reg.X26)
	g.VPMULLD(reg.X26, reg.X24, reg.X26)
	g.MOVQ(mem(reg.R10, 16), reg.R11)
	g.VBROADCASTSD(g.param("sx"), reg.Z27)
	g.VMULPD(mem(reg.R11, 0), reg.Z27, reg.Z28)
	g.VMOVUPD(mem(reg.R11, 64), reg.X29)
	g.VMULPD(reg.X27, reg.X29, reg.X29)
	g.MOVQ(mem(reg.R10, 24), reg.R11)
	g.VMOVUPD(mem(reg.R11, 0), reg.Z30)
	g.VMOVUPD(mem(reg.R11, 64), reg.X31)
	g.Comment("SI = w, DI = &x[0], BX = d, R8 = the rows' stride; K1 = one bit per byte of",
		"the tail, d mod 64; R13 = d rounded down to 64")
	g.MOVQ(mem(reg.R10, 0), reg.RSI)
	g.MOVQ(mem(reg.R10, 32), reg.R8)
	g.MOVQ(g.param("x", "base"), reg.RDI)
	g.MOVQ(g.param("x", "len"), reg.RBX)
	g.MOVQ(reg.RBX, reg.RCX)
	g.ANDQ(imm(63), reg.RCX)
	g.tailMaskQ()
	g.MOVQ(reg.RBX, reg.R13)
	g.ANDQ(imm(-64), reg.R13)
	var flip reg.VecPhysical
	if signed {
		g.VPBROADCASTD(c.Offset(80), reg.Z24)
		flip = reg.Z24
	}
	g.vnni10Loop(reg.RBX, flip)
	dotsRescaleTree(g.x86)
	g.Comment("the correction, the conversion, ·s·sx, +b: rows 0..7 in Z1 then Y1, rows",
		"8, 9 in X9 (its float32 lanes 2, 3 zero); dst written")
	g.VPSUBD(reg.Y25, reg.Y0, reg.Y0)
	g.VPSUBD(reg.X26, reg.X8, reg.X8)
	g.VCVTDQ2PD(reg.Y0, reg.Z1)
	g.VCVTDQ2PD(reg.X8, reg.X9)
	g.VMULPD(reg.Z28, reg.Z1, reg.Z1)
	g.VMULPD(reg.X29, reg.X9, reg.X9)
	g.VADDPD(reg.Z30, reg.Z1, reg.Z1)
	g.VADDPD(reg.X31, reg.X9, reg.X9)
	g.VCVTPD2PS(reg.Z1, reg.Y1)
	g.VCVTPD2PSX(reg.X9, reg.X9)
	dotsRescaleStore(g.x86, c)
	g.Comment("Y4 = the maximum in every lane: rows 8, 9 merged into lanes 0, 1 (K2), then",
		"the halves, the pairs and the neighbours")
	g.MOVL(imm32(3), reg.EBX)
	g.KMOVW(reg.EBX, reg.K2)
	g.VMOVAPS(reg.Y1, reg.Y4)
	g.VMAXPS(reg.Y9, reg.Y1, reg.K2, reg.Y4)
	g.VPERM2F128(operand.Imm(1), reg.Y4, reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.VPERMILPS(operand.Imm(0x4e), reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.VPERMILPS(operand.Imm(0xb1), reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.Comment("AX = the lowest k whose score equals the maximum: K3 = rows 0..7, K4 =",
		"rows 8, 9 (its bits 2..7, of +0 lanes, may be set too, but above a set one),",
		"K5 = K4:K3")
	g.VCMPPS(operand.Imm(0), reg.Y4, reg.Y1, reg.K3)
	g.VCMPPS(operand.Imm(0), reg.Y4, reg.Y9, reg.K4)
	g.KUNPCKBW(reg.K3, reg.K4, reg.K5)
	g.KMOVW(reg.K5, reg.EAX)
	g.BSFL(reg.EAX, reg.EAX)
	rescaleReturn(g.x86)
	if err := i8Uncovered(g.v, g.name, g.extra); err != nil {
		panic(err)
	}
}

// dotsRescaleTree emits the reduction of vnni10Loop's accumulators (Z(r),
// Z(10+r): row r's two sets of 16 int32 sums) to Y0 = the sums of rows
// 0..7 and X8's lanes 0, 1 = rows 8, 9 (its lanes 2, 3 left over), four
// levels after the pairs' add: VPUNPCKLDQ/HDQ + VPADDD on the row pairs
// (Z0, Z2, Z4, Z6, Z8: per 128-bit lane, the two rows' even and odd
// partial sums), VPUNPCKLQDQ/HQDQ + VPADDD (Z0 = rows 0..3 and Z4 = rows
// 4..7, one partial sum per 128-bit lane; Z8 = rows 8, 9 in lanes 0, 1
// of each), then across the 128-bit lanes: VSHUFI32X4 + VPADDD twice for
// rows 0..7, the high halves added twice for rows 8, 9.
func dotsRescaleTree(g *x86) {
	g.Comment("the 10 sums: the row pairs' dwords interleaved and added")
	for r := 0; r < 10; r++ {
		g.VPADDD(zr[10+r], zr[r], zr[r])
	}
	for p := 0; p < 5; p++ {
		a, b := zr[2*p], zr[2*p+1]
		g.VPUNPCKLDQ(b, a, zr[10+2*p])
		g.VPUNPCKHDQ(b, a, zr[11+2*p])
		g.VPADDD(zr[11+2*p], zr[10+2*p], a)
	}
	g.Comment("then their qwords: Z0 = rows 0..3, Z4 = rows 4..7 in every 128-bit lane,",
		"Z8 = rows 8, 9 in lanes 0, 1 of each")
	for _, q := range []int{0, 4} {
		g.VPUNPCKLQDQ(zr[q+2], zr[q], zr[10+q])
		g.VPUNPCKHQDQ(zr[q+2], zr[q], zr[11+q])
		g.VPADDD(zr[11+q], zr[10+q], zr[q])
	}
	g.VPUNPCKHQDQ(reg.Z8, reg.Z8, reg.Z14)
	g.VPADDD(reg.Z14, reg.Z8, reg.Z8)
	g.Comment("across the 128-bit lanes: Y0 = rows 0..7, X8 = rows 8, 9")
	g.VSHUFI32X4(operand.Imm(0x88), reg.Z4, reg.Z0, reg.Z10)
	g.VSHUFI32X4(operand.Imm(0xdd), reg.Z4, reg.Z0, reg.Z11)
	g.VPADDD(reg.Z11, reg.Z10, reg.Z0)
	g.VEXTRACTI64X4(operand.Imm(1), reg.Z8, reg.Y9)
	g.VPADDD(reg.Y9, reg.Y8, reg.Y8)
	g.VSHUFI32X4(operand.Imm(0x88), reg.Z0, reg.Z0, reg.Z10)
	g.VSHUFI32X4(operand.Imm(0xdd), reg.Z0, reg.Z0, reg.Z11)
	g.VPADDD(reg.Y11, reg.Y10, reg.Y0)
	g.VEXTRACTI128(operand.Imm(1), reg.Y8, reg.X9)
	g.VPADDD(reg.X9, reg.X8, reg.X8)
}

// rescaleGoFile returns internal/modelkern/rescale_amd64.go, or rescale_other.go for "".
func rescaleGoFile(goarch string) ([]byte, error) {
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !amd64"
	}
	f := newGoFile(constraint, "modelkern")
	f.comment("rescaleArgmaxAsm runs RescaleArgmax on int8 implementation id's assembly\n" +
		"and reports whether it did: ok = false when it has none (dst then\n" +
		"unwritten). The lengths are the caller's.")
	f.p("func rescaleArgmaxAsm(id int8ID, dst []float32, acc []int32, s, b []float64, sx float64) (best int, finite, ok bool) {")
	if goarch == "amd64" {
		f.p("if id == %s {", i8AVX512VNNI.spec.id)
		f.p("best, finite = rescaleArgmaxAVX512(dst, acc, s, b, sx)")
		f.p("return best, finite, true")
		f.p("}")
	}
	f.p("return 0, false, false")
	f.p("}")
	f.p("")
	if goarch != "amd64" {
		f.comment("dotsRescaleU8AVX512 is amd64's fused assembly, which DotsU8I8RescaleArgmax\n" +
			"calls only where rescaleHasAsm is true: never here.")
		f.p("func dotsRescaleU8AVX512(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleU8AVX512 without assembly")`)
		f.p("}")
		f.p("")
		f.comment("dotsRescaleI8AVX512 likewise (Fused10.PredictI8).")
		f.p("func dotsRescaleI8AVX512(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleI8AVX512 without assembly")`)
		f.p("}")
		f.p("")
		f.comment("dotsRescaleU8AVXVNNI likewise (avxvnni's Fused10.Predict).")
		f.p("func dotsRescaleU8AVXVNNI(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleU8AVXVNNI without assembly")`)
		f.p("}")
		f.p("")
		f.comment("dotsRescaleI8AVXVNNI likewise (avxvnni's Fused10.PredictI8).")
		f.p("func dotsRescaleI8AVXVNNI(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleI8AVXVNNI without assembly")`)
		f.p("}")
		f.p("")
		f.comment("dotsRescaleU8AVX2 likewise (avx2's Fused10.Predict).")
		f.p("func dotsRescaleU8AVX2(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleU8AVX2 without assembly")`)
		f.p("}")
		f.p("")
		f.comment("dotsRescaleI8AVX2 likewise (avx2's Fused10.PredictI8).")
		f.p("func dotsRescaleI8AVX2(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool) {")
		f.p(`panic("modelkern: dotsRescaleI8AVX2 without assembly")`)
		f.p("}")
		f.p("")
	}
	f.comment("rescaleHasAsm reports whether int8 implementation id runs RescaleArgmax\n" +
		"in assembly.")
	if goarch == "amd64" {
		f.p("func rescaleHasAsm(id int8ID) bool { return id == %s }", i8AVX512VNNI.spec.id)
	} else {
		f.p("func rescaleHasAsm(id int8ID) bool { return false }")
	}
	f.p("")
	f.comment("fused10Asm returns the kind of Fused10's assembly int8 implementation id\n" +
		"has: AVX-512's (dotsRescale?8AVX512), the AVX2 + AVX-VNNI one\n" +
		"(dotsRescale?8AVXVNNI), AVX2's on rows widened to int16\n" +
		"(dotsRescale?8AVX2), or none.")
	if goarch == "amd64" {
		f.p("func fused10Asm(id int8ID) fused10Kind {")
		f.p("switch id {")
		f.p("case %s:", i8AVX512VNNI.spec.id)
		f.p("return fused10AVX512")
		f.p("case %s:", i8AVXVNNI.spec.id)
		f.p("return fused10AVXVNNI")
		f.p("case %s:", i8AVX2.spec.id)
		f.p("return fused10AVX2")
		f.p("}")
		f.p("return fused10None")
		f.p("}")
	} else {
		f.p("func fused10Asm(id int8ID) fused10Kind { return fused10None }")
	}
	if goarch == "amd64" {
		f.p("")
		f.comment("rescaleArgmaxAVX512 is RescaleArgmax (avx512vnni; any length):\n\n" +
			"\tfor k, a := range acc { dst[k] = float32(float64(s[k]*sx*float64(a)) + b[k]) }\n\n" +
			"with best the smallest k of the largest dst[k] and finite = true, or\n" +
			"0, false if a dst[k] is ±Inf or NaN.")
		f.p("//")
		f.p("//go:noescape")
		f.p("func rescaleArgmaxAVX512(dst []float32, acc []int32, s, b []float64, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleU8AVX512 is DotsU8I8RescaleArgmax for 10 rows (avx512vnni):\n" +
			"the sums of DotsU8I8 less z·sum, then RescaleArgmax on them, kept in\n" +
			"registers. The lengths are the caller's: it takes the first elements of\n" +
			"all but x, through m (Fused10's pointers w, sum, s, b and w's stride), so that the\n" +
			"call has few arguments (each Go call layer around it with 20 argument\n" +
			"words measured about 4 ns on Zen 5).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleU8AVX512(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleI8AVX512 is dotsRescaleU8AVX512 for signed bytes x (avx512vnni,\n" +
			"Fused10.PredictI8): the sums of DotsI8 (x read as x + 128, z = 128).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleI8AVX512(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleU8AVXVNNI is dotsRescaleU8AVX512 on AVX2 and AVX-VNNI alone\n" +
			"(avxvnni's Fused10.Predict; no EVEX): bit for bit the same results, for\n" +
			"len(x) ≥ 32 or a multiple of 32 (Predict pads a shorter x with zeros,\n" +
			"which meet the rows' zero padding).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleU8AVXVNNI(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleI8AVXVNNI is dotsRescaleI8AVX512 likewise (avxvnni's\n" +
			"Fused10.PredictI8), with the same condition on len(x).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleI8AVXVNNI(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleU8AVX2 is dotsRescaleU8AVX512 on AVX2 alone (avx2's\n" +
			"Fused10.Predict, no VNNI): bit for bit the same results, from rows\n" +
			"widened to int16 (m's stride in bytes), for len(x) ≥ 16 (Predict pads a\n" +
			"shorter x with zeros, which meet the rows' zero padding).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleU8AVX2(dst *[10]float32, m *Fused10, x []uint8, z uint8, sx float64) (best int, finite bool)")
		f.p("")
		f.comment("dotsRescaleI8AVX2 is dotsRescaleI8AVX512 likewise (avx2's\n" +
			"Fused10.PredictI8: the products of the signed values, no correction),\n" +
			"with the same condition on len(x).")
		f.p("//")
		f.p("//go:noescape")
		f.p("func dotsRescaleI8AVX2(dst *[10]float32, m *Fused10, x []int8, sx float64) (best int, finite bool)")
	}
	return f.gofmt()
}

// dotsRescale10YMM emits dotsRescaleU8AVXVNNI (or, with signed,
// dotsRescaleI8AVXVNNI), dotsRescale10's prediction for the avxvnni
// implementation: AVX2 and the VEX VPDPBUSD alone (no EVEX, no opmask),
// what an AVX-VNNI CPU without AVX-512 runs. The same arithmetic, bit for
// bit, in 16 YMM registers:
//   - the loop: each 32-byte vector of x loaded once (two per iteration)
//     and multiplied into the 10 rows, one accumulator each (Y0..Y9), the
//     rows' bytes loaded into Y11, Y12 (the VEX VPDPBUSD is emitted with
//     register operands only); the tail of d mod 32 bytes by one more
//     vector, the last 32 bytes of x with the lanes already summed cleared
//     (an AND with 32 bytes of rescaleC's tail table) against the last 32
//     bytes of each row. That needs d ≥ 32 (or d mod 32 = 0): Fused10's
//     Predict and PredictI8 give a shorter x as 32 bytes padded with zeros,
//     which meet the rows' zero padding (Fused10's rows are padded to 64
//     bytes with zeros);
//   - the 10 sums by a transpose-and-add tree: VPUNPCKL/HDQ + VPADDD on the
//     row pairs, VPUNPCKL/HQDQ + VPADDD (Y0 = rows 0..3, Y4 = rows 4..7 in
//     each 128-bit lane; Y8 = rows 8, 9 in lanes 0, 1 of each), then across
//     the lanes (VINSERTI128 and VPERM2F128 + VPADDD; the high half added
//     for rows 8, 9): Y0 = rows 0..7, X8's lanes 0, 1 = rows 8, 9;
//   - the correction (VPMULLD by the broadcast z), VCVTDQ2PD in three
//     parts (rows 0..3, 4..7, 8..9), ·(s·sx), +b, VCVTPD2PS(Y/X);
//   - the argmax: a score with all exponent bits set returns 0, false;
//     else the maximum by a VMAXPS tree (rows 8, 9 merged into lanes 0, 1
//     by VBLENDPD), VCMPPS EQ (−0 = +0) to all-ones lanes, VMOVMSKPS of rows
//     0..7 and of rows 8, 9 (bits 8, 9; bits 10, 11 of +0 lanes may be set,
//     but above a set one) and BSF: the smallest k of the largest score.
//
// m is a modelkern.Fused10 as in dotsRescale10; with signed, x's bytes are
// flipped (VPXOR by Y14's 0x80 bytes) and z = 128 against the rows' own
// sums, as there.
func dotsRescale10YMM(f *asmFile, c operand.Mem, signed bool) {
	g := fused10Fn(f, i8AVXVNNI, avx2, 32, "AVXVNNI", signed)
	g.Comment("SI = w, R8 = the rows' stride, DI = &x[0], BX = d; R13 = d rounded down to",
		"32; Y14 = bytes of 0x80 (signed x)")
	g.MOVQ(g.param("m"), reg.R10)
	g.MOVQ(mem(reg.R10, 0), reg.RSI)
	g.MOVQ(mem(reg.R10, 32), reg.R8)
	g.MOVQ(g.param("x", "base"), reg.RDI)
	g.MOVQ(g.param("x", "len"), reg.RBX)
	g.MOVQ(reg.RBX, reg.R13)
	g.ANDQ(imm(-32), reg.R13)
	if signed {
		g.VPBROADCASTD(c.Offset(80), reg.Y14)
	}
	acc := func(r int) reg.VecPhysical { return yr[r] }
	X := []reg.VecPhysical{reg.Y10, reg.Y13}
	T := []reg.VecPhysical{reg.Y11, reg.Y12}
	g.Comment("10 rows at a time, two vectors (64 bytes) per iteration: Y(r) = row r's",
		"sums, Y10, Y13 = x; CX = row 0, R9 = row 3, R10 = row 5 (the others at",
		"stride·{1, 2, 4, 8} from these), R12 = x cursor, R11 = end of x's 64-byte blocks")
	rows10Cursors(g.x86, reg.RBX, 64)
	for r := 0; r < 10; r++ {
		g.VPXOR(acc(r), acc(r), acc(r))
	}
	at := rows10At
	cursors := []reg.Register{reg.RCX, reg.R9, reg.R10}
	advance := func(n int) {
		for _, r := range append([]reg.Register{reg.R12}, cursors...) {
			g.ADDQ(imm(n), r)
		}
	}
	load := func(src operand.Mem, x reg.VecPhysical) {
		g.VMOVDQU(src, x)
		if signed {
			g.VPXOR(reg.Y14, x, x)
		}
	}
	rows := func(x reg.VecPhysical, disp int) {
		for r := 0; r < 10; r++ {
			t := T[r%2]
			g.VMOVDQU(at(r, disp), t)
			g.vpdpbusd(t, x, acc(r))
		}
	}
	rows10Steps(g.x86, "y10", 32, "one more whole vector if d mod 64 ≥ 32", X, load, rows, advance)

	g.Label("y10tail")
	g.MOVQ(reg.RBX, reg.RAX)
	g.ANDQ(imm(31), reg.RAX)
	g.JZ(lbl("y10sum"))
	g.Comment("the last d mod 32 = AX bytes (d ≥ 32): x's last 32 bytes, the lanes",
		"already summed cleared, against the rows' last 32 (the cursors moved on by AX)")
	g.LEAQ(c.Offset(rescaleTail), reg.R11)
	g.VMOVDQU(mem(reg.RDI, -32, reg.RBX), X[1])
	if signed {
		g.VPXOR(reg.Y14, X[1], X[1]) // before the AND: cleared lanes 0, not 128
	}
	g.VPAND(mem(reg.R11, 0, reg.RAX), X[1], X[1])
	for _, r := range cursors {
		g.ADDQ(reg.RAX, r)
	}
	rows(X[1], -32)

	g.Label("y10sum")
	dotsRescaleTreeYMM(g.x86)
	dotsRescaleEndYMM(g, c, signed, true)
}

// dotsRescaleEndYMM emits the end of the YMM fused functions after
// dotsRescaleTreeYMM (the sums in Y0 and X8's low lanes): the correction
// z·sum (unsigned x; with signed, 128·Σw, the rows' own sums, for the
// AVX-VNNI functions, which read signed x as x + 128; none when corr is
// false), then the rescale and the argmax.
func dotsRescaleEndYMM(g *i8x86, c operand.Mem, signed, corr bool) {
	g.MOVQ(g.param("m"), reg.R10)
	if corr {
		g.Comment("Y15 = z (broadcast), Y11 = z·sum[0:8], X12 = z·sum[8:10]; the correction")
		if signed {
			g.MOVQ(mem(reg.R10, 40), reg.R11) // Fused10's own row sums Σ w
			g.MOVL(imm32(128), reg.R12L)
		} else {
			g.MOVQ(mem(reg.R10, 8), reg.R11)
			g.MOVBLZX(g.param("z"), reg.R12L)
		}
		g.VMOVD(reg.R12L, reg.X15)
		g.VPBROADCASTD(reg.X15, reg.Y15)
		g.VPMULLD(mem(reg.R11, 0), reg.Y15, reg.Y11)
		g.VMOVQ(mem(reg.R11, 32), reg.X12)
		g.VPMULLD(reg.X12, reg.X15, reg.X12)
		g.VPSUBD(reg.Y11, reg.Y0, reg.Y0)
		g.VPSUBD(reg.X12, reg.X8, reg.X8)
	}
	g.Comment("to float64: Y1 = rows 0..3, Y2 = rows 4..7, X9 = rows 8, 9; ·(s·sx) (Y3, Y4,",
		"X5), +b, to float32: Y1 = rows 0..7, X9 = rows 8, 9 (lanes 2, 3 zero)")
	g.VCVTDQ2PD(reg.X0, reg.Y1)
	g.VEXTRACTI128(operand.Imm(1), reg.Y0, reg.X2)
	g.VCVTDQ2PD(reg.X2, reg.Y2)
	g.VCVTDQ2PD(reg.X8, reg.X9)
	g.MOVQ(mem(reg.R10, 16), reg.R11)
	g.VBROADCASTSD(g.param("sx"), reg.Y15)
	g.VMULPD(mem(reg.R11, 0), reg.Y15, reg.Y3)
	g.VMULPD(mem(reg.R11, 32), reg.Y15, reg.Y4)
	g.VMULPD(mem(reg.R11, 64), reg.X15, reg.X5)
	g.VMULPD(reg.Y1, reg.Y3, reg.Y1)
	g.VMULPD(reg.Y2, reg.Y4, reg.Y2)
	g.VMULPD(reg.X9, reg.X5, reg.X9)
	g.MOVQ(mem(reg.R10, 24), reg.R11)
	g.VADDPD(mem(reg.R11, 0), reg.Y1, reg.Y1)
	g.VADDPD(mem(reg.R11, 32), reg.Y2, reg.Y2)
	g.VADDPD(mem(reg.R11, 64), reg.X9, reg.X9)
	g.VCVTPD2PSY(reg.Y1, reg.X1)
	g.VCVTPD2PSY(reg.Y2, reg.X2)
	g.VINSERTI128(operand.Imm(1), reg.X2, reg.Y1, reg.Y1)
	g.VCVTPD2PSX(reg.X9, reg.X9)
	dotsRescaleStore(g.x86, c)
	g.Comment("Y4 = the maximum in every lane: rows 8, 9 merged into lanes 0, 1 (VBLENDPD),",
		"then the halves, the pairs and the neighbours")
	g.VMAXPS(reg.Y9, reg.Y1, reg.Y5)
	g.VBLENDPD(operand.U8(1), reg.Y5, reg.Y1, reg.Y4)
	g.VPERM2F128(operand.U8(1), reg.Y4, reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.VPERMILPS(operand.Imm(0x4e), reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.VPERMILPS(operand.Imm(0xb1), reg.Y4, reg.Y5)
	g.VMAXPS(reg.Y5, reg.Y4, reg.Y4)
	g.Comment("AX = the lowest k whose score equals the maximum: rows 0..7 in bits 0..7,",
		"rows 8, 9 in bits 8, 9 (bits 10, 11, of +0 lanes, may be set too, but above a",
		"set one)")
	g.VCMPPS(operand.U8(0), reg.Y4, reg.Y1, reg.Y5)
	g.VMOVMSKPS(reg.Y5, reg.EAX)
	g.VCMPPS(operand.U8(0), reg.X4, reg.X9, reg.X5)
	g.VMOVMSKPS(reg.X5, reg.ECX)
	g.SHLL(operand.U8(8), reg.ECX)
	g.ORL(reg.ECX, reg.EAX)
	g.BSFL(reg.EAX, reg.EAX)
	rescaleReturn(g.x86)
	if err := i8Uncovered(g.v, g.name, g.extra); err != nil {
		panic(err)
	}
}

// dotsRescale10Wide emits dotsRescaleU8AVX2 (or, with signed,
// dotsRescaleI8AVX2): dotsRescale10YMM for the avx2 int8 implementation,
// which has no VPDPBUSD. Its Fused10 rows are widened to int16 once, when
// they are made (internal/modelkern/rescale.go), so that each 16 bytes of x, widened
// by VPMOVZXBW (VPMOVSXBW for signed x), multiply every row by one
// VPMADDWD: adjacent int16 products summed into int32, exact (|pair| ≤
// 2·255·128), then one VPADDD into the row's accumulator, wrapping as the
// plain loop. The 4-bit split of DotsU8I8 on AVX2 (two VPMADDUBSW per
// vector and row, int16 sums flushed every eight vectors) needs two
// accumulators per row, twenty for ten rows, more than the sixteen YMM
// registers; the widened rows need one and twice the bytes, 15.6 KiB at
// d = 784, which stay in L1. Signed x needs no correction (the products
// are of the values themselves); unsigned x is corrected by z·sum as in
// dotsRescale10YMM. m's stride is the widened rows' in bytes (2·the
// elements); the function takes len(x) ≥ 16 (Fused10.Predict pads a
// shorter x with zeros, which meet the rows' zero padding).
func dotsRescale10Wide(f *asmFile, c operand.Mem, signed bool) {
	g := fused10Fn(f, i8AVX2, avx2, 32, "AVX2", signed)
	widen := func(src operand.Op, dst reg.VecPhysical) {
		if signed {
			g.VPMOVSXBW(src, dst)
		} else {
			g.VPMOVZXBW(src, dst)
		}
	}
	g.Comment("SI = w (int16 rows), R8 = the rows' stride in bytes, DI = &x[0], BX = d;",
		"R13 = d rounded down to 16")
	g.MOVQ(g.param("m"), reg.R10)
	g.MOVQ(mem(reg.R10, 0), reg.RSI)
	g.MOVQ(mem(reg.R10, 32), reg.R8)
	g.MOVQ(g.param("x", "base"), reg.RDI)
	g.MOVQ(g.param("x", "len"), reg.RBX)
	g.MOVQ(reg.RBX, reg.R13)
	g.ANDQ(imm(-16), reg.R13)
	acc := func(r int) reg.VecPhysical { return yr[r] }
	X := []reg.VecPhysical{reg.Y10, reg.Y13}
	T := []reg.VecPhysical{reg.Y11, reg.Y12}
	g.Comment("10 rows at a time, 32 bytes of x (64 of each row) per iteration: Y(r) =",
		"row r's sums, Y10, Y13 = 16 bytes of x widened; CX = row 0, R9 = row 3,",
		"R10 = row 5 (the others at stride·{1, 2, 4, 8} from these), R12 = x cursor,",
		"R11 = end of x's 32-byte blocks")
	rows10Cursors(g.x86, reg.RBX, 32)
	for r := 0; r < 10; r++ {
		g.VPXOR(acc(r), acc(r), acc(r))
	}
	cursors := []reg.Register{reg.RCX, reg.R9, reg.R10}
	advance := func(n int) {
		g.ADDQ(imm(n), reg.R12)
		for _, r := range cursors {
			g.ADDQ(imm(2*n), r)
		}
	}
	rows := func(x reg.VecPhysical, disp int) {
		for r := 0; r < 10; r++ {
			t := T[r%2]
			g.VPMADDWD(rows10At(r, disp), x, t)
			g.VPADDD(t, acc(r), acc(r))
		}
	}
	rows10Steps(g.x86, "w10", 16, "16 more bytes if d mod 32 ≥ 16", X,
		func(src operand.Mem, x reg.VecPhysical) { widen(src, x) }, rows, advance)

	g.Label("w10tail")
	g.MOVQ(reg.RBX, reg.RAX)
	g.ANDQ(imm(15), reg.RAX)
	g.JZ(lbl("w10sum"))
	g.Comment("the last d mod 16 = AX bytes (d ≥ 16): x's last 16 bytes, the lanes",
		"already summed cleared (zero, widened or not), against the rows' last 16",
		"words (the cursors moved on by 2·AX)")
	g.LEAQ(c.Offset(rescaleTail+16), reg.R11)
	g.VMOVDQU(mem(reg.RDI, -16, reg.RBX), reg.X13)
	g.VPAND(mem(reg.R11, 0, reg.RAX), reg.X13, reg.X13)
	widen(reg.X13, reg.Y13)
	g.ADDQ(reg.RAX, reg.RAX)
	for _, r := range cursors {
		g.ADDQ(reg.RAX, r)
	}
	rows(reg.Y13, -32)

	g.Label("w10sum")
	dotsRescaleTreeYMM(g.x86)
	dotsRescaleEndYMM(g, c, signed, !signed)
}

// rows10Steps emits the loop of the YMM fused functions (labels p+"loop",
// p+"one"; it ends at p+"tail", which the caller places): two steps of xb
// bytes of x per iteration while the x cursor R12 is below R11, then one
// more step (doc its comment) while it is below DI + R13. A step loads the
// x bytes at the cursor into X[u] (load) and multiplies them into the rows
// at the row cursors plus 32·u (rows); advance(n) moves the cursors on by n
// bytes of x.
func rows10Steps(g *x86, p string, xb int, one string, X []reg.VecPhysical,
	load func(src operand.Mem, x reg.VecPhysical), rows func(x reg.VecPhysical, disp int), advance func(n int)) {
	g.CMPQ(reg.R12, reg.R11)
	g.JAE(lbl(p + "one"))
	g.pcalign(32)
	g.Label(p + "loop")
	for u := 0; u < 2; u++ {
		load(mem(reg.R12, xb*u), X[u])
	}
	for u := 0; u < 2; u++ {
		rows(X[u], 32*u)
	}
	advance(2 * xb)
	g.CMPQ(reg.R12, reg.R11)
	g.JB(lbl(p + "loop"))

	g.Label(p + "one")
	g.Comment(one)
	g.LEAQ(mem(reg.RDI, 0, reg.R13), reg.R11)
	g.CMPQ(reg.R12, reg.R11)
	g.JAE(lbl(p + "tail"))
	load(mem(reg.R12, 0), X[0])
	rows(X[0], 0)
	advance(xb)
}

// rescaleTail is the offset in rescaleC of 32 zero bytes then 32 bytes of
// 0xFF: the 32 bytes at rescaleTail + r keep the last r bytes of a vector.
const rescaleTail = 96

// dotsRescaleTreeYMM is dotsRescaleTree for dotsRescale10YMM's one YMM
// accumulator per row (Y0..Y9): Y0 = the sums of rows 0..7 and X8's lanes
// 0, 1 = rows 8, 9 at its end (Y10..Y15 its temporaries).
func dotsRescaleTreeYMM(g *x86) {
	g.Comment("the 10 sums: the row pairs' dwords interleaved and added")
	for p := 0; p < 5; p++ {
		a, b := yr[2*p], yr[2*p+1]
		g.VPUNPCKLDQ(b, a, reg.Y10)
		g.VPUNPCKHDQ(b, a, reg.Y11)
		g.VPADDD(reg.Y11, reg.Y10, a)
	}
	g.Comment("then their qwords: Y0 = rows 0..3, Y4 = rows 4..7 in each 128-bit lane,",
		"Y8 = rows 8, 9 in lanes 0, 1 of each")
	for _, q := range []int{0, 4} {
		g.VPUNPCKLQDQ(yr[q+2], yr[q], reg.Y10)
		g.VPUNPCKHQDQ(yr[q+2], yr[q], reg.Y11)
		g.VPADDD(reg.Y11, reg.Y10, yr[q])
	}
	g.VPUNPCKHQDQ(reg.Y8, reg.Y8, reg.Y12)
	g.VPADDD(reg.Y12, reg.Y8, reg.Y8)
	g.Comment("across the 128-bit lanes: Y0 = rows 0..7, X8 = rows 8, 9")
	g.VINSERTI128(operand.Imm(1), reg.X4, reg.Y0, reg.Y10)
	g.VPERM2F128(operand.U8(0x31), reg.Y4, reg.Y0, reg.Y11)
	g.VPADDD(reg.Y11, reg.Y10, reg.Y0)
	g.VEXTRACTI128(operand.Imm(1), reg.Y8, reg.X9)
	g.VPADDD(reg.X9, reg.X8, reg.X8)
}

// dotsRescaleStore emits the end common to dotsRescale10 and
// dotsRescale10YMM before the argmax: the scores of rows 0..7 (Y1) and 8, 9
// (X9's low lanes, its lanes 2, 3 zero) stored to dst, and the jump to
// label nonfinite if one has all exponent bits set (Y14 = those bits
// after it).
func dotsRescaleStore(g *x86, c operand.Mem) {
	g.MOVQ(g.param("dst"), reg.RDI)
	g.VMOVUPS(reg.Y1, mem(reg.RDI, 0))
	g.VMOVQ(reg.X9, mem(reg.RDI, 32))
	g.Comment("a score with all exponent bits set (±Inf, NaN): 0, false")
	g.VPBROADCASTD(c.Offset(0), reg.Y14)
	g.VPAND(reg.Y14, reg.Y1, reg.Y2)
	g.VPAND(reg.X14, reg.X9, reg.X3)
	g.VPMAXUD(reg.Y3, reg.Y2, reg.Y2)
	rescaleNonFinite(g, reg.Y2)
}
