package main

import "fmt"

// The input quantiser for arm64 (internal/modelkern/quantize_arm64.s; see quantize.go
// for the contracts), run by the neon and neondot int8 implementations.
//
// quantRangeNEON: the bits of each vector folded into four running
// unsigned maxima (UMAX) and four signed ones (SMAX) from 0; the lanes are
// reduced by UMAXV and SMAXV. The last 4 elements are loaded again,
// overlapping those already seen.
//
// quantizeU8NEON: t = x·inv (FMUL) + off (FADD), two roundings as Go's
// float32(x*inv) + off; FCVTZU truncates toward zero with unsigned
// saturation (NaN and t ≤ 0 give 0, t ≥ 2³² gives 2³²−1), and two UQXTN
// narrow with unsigned saturation to 16 then 8 bits: 255 for every t ≥ 255.
// The last 4 bytes are computed and stored again from the last 4 elements.
//
// The Go assembler has none of UMAX, SMAX, UMAXV, SMAXV, FMUL, FADD,
// FCVTZU, UQXTN: they are WORDs with their GNU mnemonic (kernel's
// wordenc_test.go re-assembles each).

// quantizeNEONFile returns internal/modelkern/quantize_arm64.s.
func quantizeNEONFile() []byte {
	f := newNeonFile(
		"The input quantiser of package modelkern for arm64 (QuantRange and",
		"QuantizeU8 of the neon and neondot int8 implementations). The Go",
		"declarations are in quantize_arm64.go; the generator's quantize.go and",
		"quantize_neon.go hold their definition. Every WORD carries its GNU",
		"mnemonic; wordenc_test.go re-assembles each one.",
	)
	quantRangeNEON(f)
	quantizeNEON(f)
	return f.bytes()
}

// neonQ emits the quantiser's instructions (float32 lanes).
type neonQ struct{ *neon }

func (a neonQ) enc(base uint32, d, n, m int, gnu string) {
	a.word(base|uint32(m)<<16|uint32(n)<<5|uint32(d), gnu)
}

func (a neonQ) umax(d, n, m int) {
	a.enc(0x6ea06400, d, n, m, fmt.Sprintf("umax v%d.4s, v%d.4s, v%d.4s", d, n, m))
}

func (a neonQ) smax(d, n, m int) {
	a.enc(0x4ea06400, d, n, m, fmt.Sprintf("smax v%d.4s, v%d.4s, v%d.4s", d, n, m))
}

// fcvtzu: Vd.4S = Vn.4S converted to uint32, toward zero, saturating.
func (a neonQ) fcvtzu(d, n int) {
	a.enc(0x6ea1b800, d, n, 0, fmt.Sprintf("fcvtzu v%d.4s, v%d.4s", d, n))
}

// uqxtn narrows Vn's lanes of 32 (to16) or 16 bits into the low (hi
// false) or high half of Vd, with unsigned saturation.
func (a neonQ) uqxtn(to16, hi bool, d, n int) {
	base, dst, src, name := uint32(0x2e214800), "8b", "8h", "uqxtn"
	if to16 {
		base, dst, src = 0x2e614800, "4h", "4s"
	}
	if hi {
		base |= 1 << 30
		name += "2"
		dst = map[string]string{"8b": "16b", "4h": "8h"}[dst]
	}
	a.enc(base, d, n, 0, fmt.Sprintf("%s v%d.%s, v%d.%s", name, d, dst, n, src))
}

// text starts a function whose Go signature decl and frame size the
// caller gives (the frame map of neonFile.fn is for element-typed
// arguments only).
func (f *neonFile) text(name, decl string, size int) neonQ {
	fmt.Fprintf(&f.b, "\n// func %s%s\n", name, decl)
	fmt.Fprintf(&f.b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	return neonQ{&neon{f: f, t: f32}}
}

func quantRangeNEON(f *neonFile) {
	a := f.text(quantNEON.rangeName(), quantRangeDecl, 32)
	a.comment("R0 = the x cursor, R1 = elements left; V0-V3 the unsigned maxima,",
		"V4-V7 the signed maxima of the bits, from 0; V16-V19 x")
	a.i("MOVD", "x_base+0(FP)", "R0")
	a.i("MOVD", "x_len+8(FP)", "R1")
	a.vzero(0, 1, 2, 3, 4, 5, 6, 7)
	fold := func(r, acc int) {
		a.umax(acc, acc, r)
		a.smax(acc+4, acc+4, r)
	}
	a.label("loop16")
	a.i("CMP", "$16", "R1")
	a.i("BLT", "loop4")
	a.i("VLD1.P", "64(R0)", "[V16.S4, V17.S4, V18.S4, V19.S4]")
	for j := 0; j < 4; j++ {
		fold(16+j, j)
	}
	a.i("SUB", "$16", "R1")
	a.i("B", "loop16")
	a.label("loop4")
	a.i("CMP", "$4", "R1")
	a.i("BLT", "tail")
	a.i("VLD1.P", "16(R0)", "[V16.S4]")
	fold(16, 0)
	a.i("SUB", "$4", "R1")
	a.i("B", "loop4")
	a.label("tail")
	a.i("CBZ", "R1", "reduce")
	a.comment("the last 4 elements, overlapping those already seen")
	a.i("ADD", "R1<<2", "R0", "R0")
	a.i("SUB", "$16", "R0")
	a.i("VLD1", "(R0)", "[V16.S4]")
	fold(16, 1)
	a.label("reduce")
	a.umax(0, 0, 1)
	a.umax(2, 2, 3)
	a.umax(0, 0, 2)
	a.enc(0x6eb0a800, 0, 0, 0, "umaxv s0, v0.4s")
	a.smax(4, 4, 5)
	a.smax(6, 6, 7)
	a.smax(4, 4, 6)
	a.enc(0x4eb0a800, 4, 4, 0, "smaxv s4, v4.4s")
	a.i("VMOV", "V0.S[0]", "R2")
	a.i("MOVW", "R2", "neg+24(FP)")
	a.i("VMOV", "V4.S[0]", "R3")
	a.i("MOVW", "R3", "pos+28(FP)")
	a.i("RET")
}

func quantizeNEON(f *neonFile) {
	a := f.text(quantNEON.quantizeName(), quantizeU8Decl, 56)
	a.comment("R0 = the dst cursor, R1 = the x cursor, R2 = elements left;",
		"V28 = inv, V29 = off in every lane; V0-V3 x, then t, then bytes")
	a.i("MOVD", "dst_base+0(FP)", "R0")
	a.i("MOVD", "x_base+24(FP)", "R1")
	a.i("MOVD", "x_len+32(FP)", "R2")
	a.i("FMOVS", "inv+48(FP)", "F28")
	a.i("VDUP", "V28.S[0]", "V28.S4")
	a.i("FMOVS", "off+52(FP)", "F29")
	a.i("VDUP", "V29.S[0]", "V29.S4")
	conv := func(r int) {
		a.fmul(r, r, 28)
		a.fadd(r, r, 29)
		a.fcvtzu(r, r)
	}
	// four4 narrows the uint32 lanes of V0 to bytes in its low 4.
	four4 := func() {
		a.uqxtn(true, false, 0, 0)
		a.uqxtn(false, false, 0, 0)
	}
	a.label("loop16")
	a.i("CMP", "$16", "R2")
	a.i("BLT", "loop4")
	a.i("VLD1.P", "64(R1)", "[V0.S4, V1.S4, V2.S4, V3.S4]")
	for j := 0; j < 4; j++ {
		conv(j)
	}
	a.uqxtn(true, false, 0, 0)
	a.uqxtn(true, true, 0, 1)
	a.uqxtn(true, false, 2, 2)
	a.uqxtn(true, true, 2, 3)
	a.uqxtn(false, false, 0, 0)
	a.uqxtn(false, true, 0, 2)
	a.i("VST1.P", "[V0.B16]", "16(R0)")
	a.i("SUB", "$16", "R2")
	a.i("B", "loop16")
	a.label("loop4")
	a.i("CMP", "$4", "R2")
	a.i("BLT", "tail")
	a.i("VLD1.P", "16(R1)", "[V0.S4]")
	conv(0)
	four4()
	a.i("VMOV", "V0.S[0]", "R3")
	a.i("MOVW.P", "R3", "4(R0)")
	a.i("SUB", "$4", "R2")
	a.i("B", "loop4")
	a.label("tail")
	a.i("CBZ", "R2", "done")
	a.comment("the last 4 elements and bytes again, overlapping those already done")
	a.i("ADD", "R2<<2", "R1", "R1")
	a.i("SUB", "$16", "R1")
	a.i("ADD", "R2", "R0", "R0")
	a.i("SUB", "$4", "R0")
	a.i("VLD1", "(R1)", "[V0.S4]")
	conv(0)
	four4()
	a.i("VMOV", "V0.S[0]", "R3")
	a.i("MOVW", "R3", "(R0)")
	a.label("done")
	a.i("RET")
}
