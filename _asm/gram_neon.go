package main

import "fmt"

// The micro-kernels of package gram for arm64 NEON; the tile functions of
// the neon implementation are in Go (gram's rbfPoly, polyGeneric,
// transGeneric).

// neonGemmOf returns the NEON micro-kernel of t: 8 rows by 3 vectors of
// the B side (24 accumulators, the rest of the 32 registers for the B
// vectors and the 8 values of A).
func neonGemmOf(t elem) gemmSpec {
	nr := 3 * 16 / t.size
	p := "s"
	if !t.is32() {
		p = "d"
	}
	return gemmSpec{fmt.Sprintf("%sgemm8x%d", p, nr), 8, nr}
}

// neonGemm emits the 8×nr micro-kernel: the tile c[r·ldc+j] (+)=
// Σₖ a[k·8+r]·b[k·nr+j] for k < kc, one FMA chain per value in k order,
// continuing from the tile's values if acc != 0. Each step multiplies the
// B vectors by one element of the A vectors (FMLA by element).
func neonGemm(f *neonFile, t elem) {
	s := neonGemmOf(t)
	a := f.fn(t, s.name, []arg{{"kc", "int"}, {"a", "ptr"}, {"b", "ptr"}, {"c", "ptr"}, {"ldc", "int"}, {"acc", "int"}}, "")
	L := a.lanes()
	nb, na := s.nr/L, s.mr/L // B and A vectors per k
	a.comment(fmt.Sprintf("The %d×%d tile c[r·ldc+j] (+)= Σₖ a[k·%d+r]·b[k·%d+j] for k < kc,", s.mr, s.nr, s.mr, s.nr),
		"one FMA chain per value in k order. V0..V23 hold the tile (row r in",
		fmt.Sprintf("V(3r)..V(3r+2)), V24..V26 the %d values of b at k, V28.. the %d values", s.nr, s.mr),
		"of a at k (used by element); R0 walks a, R1 walks b, R2 counts k, R5..R12",
		"point at the tile's rows.")
	a.i("MOVD", a.fp("kc"), "R2")
	a.i("MOVD", a.fp("a"), "R0")
	a.i("MOVD", a.fp("b"), "R1")
	a.i("MOVD", a.fp("c"), "R5")
	a.i("MOVD", a.fp("ldc"), "R4")
	a.comment("row stride in bytes")
	a.i("LSL", fmt.Sprintf("$%d", t.shift), "R4", "R4")
	for r := 1; r < s.mr; r++ {
		a.i("ADD", "R4", fmt.Sprintf("R%d", 4+r), fmt.Sprintf("R%d", 5+r))
	}
	a.i("MOVD", a.fp("acc"), "R3")
	a.i("CBZ", "R3", "zero")
	for r := 0; r < s.mr; r++ {
		a.i("VLD1", fmt.Sprintf("(R%d)", 5+r), a.list(nb*r, nb))
	}
	a.i("B", "loop")

	a.label("zero")
	for i := 0; i < s.mr*nb; i++ {
		a.vzero(i)
	}

	a.label("loop")
	a.i("VLD1.P", fmt.Sprintf("%d(R1)", s.nr*t.size), a.list(24, nb))
	a.i("VLD1.P", fmt.Sprintf("%d(R0)", s.mr*t.size), a.list(28, na))
	for r := 0; r < s.mr; r++ {
		for i := 0; i < nb; i++ {
			a.fmlaElem(nb*r+i, 24+i, 28+r/L, r%L)
		}
	}
	a.i("SUBS", "$1", "R2", "R2")
	a.i("BNE", "loop")
	for r := 0; r < s.mr; r++ {
		a.i("VST1", a.list(nb*r, nb), fmt.Sprintf("(R%d)", 5+r))
	}
	a.i("RET")
}

// gramNEONFile returns gram/micro_arm64.s.
func gramNEONFile() []byte {
	f := newNeonFile(
		"NEON micro-kernels of package gram (the \"neon\" implementation). The Go",
		"declarations are in micro_arm64.go; the generator's gram_neon.go holds",
		"the definitions. The Go assembler has VLD1, VST1, VEOR and",
		"vector-by-vector VFMLA but not FMLA by element, so those are emitted",
		"with WORD; every WORD carries its mnemonic in a comment, the generator",
		"encodes it, and wordenc_test.go re-checks each one against the GNU",
		"assembler when it is installed.",
	)
	for _, t := range []elem{f32, f64} {
		neonGemm(f, t)
	}
	return f.bytes()
}
