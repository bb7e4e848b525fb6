package main

import "fmt"

// The int8 kernels for arm64 (kernel/int8_arm64.s): dotsU8I8<V>,
// dotsI8<V> and matvecU8I8<V> (see int8.go) for the NEON and NEON dot-product variants, with
// the structure of the amd64 ones: blocks of 4, 2 and 1 rows, each vector
// of x read once per block.
//
// The products, per 16 bytes:
//
//   - dot product, signed x: SDOT adds x[4i..4i+3]·w[4i..4i+3] (i8·i8) to
//     the int32 lane i, wrapping modulo 2³².
//   - dot product, unsigned x: there is no mixed-sign dot product before
//     ARMv8.6's USDOT, so each w is taken as w+128 = w XOR 0x80 (unsigned)
//     and UDOT (u8·u8) accumulates Σ x·(w+128) = Σ x·w + 128·Σx; Σx is one
//     more UDOT of x with bytes of 1, shared by the rows of the block, and
//     128·Σx is subtracted from each row's sum.
//   - dot product, MatVecU8I8 (unsigned rows m, signed w): each row is
//     taken as m−128 = m XOR 0x80 (signed) and SDOT accumulates
//     Σ (m−128)·w = Σ m·w − 128·Σw; Σw (SDOT of w with bytes of 1) is
//     shared by the rows, and 128·Σw is added to each row's sum.
//   - without the dot product, MatVecU8I8: as for unsigned x below, with
//     the roles of the row and the vector exchanged.
//   - without the dot product, unsigned x: x is zero-extended and w
//     sign-extended to 16 bits (UXTL, SXTL) and SMLAL/SMLAL2 multiply the
//     halves into int32 sums (|x·w| ≤ 32 640 fits the 16-bit operands).
//   - without the dot product, signed x: SMULL/SMULL2 multiply the bytes
//     into exact 16-bit products (|x·w| ≤ 16 384) and SADALP adds them
//     pairwise into the int32 sums.
//
// Tails: the last d mod 16 bytes are loaded into zeroed registers as an
// 8-, a 4-, a 2- and a 1-byte piece (as the bits of d say; single-lane
// loads), the same lanes for x and every row, and multiplied as a whole
// vector: the zero lanes contribute nothing. Nothing outside the slices is
// read or written.
//
// The Go assembler has none of UDOT, SDOT, SMLAL, SMULL, SADALP, SXTL: the
// emitter encodes them (WORDs with the GNU mnemonic, re-checked by
// internal/asmcheck against the GNU assembler with the dot-product
// extension enabled).

// int8NEONFile returns kernel/int8_arm64.s.
func int8NEONFile() []byte {
	f := newNeonFile(
		"int8 kernels of package kernel for arm64: the \"neon\" and \"neondot\" int8",
		"implementations. The Go declarations, with the plain Go loop each",
		"computes, are in int8_arm64.go; the generator's int8_neon.go holds their",
		"definition and explains the arithmetic. Every WORD carries its GNU",
		"mnemonic; wordenc_test.go re-assembles each one.",
		"",
		"Registers: R0 dst cursor, R1 rows left, R2 the next row of w, R3 &x[0],",
		"R4 d = len(x), R5-R8 the cursors of the block's rows, R9 the x cursor,",
		"R10 a loop counter. V0-V7 the rows' int32 sums, V8-V11 Σx (UDOT), V16-V19",
		"x, V20-V31 row data; V30 = bytes of 0x80 and V31 = bytes of 1 (UDOT).",
	)
	for _, v := range []*i8Variant{i8NEON, i8NEONDot} {
		for _, k := range i8Kinds {
			neonI8Dots(f, v, k)
		}
	}
	return f.bytes()
}

// neonI8 emits one int8 function.
type neonI8 struct {
	*neon
	v *i8Variant
	k i8Kind
}

// enc emits a WORD: base with the register fields d (bits 0-4), n (5-9)
// and m (16-20).
func (a *neonI8) enc(base uint32, d, n, m int, gnu string) {
	a.word(base|uint32(m)<<16|uint32(n)<<5|uint32(d), gnu)
}

// udot: Vd.4S += dot products of the unsigned bytes of Vn and Vm.
func (a *neonI8) udot(d, n, m int) {
	a.enc(0x6e809400, d, n, m, fmt.Sprintf("udot v%d.4s, v%d.16b, v%d.16b", d, n, m))
}

// sdot: the same, signed.
func (a *neonI8) sdot(d, n, m int) {
	a.enc(0x4e809400, d, n, m, fmt.Sprintf("sdot v%d.4s, v%d.16b, v%d.16b", d, n, m))
}

// xtl: Vd.8H = the low (hi false) or high 8 bytes of Vn extended, signed
// (SXTL, SXTL2) or unsigned (UXTL, UXTL2).
func (a *neonI8) xtl(signed, hi bool, d, n int) {
	base, name := uint32(0x0f08a400), "sxtl"
	if !signed {
		base, name = 0x2f08a400, "uxtl"
	}
	src := "8b"
	if hi {
		base |= 1 << 30
		name += "2"
		src = "16b"
	}
	a.enc(base, d, n, 0, fmt.Sprintf("%s v%d.8h, v%d.%s", name, d, n, src))
}

// smlal: Vd.4S += the low (hi false) or high 4 halfwords of Vn times those
// of Vm, signed (SMLAL, SMLAL2).
func (a *neonI8) smlal(hi bool, d, n, m int) {
	if hi {
		a.enc(0x4e608000, d, n, m, fmt.Sprintf("smlal2 v%d.4s, v%d.8h, v%d.8h", d, n, m))
		return
	}
	a.enc(0x0e608000, d, n, m, fmt.Sprintf("smlal v%d.4s, v%d.4h, v%d.4h", d, n, m))
}

// smull: Vd.8H = the low (hi false) or high 8 bytes of Vn times those of
// Vm, signed, exact in 16 bits (SMULL, SMULL2).
func (a *neonI8) smull(hi bool, d, n, m int) {
	if hi {
		a.enc(0x4e20c000, d, n, m, fmt.Sprintf("smull2 v%d.8h, v%d.16b, v%d.16b", d, n, m))
		return
	}
	a.enc(0x0e20c000, d, n, m, fmt.Sprintf("smull v%d.8h, v%d.8b, v%d.8b", d, n, m))
}

// sadalp: Vd.4S += the pairwise sums of the signed halfwords of Vn.
func (a *neonI8) sadalp(d, n int) {
	a.enc(0x4e606800, d, n, 0, fmt.Sprintf("sadalp v%d.4s, v%d.8h", d, n))
}

func vb(r int) string { return fmt.Sprintf("V%d.B16", r) }
func vs(r int) string { return fmt.Sprintf("V%d.S4", r) }

var neonRows = []string{"R5", "R6", "R7", "R8"}

// neonI8Dots emits dots<kind><variant>.
func neonI8Dots(f *neonFile, v *i8Variant, k i8Kind) {
	name := k.asmName(v)
	// The frame: three slices.
	fmt.Fprintf(&f.b, "\n// %s\n", "func "+name+k.sig()[4:])
	fmt.Fprintf(&f.b, "TEXT ·%s(SB), NOSPLIT, $0-72\n", name)
	a := &neonI8{neon: &neon{f: f, t: f32, frame: map[string]int{
		"dst_base": 0, "dst_len": 8, k.rows + "_base": 24, k.vec + "_base": 48, k.vec + "_len": 56}}, v: v, k: k}
	a.i("MOVD", a.fp("dst_base"), "R0")
	a.i("MOVD", a.fp("dst_len"), "R1")
	a.i("MOVD", a.fp(k.rows+"_base"), "R2")
	a.i("MOVD", a.fp(k.vec+"_base"), "R3")
	a.i("MOVD", a.fp(k.vec+"_len"), "R4")
	if v.dot && k.swap() {
		a.comment("V30 = bytes of 0x80 (m XOR 0x80 = m−128, signed), V31 = bytes of 1 (Σw)")
		a.i("VMOVI", "$128", vb(30))
		a.i("VMOVI", "$1", vb(31))
	} else if v.dot && !k.signed() {
		a.comment("V30 = bytes of 0x80 (w XOR 0x80 = w+128), V31 = bytes of 1 (Σx)")
		a.i("VMOVI", "$128", vb(30))
		a.i("VMOVI", "$1", vb(31))
	}

	a.label("rows4")
	a.i("CMP", "$4", "R1")
	a.i("BLT", "rows2")
	a.block(4)
	a.i("SUB", "$4", "R1", "R1")
	a.i("B", "rows4")

	a.label("rows2")
	a.i("CMP", "$2", "R1")
	a.i("BLT", "rows1")
	a.block(2)
	a.i("SUB", "$2", "R1", "R1")

	a.label("rows1")
	a.i("CBZ", "R1", "done")
	a.block(1)

	a.label("done")
	a.i("RET")
}

// block emits a block of R rows starting at R2, stores their sums at R0
// and leaves R2 at the row after the block.
func (a *neonI8) block(R int) {
	p := fmt.Sprintf("b%d", R)
	dot, signed, swap := a.v.dot, a.k.signed(), a.k.swap()
	A := 8 / R // sums per row
	if A > 4 {
		A = 4
	}
	U := 1 // vectors per iteration
	if dot {
		U = A
	}
	acc := func(r, u int) int { return u*R + r }
	S := func(u int) int { return 8 + u } // Σx (UDOT)
	X := func(u int) int { return 16 + u }
	row := func(r, u int) int { return 20 + u*R + r } // dot: row data
	a.blank()
	a.comment(fmt.Sprintf("%d row(s) at a time: V0..V%d = their sums (%d per row), %d vector(s) per iteration.",
		R, R*A-1, A, U))
	a.i("MOVD", "R2", neonRows[0])
	for r := 1; r < R; r++ {
		a.i("ADD", "R4", neonRows[r-1], neonRows[r])
	}
	a.i("MOVD", "R3", "R9")
	var zs []int
	for i := 0; i < R*A; i++ {
		zs = append(zs, i)
	}
	if dot && !signed {
		for u := 0; u < A; u++ {
			zs = append(zs, S(u))
		}
	}
	a.vzero(zs...)

	// step multiplies the x vector(s) X(u) into the rows' data.
	step := func(u int) {
		switch {
		case dot && swap:
			a.sdot(S(u), X(u), 31)
			for r := 0; r < R; r++ {
				a.i("VEOR", vb(30), vb(row(r, u)), vb(row(r, u)))
				a.sdot(acc(r, u), X(u), row(r, u))
			}
		case dot && signed:
			for r := 0; r < R; r++ {
				a.sdot(acc(r, u), X(u), row(r, u))
			}
		case dot:
			a.udot(S(u), X(u), 31)
			for r := 0; r < R; r++ {
				a.i("VEOR", vb(30), vb(row(r, u)), vb(row(r, u)))
				a.udot(acc(r, u), X(u), row(r, u))
			}
		case signed:
			for r := 0; r < R; r++ {
				t := 24 + 2*r
				a.smull(false, t, X(0), row(r, 0))
				a.smull(true, t+1, X(0), row(r, 0))
				a.sadalp(acc(r, 0), t)
				a.sadalp(acc(r, 1%A), t+1)
			}
		default:
			a.xtl(swap, false, 17, X(0))
			a.xtl(swap, true, 18, X(0))
			for r := 0; r < R; r++ {
				t := 24 + 2*r
				a.xtl(!swap, false, t, row(r, 0))
				a.xtl(!swap, true, t+1, row(r, 0))
				a.smlal(false, acc(r, 0), 17, t)
				a.smlal(true, acc(r, 1%A), 17, t)
				a.smlal(false, acc(r, 2%A), 18, t+1)
				a.smlal(true, acc(r, 3%A), 18, t+1)
			}
		}
	}
	load := func(u int) {
		a.i("VLD1.P", "16(R9)", "["+vb(X(u))+"]")
		for r := 0; r < R; r++ {
			a.i("VLD1.P", "16("+neonRows[r]+")", "["+vb(row(r, u))+"]")
		}
	}
	a.i("LSR", fmt.Sprintf("$%d", 4+log2(U)), "R4", "R10")
	a.i("CBZ", "R10", p+"one")
	a.label(p + "loop")
	for u := 0; u < U; u++ {
		load(u)
	}
	for u := 0; u < U; u++ {
		step(u)
	}
	a.i("SUBS", "$1", "R10", "R10")
	a.i("BNE", p+"loop")

	a.label(p + "one")
	if U > 1 {
		a.comment(fmt.Sprintf("the remaining whole vectors (fewer than %d) one at a time", U))
		a.i("UBFX", "$4", "R4", fmt.Sprintf("$%d", log2(U)), "R10")
		a.i("CBZ", "R10", p+"tail")
		a.label(p + "oneloop")
		load(0)
		step(0)
		a.i("SUBS", "$1", "R10", "R10")
		a.i("BNE", p+"oneloop")
		a.label(p + "tail")
	}
	a.comment("the last d mod 16 bytes as pieces of 8, 4, 2 and 1 into zeroed registers")
	a.i("ANDS", "$15", "R4", "R10")
	a.i("BEQ", p+"sum")
	tz := []int{X(0)}
	for r := 0; r < R; r++ {
		tz = append(tz, row(r, 0))
	}
	a.vzero(tz...)
	for _, piece := range []struct {
		bit  int
		lane string
	}{{3, "D[0]"}, {2, "S[2]"}, {1, "H[6]"}, {0, "B[14]"}} {
		skip := fmt.Sprintf("%st%d", p, piece.bit)
		a.i("TBZ", fmt.Sprintf("$%d", piece.bit), "R4", skip)
		a.i("VLD1.P", fmt.Sprintf("%d(R9)", 1<<piece.bit), fmt.Sprintf("V%d.%s", X(0), piece.lane))
		for r := 0; r < R; r++ {
			a.i("VLD1.P", fmt.Sprintf("%d(%s)", 1<<piece.bit, neonRows[r]), fmt.Sprintf("V%d.%s", row(r, 0), piece.lane))
		}
		a.label(skip)
	}
	step(0)

	a.label(p + "sum")
	for r := 0; r < R; r++ {
		for u := 1; u < A; u++ {
			a.i("VADD", vs(acc(r, u)), vs(acc(r, 0)), vs(acc(r, 0)))
		}
	}
	switch R {
	case 4:
		a.comment("V0 = the four row sums (pairwise adds)")
		a.i("VADDP", vs(1), vs(0), vs(0))
		a.i("VADDP", vs(3), vs(2), vs(2))
		a.i("VADDP", vs(2), vs(0), vs(0))
	case 2:
		a.comment("V0[0:2] = the two row sums (pairwise adds)")
		a.i("VADDP", vs(1), vs(0), vs(0))
		a.i("VADDP", vs(0), vs(0), vs(0))
	case 1:
		a.comment("V0[0] = the row sum")
		a.i("VADDV", vs(0), "V0")
	}
	if dot && !signed {
		if swap {
			a.comment("plus 128·Σw in every lane")
		} else {
			a.comment("less 128·Σx in every lane")
		}
		for u := 1; u < A; u++ {
			a.i("VADD", vs(S(u)), vs(S(0)), vs(S(0)))
		}
		a.i("VADDV", vs(S(0)), fmt.Sprintf("V%d", S(0)))
		a.i("VDUP", fmt.Sprintf("V%d.S[0]", S(0)), vs(S(0)))
		a.i("VSHL", "$7", vs(S(0)), vs(S(0)))
		if swap {
			a.i("VADD", vs(S(0)), vs(0), vs(0))
		} else {
			a.i("VSUB", vs(S(0)), vs(0), vs(0))
		}
	}
	switch R {
	case 4:
		a.i("VST1.P", "["+vs(0)+"]", "16(R0)")
	case 2:
		a.i("VMOV", "V0.D[0]", "R11")
		a.i("MOVD.P", "R11", "8(R0)")
	case 1:
		a.i("VMOV", "V0.S[0]", "R11")
		a.i("MOVW.P", "R11", "4(R0)")
	}
	a.i("MOVD", neonRows[R-1], "R2")
}
