package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The int8 models' last step (Int8Kernels.RescaleArgmax, written by hand
// with its Go loop in kernel/rescale.go): the integer scores to float32
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
// The Go dispatch (kernel/rescale_<goarch>.go) sends the other
// implementations to the Go loop.

const rescaleSig = "func(dst []float32, acc []int32, s, b []float64, sx float64) (best int, finite bool)"

// rescaleX86File returns kernel/rescale_amd64.s.
func rescaleX86File() ([]byte, error) {
	f := newAsmFile(
		"The int8 models' rescale and argmax of package kernel for amd64",
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
	g.VBROADCASTSD(g.param("sx"), reg.Z15)
	g.VPBROADCASTD(c.Offset(0), reg.Y14)
	g.VPBROADCASTD(c.Offset(4), reg.Y7)
	g.VMOVDQU64(c.Offset(8), reg.Z11)
	g.VPBROADCASTQ(c.Offset(72), reg.Z10)
	for _, r := range []reg.VecPhysical{reg.Y9, reg.Y8, reg.Y13} {
		g.VPXOR(r, r, r)
	}
	// chunk emits the step of the 8 scores at AX, under K1 if masked (the
	// tail): the loads and the store then touch only the bytes of the
	// slices (the store's footprint is 32 bytes, AVX512VL), and the whole
	// steps use plain ones, which a store just made forwards to.
	chunk := func(masked bool) {
		a, s, b := memx(reg.RSI, 0, reg.RAX, 4), memx(reg.R8, 0, reg.RAX, 8), memx(reg.R9, 0, reg.RAX, 8)
		if masked {
			g.VCVTDQ2PD_Z(a, reg.K1, reg.Z0)
			g.VMOVUPD_Z(s, reg.K1, reg.Z1)
			g.VMOVUPD_Z(b, reg.K1, reg.Z2)
		} else {
			// two 16-byte loads: each is forwarded from a store of 16
			// bytes or more just made (the kernels' blocks of 4 rows)
			g.VMOVDQU(a, reg.X0)
			g.VINSERTI128(operand.Imm(1), memx(reg.RSI, 16, reg.RAX, 4), reg.Y0, reg.Y0)
			g.VCVTDQ2PD(reg.Y0, reg.Z0)
			g.VMOVUPD(s, reg.Z1)
			g.VMOVUPD(b, reg.Z2)
		}
		g.VMULPD(reg.Z15, reg.Z1, reg.Z1)
		g.VMULPD(reg.Z0, reg.Z1, reg.Z1)
		g.VADDPD(reg.Z2, reg.Z1, reg.Z1)
		g.VCVTPD2PS(reg.Z1, reg.Y1)
		if masked {
			g.VMOVUPS(reg.Y1, reg.K1, memx(reg.RDI, 0, reg.RAX, 4))
		} else {
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
		if masked {
			g.VPMAXUQ(reg.Z1, reg.Z13, reg.K1, reg.Z13)
		} else {
			g.VPMAXUQ(reg.Z1, reg.Z13, reg.Z13)
		}
	}
	g.Comment("the whole steps of 8; BX = n rounded down to 8")
	g.MOVQ(reg.RDX, reg.RBX)
	g.ANDQ(imm(-8), reg.RBX)
	g.JZ(lbl("tail"))
	g.Label("scores")
	chunk(false)
	g.VPSUBQ(reg.Z10, reg.Z11, reg.Z11)
	g.ADDQ(imm(8), reg.RAX)
	g.CMPQ(reg.RAX, reg.RBX)
	g.JB(lbl("scores"))
	g.Label("tail")
	g.Comment("the last n mod 8 under K1")
	g.MOVQ(reg.RDX, reg.RCX)
	g.ANDQ(imm(7), reg.RCX)
	g.JZ(lbl("check"))
	g.MOVL(imm32(1), reg.EBX)
	g.shlCL(reg.EBX)
	g.DECL(reg.EBX)
	g.KMOVW(reg.EBX, reg.K1)
	chunk(true)

	g.Label("check")
	g.Comment("a score with all exponent bits set (±Inf, NaN): 0, false")
	g.VPCMPEQD(reg.Y14, reg.Y9, reg.Y2)
	g.VMOVMSKPS(reg.Y2, reg.ECX)
	g.TESTL(reg.ECX, reg.ECX)
	g.JNZ(lbl("nonfinite"))
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
	g.MOVQ(reg.RAX, g.resultAt(0))
	g.MOVB(operand.U8(1), g.resultAt(1))
	g.VZEROUPPER()
	g.RET()
	g.Label("nonfinite")
	g.MOVQ(operand.U32(0), g.resultAt(0))
	g.MOVB(operand.U8(0), g.resultAt(1))
	g.VZEROUPPER()
	g.RET()
	return f.render()
}

// rescaleGoFile returns kernel/rescale_amd64.go, or rescale_other.go for "".
func rescaleGoFile(goarch string) ([]byte, error) {
	constraint := "!purego"
	if goarch == "" {
		constraint = "purego || !amd64"
	}
	f := newGoFile(constraint, "kernel")
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
	f.comment("rescaleHasAsm reports whether int8 implementation id runs RescaleArgmax\n" +
		"in assembly.")
	if goarch == "amd64" {
		f.p("func rescaleHasAsm(id int8ID) bool { return id == %s }", i8AVX512VNNI.spec.id)
	} else {
		f.p("func rescaleHasAsm(id int8ID) bool { return false }")
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
	}
	return f.gofmt()
}
