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
// Eight scores per step under a mask of the remaining ones (K1: the loads
// past the end are neither read nor faulting, the lanes zero): VCVTDQ2PD
// (exact), VMULPD by the broadcast sx, VMULPD, VADDPD, VCVTPD2PS (round to
// nearest, as Go's conversion), a masked store. The exponent bits of every
// score fold into a running VPMAXUD (the masked lanes are +0: neutral),
// the scores into a running VMAXPS merged under K1 from −Inf. If a lane's
// exponent is all ones, the result is 0, false; else the maximum m is
// broadcast and the scores are compared with it again, eight at a time,
// the first equal lane (VCMPPS EQ: −0 equals +0, as Go's >) the answer.
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
	f.ctx.AddDatum(4, operand.U32(0xff800000)) // −Inf
	g := f.fn(i8AVX512VNNI.spec, f32, avx512, "rescaleArgmaxAVX512", rescaleSig)
	g.Comment("DI = dst, SI = acc, R8 = s, R9 = b, DX = n, AX = k; Z15 = sx, Y14 = exponent",
		"bits, Z13 = running max, Y12 = running max of the exponent bits")
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
	g.VBROADCASTSS(c.Offset(4), reg.Z13)
	g.VPXOR(reg.Y12, reg.Y12, reg.Y12)
	// mask sets K1 to the scores left from AX, at most 8 (clobbers CX, BX).
	mask := func() {
		g.MOVQ(reg.RDX, reg.RCX)
		g.SUBQ(reg.RAX, reg.RCX)
		g.MOVL(imm32(8), reg.EBX)
		g.CMPQ(reg.RCX, reg.RBX)
		g.CMOVQGT(reg.RBX, reg.RCX)
		g.MOVL(imm32(1), reg.EBX)
		g.shlCL(reg.EBX)
		g.DECL(reg.EBX)
		g.KMOVW(reg.EBX, reg.K1)
	}
	g.Label("scores")
	mask()
	g.VCVTDQ2PD_Z(memx(reg.RSI, 0, reg.RAX, 4), reg.K1, reg.Z0)
	g.VMOVUPD_Z(memx(reg.R8, 0, reg.RAX, 8), reg.K1, reg.Z1)
	g.VMOVUPD_Z(memx(reg.R9, 0, reg.RAX, 8), reg.K1, reg.Z2)
	g.VMULPD(reg.Z15, reg.Z1, reg.Z1)
	g.VMULPD(reg.Z0, reg.Z1, reg.Z1)
	g.VADDPD(reg.Z2, reg.Z1, reg.Z1)
	g.VCVTPD2PS(reg.Z1, reg.Y1)
	g.VMOVUPS(reg.Z1, reg.K1, memx(reg.RDI, 0, reg.RAX, 4))
	g.VPAND(reg.Y14, reg.Y1, reg.Y2)
	g.VPMAXUD(reg.Y2, reg.Y12, reg.Y12)
	g.VMAXPS(reg.Z1, reg.Z13, reg.K1, reg.Z13)
	g.ADDQ(imm(8), reg.RAX)
	g.CMPQ(reg.RAX, reg.RDX)
	g.JB(lbl("scores"))

	g.Comment("a score with all exponent bits set (±Inf, NaN): 0, false")
	g.VPCMPEQD(reg.Y14, reg.Y12, reg.Y2)
	g.VMOVMSKPS(reg.Y2, reg.ECX)
	g.TESTL(reg.ECX, reg.ECX)
	g.JNZ(lbl("nonfinite"))
	g.Comment("Z13 = the maximum in every lane (its lanes 8.. are −Inf)")
	g.VEXTRACTF128(operand.Imm(1), reg.Y13, reg.X0)
	g.VMAXPS(reg.X0, reg.X13, reg.X13)
	g.VPERMILPS(operand.Imm(0x4e), reg.X13, reg.X0)
	g.VMAXPS(reg.X0, reg.X13, reg.X13)
	g.VPERMILPS(operand.Imm(0xb1), reg.X13, reg.X0)
	g.VMAXPS(reg.X0, reg.X13, reg.X13)
	g.VBROADCASTSS(reg.X13, reg.Z13)
	g.XORL(reg.EAX, reg.EAX)
	g.Label("argmax")
	mask()
	g.VMOVUPS_Z(memx(reg.RDI, 0, reg.RAX, 4), reg.K1, reg.Z0)
	g.VCMPPS(operand.Imm(0), reg.Z13, reg.Z0, reg.K1, reg.K2)
	g.KMOVW(reg.K2, reg.ECX)
	g.TESTL(reg.ECX, reg.ECX)
	g.JNZ(lbl("first"))
	g.ADDQ(imm(8), reg.RAX)
	g.CMPQ(reg.RAX, reg.RDX)
	g.JB(lbl("argmax"))
	g.Comment("(not reached: the maximum is one of the scores)")
	g.XORL(reg.EAX, reg.EAX)
	g.JMP(lbl("found"))
	g.Label("first")
	g.BSFL(reg.ECX, reg.ECX)
	g.ADDQ(reg.RCX, reg.RAX)
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
