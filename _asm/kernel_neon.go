package main

import "fmt"

// The vector kernels of package kernel for arm64 NEON, each written once
// and instantiated for float32 (4 lanes) and float64 (2 lanes). L below is
// the number of lanes of a vector.

// kernelNEONFile returns kernel/kernel_arm64.s.
func kernelNEONFile() []byte {
	f := newNeonFile(
		"NEON (Advanced SIMD) kernels of package kernel (the \"neon\"",
		"implementation). The Go declarations, with the plain Go loop each",
		"computes, are in kernel_arm64.go; the generator's kernel_neon.go holds",
		"the definitions.",
		"",
		"The Go assembler (as of Go 1.26) has VFMLA, VLD1, VST1, VEOR, VDUP and",
		"VMOV but no vector FADD, FADDP, FSUB or FMUL, so those are emitted with",
		"WORD. Every WORD carries its mnemonic in a comment; the generator encodes",
		"it, and wordenc_test.go re-checks each one against the GNU assembler when",
		"it is installed.",
		"",
		"Register use common to all functions: R0-R11 hold pointers and counts,",
		"V0-V7 hold accumulators, V16-V25 hold loaded data, V31 holds the",
		"broadcast scalar a. Loads and stores post-increment their pointer (.P),",
		"so a pointer always addresses the next unprocessed element. All loads are",
		"element-aligned only (LD1 needs no alignment), and nothing is read or",
		"written outside the slices: tails shrink from 4 vectors to one vector and",
		"then to single elements.",
	)
	for _, t := range []elem{f32, f64} {
		neonDot(f, t, false)
		neonDot(f, t, true)
	}
	for _, t := range []elem{f32, f64} {
		neonElementwise(f, t, true)
	}
	for _, t := range []elem{f32, f64} {
		neonElementwise(f, t, false)
	}
	for _, t := range []elem{f32, f64} {
		neonMatvec(f, t)
	}
	return f.bytes()
}

// reduce4 sums V0..V3 into lane 0 of V0 (F0): (V0+V1)+(V2+V3), then the
// lanes pairwise.
func (a *neon) reduce4() {
	a.fadd(0, 0, 1)
	a.fadd(2, 2, 3)
	a.fadd(0, 0, 2)
	if a.t.is32() {
		a.faddp(0, 0, 0)
	}
	a.faddpScalar(0, 0)
}

// neonDot emits dot (sq false) or sqdist (sq true).
func neonDot(f *neonFile, t elem, sq bool) {
	name := "dot"
	if sq {
		name = "sqdist"
	}
	a := f.fn(t, name+"NEON"+t.sfx, []arg{{"x", "slice"}, {"y", "slice"}}, "T")
	L := a.lanes()
	a.comment("R0: x cursor, R1: y cursor, R2: n, R3: loop counter.")
	if sq {
		a.comment("V0-V3: four partial-sum vectors; V4-V7 become the differences x-y.")
	} else {
		a.comment(fmt.Sprintf("V0-V3: four partial-sum vectors (%d lanes of the sum).", 4*L))
	}
	a.i("MOVD", a.fp("x_base"), "R0")
	a.i("MOVD", a.fp("x_len"), "R2")
	a.i("MOVD", a.fp("y_base"), "R1")
	a.vzero(0, 1, 2, 3)
	a.i("LSR", fmt.Sprintf("$%d", log2(4*L)), "R2", "R3")
	a.i("CBZ", "R3", fmt.Sprintf("tail%d", 2*L))

	// block emits n vectors into the sums acc, acc+1, ...
	block := func(n, acc int) {
		a.i("VLD1.P", fmt.Sprintf("%d(R0)", 16*n), a.list(4, n))
		a.i("VLD1.P", fmt.Sprintf("%d(R1)", 16*n), a.list(16, n))
		if sq {
			for i := 0; i < n; i++ {
				a.fsub(4+i, 4+i, 16+i)
			}
			for i := 0; i < n; i++ {
				a.vfmla(4+i, 4+i, acc+i)
			}
			return
		}
		for i := 0; i < n; i++ {
			a.vfmla(4+i, 16+i, acc+i)
		}
	}
	a.label(fmt.Sprintf("loop%d", 4*L))
	if sq {
		a.comment(fmt.Sprintf("V4-V7: x[i:i+%d] - y[i:i+%d] (y in V16-V19); Vk += d*d.", 4*L, 4*L))
	} else if t.is32() {
		a.comment(fmt.Sprintf("V4-V7: x[i:i+%d], V16-V19: y[i:i+%d]; Vk += x*y, one FMA chain each.", 4*L, 4*L))
	} else {
		a.comment(fmt.Sprintf("V4-V7: x[i:i+%d], V16-V19: y[i:i+%d]; Vk += x*y.", 4*L, 4*L))
	}
	block(4, 0)
	a.i("SUBS", "$1", "R3", "R3")
	a.i("BNE", fmt.Sprintf("loop%d", 4*L))

	a.label(fmt.Sprintf("tail%d", 2*L))
	a.comment(fmt.Sprintf("n&%d: two more vectors into V0, V1.", 2*L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(2*L)), "R2", fmt.Sprintf("tail%d", L))
	block(2, 0)

	a.label(fmt.Sprintf("tail%d", L))
	a.comment(fmt.Sprintf("n&%d: one more vector into V2.", L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(L)), "R2", "reduce")
	block(1, 2)

	a.label("reduce")
	if t.is32() {
		a.comment("V0 = (V0+V1)+(V2+V3), then its four lanes pairwise into F0.")
	} else {
		a.comment("V0 = (V0+V1)+(V2+V3), then its two lanes into F0.")
	}
	a.reduce4()
	// the last n mod L elements, one at a time
	op := func(ld string) {
		a.i(a.sc("FMOV")+ld, a.memPost(0, ld), "F4")
		a.i(a.sc("FMOV")+ld, a.memPost(1, ld), "F16")
		if sq {
			a.i(a.sc("FSUB"), "F16", "F4", "F4")
			a.i(a.sc("FMADD"), "F4", "F0", "F4", "F0")
		} else {
			a.i(a.sc("FMADD"), "F4", "F0", "F16", "F0")
		}
	}
	if L > 2 {
		a.i("AND", fmt.Sprintf("$%d", L-1), "R2", "R3")
		a.i("CBZ", "R3", "done")
		a.label("tail1")
		if sq {
			a.comment(fmt.Sprintf("n&%d single elements: F4 = x[i]-y[i]; F0 += F4*F4.", L-1))
		} else {
			a.comment(fmt.Sprintf("n&%d single elements: F0 += x[i]*y[i] (F4: x[i], F16: y[i]).", L-1))
		}
		op(".P")
		a.i("SUBS", "$1", "R3", "R3")
		a.i("BNE", "tail1")
	} else {
		a.blank()
		if sq {
			a.comment("n&1: F4 = x[n-1]-y[n-1]; F0 += F4*F4.")
		} else {
			a.comment("n&1: F0 += x[n-1]*y[n-1] (F4: x, F16: y).")
		}
		a.i("TBZ", "$0", "R2", "done")
		op("")
	}
	a.label("done")
	a.i(a.sc("FMOV"), "F0", a.fp("ret"))
	a.i("RET")
}

// memPost returns the operand of a scalar load from register Rr: with
// post-increment (ld ".P") or plain.
func (a *neon) memPost(r int, ld string) string {
	if ld == ".P" {
		return fmt.Sprintf("%d(R%d)", a.t.size, r)
	}
	return fmt.Sprintf("(R%d)", r)
}

// neonElementwise emits axpy (axpy true) or scale.
func neonElementwise(f *neonFile, t elem, axpy bool) {
	name, args := "scale", []arg{{"a", "T"}, {"x", "slice"}}
	if axpy {
		name, args = "axpy", []arg{{"a", "T"}, {"x", "slice"}, {"y", "slice"}}
	}
	a := f.fn(t, name+"NEON"+t.sfx, args, "")
	L := a.lanes()
	every := "every lane"
	if L == 2 {
		every = "both lanes"
	}
	if axpy {
		a.comment("R0: x cursor, R1: y cursor, R2: n, R3: loop counter.",
			fmt.Sprintf("V31: a in %s; V4-V7: x block; V16-V19: y block, updated in place.", every))
	} else {
		a.comment("R0: read cursor, R1: write cursor (both start at x), R2: n,",
			fmt.Sprintf("R3: loop counter. V31: a in %s; V4-V7: x block.", every))
	}
	el := "S"
	if !t.is32() {
		el = "D"
	}
	a.i(a.sc("FMOV"), a.fp("a"), "F31")
	a.i("VDUP", fmt.Sprintf("V31.%s[0]", el), a.v(31))
	a.i("MOVD", a.fp("x_base"), "R0")
	a.i("MOVD", a.fp("x_len"), "R2")
	if axpy {
		a.i("MOVD", a.fp("y_base"), "R1")
	} else {
		a.i("MOVD", "R0", "R1")
	}
	a.i("LSR", fmt.Sprintf("$%d", log2(4*L)), "R2", "R3")
	a.i("CBZ", "R3", fmt.Sprintf("tail%d", 2*L))

	block := func(n int) {
		a.i("VLD1.P", fmt.Sprintf("%d(R0)", 16*n), a.list(4, n))
		if axpy {
			a.i("VLD1", "(R1)", a.list(16, n))
			for i := 0; i < n; i++ {
				a.i("VFMLA", a.v(31), a.v(4+i), a.v(16+i))
			}
			a.i("VST1.P", a.list(16, n), fmt.Sprintf("%d(R1)", 16*n))
			return
		}
		for i := 0; i < n; i++ {
			a.fmul(4+i, 4+i, 31)
		}
		a.i("VST1.P", a.list(4, n), fmt.Sprintf("%d(R1)", 16*n))
	}
	a.label(fmt.Sprintf("loop%d", 4*L))
	if axpy {
		a.comment(fmt.Sprintf("y[i:i+%d] += a*x[i:i+%d]; the store advances R1.", 4*L, 4*L))
	} else {
		a.comment(fmt.Sprintf("x[i:i+%d] *= a.", 4*L))
	}
	block(4)
	a.i("SUBS", "$1", "R3", "R3")
	a.i("BNE", fmt.Sprintf("loop%d", 4*L))

	a.label(fmt.Sprintf("tail%d", 2*L))
	a.comment(fmt.Sprintf("n&%d: two vectors.", 2*L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(2*L)), "R2", fmt.Sprintf("tail%d", L))
	block(2)

	a.label(fmt.Sprintf("tail%d", L))
	a.comment(fmt.Sprintf("n&%d: one vector.", L))
	next := "tail"
	if L == 2 {
		next = "tail1"
	}
	a.i("TBZ", fmt.Sprintf("$%d", log2(L)), "R2", next)
	block(1)

	// one element: F16 = y + a·x (axpy) or F4 = x·a (scale)
	one := func(ld string) {
		if axpy {
			a.i(a.sc("FMOV")+ld, a.memPost(0, ld), "F4")
			a.i(a.sc("FMOV"), "(R1)", "F16")
			a.i(a.sc("FMADD"), "F4", "F16", "F31", "F16")
			a.i(a.sc("FMOV")+ld, "F16", a.memPost(1, ld))
			return
		}
		a.i(a.sc("FMOV"), "(R1)", "F4")
		a.i(a.sc("FMUL"), "F31", "F4", "F4")
		a.i(a.sc("FMOV")+ld, "F4", a.memPost(1, ld))
	}
	if L > 2 {
		a.label("tail")
		a.i("AND", fmt.Sprintf("$%d", L-1), "R2", "R3")
		a.i("CBZ", "R3", "done")
		a.label("tail1")
		if axpy {
			a.comment(fmt.Sprintf("n&%d single elements: F16 = y[i] + a*x[i] (F4: x[i]).", L-1))
		} else {
			a.comment(fmt.Sprintf("n&%d single elements: F4 = x[i]*a.", L-1))
		}
		one(".P")
		a.i("SUBS", "$1", "R3", "R3")
		a.i("BNE", "tail1")
	} else {
		a.label("tail1")
		if axpy {
			a.comment("n&1: F16 = y[n-1] + a*x[n-1] (F4: x[n-1]).")
		} else {
			a.comment("n&1: F4 = x[n-1]*a.")
		}
		a.i("TBZ", "$0", "R2", "done")
		one("")
	}
	a.label("done")
	a.i("RET")
}

// neonMatvec emits matvec: four rows at a time sharing each load of w, the
// last len(dst) mod 4 rows one at a time as dot does.
func neonMatvec(f *neonFile, t elem) {
	a := f.fn(t, "matvecNEON"+t.sfx, []arg{{"dst", "slice"}, {"m", "slice"}, {"w", "slice"}}, "")
	L := a.lanes()
	a.comment("R0: dst cursor, R1: rows left, R2: start of the next row of m,",
		fmt.Sprintf("R3: w, R4: d = len(w), R5: row stride in bytes (%dd).", t.size))
	a.i("MOVD", a.fp("dst_base"), "R0")
	a.i("MOVD", a.fp("dst_len"), "R1")
	a.i("MOVD", a.fp("m_base"), "R2")
	a.i("MOVD", a.fp("w_base"), "R3")
	a.i("MOVD", a.fp("w_len"), "R4")
	a.i("LSL", fmt.Sprintf("$%d", t.shift), "R4", "R5")
	a.i("CMP", "$4", "R1")
	a.i("BLT", "one")

	a.label("four")
	a.comment("Four rows at a time, sharing each load of w.",
		"R6-R9: cursors in rows i..i+3, R10: w cursor, R11: loop counter.",
		"V0,V1: row i accumulators; V2,V3: i+1; V4,V5: i+2; V6,V7: i+3.")
	a.i("MOVD", "R2", "R6")
	a.i("ADD", "R5", "R6", "R7")
	a.i("ADD", "R5", "R7", "R8")
	a.i("ADD", "R5", "R8", "R9")
	a.i("MOVD", "R3", "R10")
	a.vzero(0, 1, 2, 3, 4, 5, 6, 7)
	a.i("LSR", fmt.Sprintf("$%d", log2(2*L)), "R4", "R11")
	a.i("CBZ", "R11", fmt.Sprintf("four%d", L))

	rowRegs := []string{"R6", "R7", "R8", "R9"}
	a.label(fmt.Sprintf("four%d", 2*L))
	a.comment(fmt.Sprintf("V16,V17: w[j:j+%d]; V18-V25: the same columns of the four rows.", 2*L))
	a.i("VLD1.P", "32(R10)", a.list(16, 2))
	for r, rr := range rowRegs {
		a.i("VLD1.P", fmt.Sprintf("32(%s)", rr), a.list(18+2*r, 2))
	}
	for r := 0; r < 4; r++ {
		a.vfmla(16, 18+2*r, 2*r)
		a.vfmla(17, 19+2*r, 2*r+1)
	}
	a.i("SUBS", "$1", "R11", "R11")
	a.i("BNE", fmt.Sprintf("four%d", 2*L))

	a.label(fmt.Sprintf("four%d", L))
	a.comment(fmt.Sprintf("d&%d: one more vector per row.", L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(L)), "R4", "fourreduce")
	a.i("VLD1.P", "16(R10)", a.list(16, 1))
	for r, rr := range rowRegs {
		a.i("VLD1.P", fmt.Sprintf("16(%s)", rr), a.list(18+2*r, 1))
	}
	for r := 0; r < 4; r++ {
		a.vfmla(16, 18+2*r, 2*r)
	}

	a.label("fourreduce")
	if t.is32() {
		a.comment("Each row's pair into one vector, then pairwise adds until",
			"V0 = [dot i, dot i+1, dot i+2, dot i+3].")
	} else {
		a.comment("Each row's pair into one vector, then pairwise adds to",
			"V0 = [dot i, dot i+1], V1 = [dot i+2, dot i+3].")
	}
	for r := 0; r < 4; r++ {
		a.fadd(2*r, 2*r, 2*r+1)
	}
	if t.is32() {
		a.faddp(0, 0, 2)
		a.faddp(4, 4, 6)
		a.faddp(0, 0, 4)
		a.i("AND", "$3", "R4", "R11")
		a.i("CBZ", "R11", "fourstore")

		a.label("four1")
		a.comment("d&3 single columns j: V16 = w[j] in every lane, V18 = column j of",
			"the four rows; V0 += V16*V18.")
		a.i("VLD1R.P", "4(R10)", "[V16.S4]")
		for r, rr := range rowRegs {
			a.i("VLD1.P", fmt.Sprintf("4(%s)", rr), fmt.Sprintf("V18.S[%d]", r))
		}
		a.vfmla(16, 18, 0)
		a.i("SUBS", "$1", "R11", "R11")
		a.i("BNE", "four1")
	} else {
		a.faddp(0, 0, 2)
		a.faddp(1, 4, 6)
		a.blank()
		a.comment("d&1: the last column j: V16 = w[j] in both lanes, V18/V19 = column",
			"j of rows i, i+1 / i+2, i+3.")
		a.i("TBZ", "$0", "R4", "fourstore")
		a.i("VLD1R.P", "8(R10)", "[V16.D2]")
		for r, rr := range rowRegs {
			a.i("VLD1.P", fmt.Sprintf("8(%s)", rr), fmt.Sprintf("V%d.D[%d]", 18+r/2, r%2))
		}
		a.vfmla(16, 18, 0)
		a.vfmla(16, 19, 1)
	}

	a.label("fourstore")
	a.comment("R9 has walked to the end of row i+3, which is the start of row i+4.")
	if t.is32() {
		a.i("VST1.P", a.list(0, 1), "16(R0)")
	} else {
		a.i("VST1.P", a.list(0, 2), "32(R0)")
	}
	a.i("MOVD", "R9", "R2")
	a.i("SUB", "$4", "R1", "R1")
	a.i("CMP", "$4", "R1")
	a.i("BGE", "four")

	a.label("one")
	a.comment(fmt.Sprintf("The last len(dst)%%4 rows, one at a time, as in dotNEON%s.", t.sfx),
		"R2: cursor in the row, R10: w cursor, R11: loop counter,",
		"V0-V3: partial sums.")
	a.i("CBZ", "R1", "done")

	a.label("onerow")
	a.i("MOVD", "R3", "R10")
	a.vzero(0, 1, 2, 3)
	a.i("LSR", fmt.Sprintf("$%d", log2(4*L)), "R4", "R11")
	a.i("CBZ", "R11", fmt.Sprintf("one%d", 2*L))

	a.label(fmt.Sprintf("one%d", 4*L))
	a.comment(fmt.Sprintf("V16-V19: w[j:j+%d], V20-V23: row[j:j+%d].", 4*L, 4*L))
	a.i("VLD1.P", "64(R10)", a.list(16, 4))
	a.i("VLD1.P", "64(R2)", a.list(20, 4))
	for i := 0; i < 4; i++ {
		a.vfmla(16+i, 20+i, i)
	}
	a.i("SUBS", "$1", "R11", "R11")
	a.i("BNE", fmt.Sprintf("one%d", 4*L))

	a.label(fmt.Sprintf("one%d", 2*L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(2*L)), "R4", fmt.Sprintf("one%d", L))
	a.i("VLD1.P", "32(R10)", a.list(16, 2))
	a.i("VLD1.P", "32(R2)", a.list(20, 2))
	a.vfmla(16, 20, 0)
	a.vfmla(17, 21, 1)

	a.label(fmt.Sprintf("one%d", L))
	a.i("TBZ", fmt.Sprintf("$%d", log2(L)), "R4", "onereduce")
	a.i("VLD1.P", "16(R10)", a.list(16, 1))
	a.i("VLD1.P", "16(R2)", a.list(20, 1))
	a.vfmla(16, 20, 2)

	a.label("onereduce")
	a.reduce4()
	one := func() {
		a.i(a.sc("FMOV")+".P", fmt.Sprintf("%d(R10)", t.size), "F16")
		a.i(a.sc("FMOV")+".P", fmt.Sprintf("%d(R2)", t.size), "F20")
		a.i(a.sc("FMADD"), "F16", "F0", "F20", "F0")
	}
	if t.is32() {
		a.i("AND", "$3", "R4", "R11")
		a.i("CBZ", "R11", "onestore")
		a.label("one1")
		a.comment("F0 += w[j]*row[j] (F16: w[j], F20: row[j]).")
		one()
		a.i("SUBS", "$1", "R11", "R11")
		a.i("BNE", "one1")
	} else {
		a.blank()
		a.comment("d&1: F0 += w[d-1]*row[d-1] (F16: w, F20: row).")
		a.i("TBZ", "$0", "R4", "onestore")
		one()
	}

	a.label("onestore")
	a.comment("R2 has walked to the start of the next row.")
	a.i(a.sc("FMOV")+".P", "F0", fmt.Sprintf("%d(R0)", t.size))
	a.i("SUBS", "$1", "R1", "R1")
	a.i("BNE", "onerow")

	a.label("done")
	a.i("RET")
}
