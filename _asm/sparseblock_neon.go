package main

import "fmt"

// The block-scoring kernel for arm64 (internal/modelkern/sparseblock_arm64.s), the
// NEON counterpart of sparseblock_x86.go: per non-zero the value loaded
// into every lane (VLD1R), nv vectors of weights loaded at blk + idx·w
// (VLD1), and one fused VFMLA per vector into nv accumulators. Go fuses
// s += v·b into FMADD on arm64, so the fused lanes round as the Go loop
// does there. One function per vector count nv (float32: 1 or 2,
// float64: 1, 2 or 4): the nv·lanes values read per feature may exceed w
// (a block of width 3 reads four float32), so the Go caller passes bound,
// the number of features whose nv·lanes values lie inside blk, and a
// scratch dst of eight elements that it copies the first w of. Index
// safety as on amd64: each index, zero-extended, is checked below bound
// (unsigned) before its weights are read; on a failed check the kernel
// returns ok = false and the caller runs the Go loop, which either panics
// at the index or, when only the lanes past w were outside blk, scores
// the sample.

func scoreBlockNEONFile() []byte {
	f := newNeonFile(
		"The block-scoring kernel of package modelkern (the \"neon\" implementation).",
		"The Go declarations are in sparseblock_arm64.go; the generator's",
		"sparseblock_neon.go holds the definition.",
	)
	for _, t := range []elem{f32, f64} {
		for _, nv := range scoreBlockNEONVectors(t) {
			neonScoreBlock(f, t, nv)
		}
	}
	return f.bytes()
}

// neonScoreBlock emits scoreBlockNEONName(t, nv), of signature
// scoreBlockNEONSig (sparseblock.go); the frame offsets below follow it.
func neonScoreBlock(f *neonFile, t elem, nv int) {
	name := scoreBlockNEONName(t, nv)
	a := &neon{f: f, t: t, frame: map[string]int{}}
	off := 0
	for _, p := range []string{"dst", "blk", "idx", "val"} {
		a.frame[p+"_base"], a.frame[p+"_len"], a.frame[p+"_cap"] = off, off+8, off+16
		off += 24
	}
	a.frame["bound"], a.frame["w"], a.frame["ok"] = off, off+8, off+16
	off += 17
	fmt.Fprintf(&f.b, "\n// %s\n", typed("func "+name+scoreBlockNEONSig, t))
	fmt.Fprintf(&f.b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, off)
	a.comment("R0 = &idx[0], R1 = non-zeros left, R2 = &val[0], R3 = &blk[0],",
		"R4 = bound, R5 = w, R7 = &dst[0]")
	a.i("MOVD", a.fp("idx_base"), "R0")
	a.i("MOVD", a.fp("idx_len"), "R1")
	a.i("MOVD", a.fp("val_base"), "R2")
	a.i("MOVD", a.fp("blk_base"), "R3")
	a.i("MOVD", a.fp("bound"), "R4")
	a.i("MOVD", a.fp("w"), "R5")
	a.i("MOVD", a.fp("dst_base"), "R7")
	if nv == 1 {
		a.comment("V0 = the lanes' sums")
	} else {
		a.comment(fmt.Sprintf("V0..V%d = the lanes' sums", nv-1))
	}
	acc := make([]int, nv)
	for i := range acc {
		acc[i] = i
	}
	a.vzero(acc...)
	a.i("CBZ", "R1", "store")
	a.label("loop")
	a.i("MOVWU", "(R0)", "R6")
	a.i("CMP", "R4", "R6")
	a.i("BHS", "bad")
	a.i("MUL", "R5", "R6", "R6")
	a.i("ADD", fmt.Sprintf("R6<<%d", t.shift), "R3", "R8")
	a.i("VLD1", "(R8)", a.list(16, nv))
	a.i("VLD1R", "(R2)", fmt.Sprintf("[%s]", a.v(24)))
	for i := 0; i < nv; i++ {
		a.vfmla(16+i, 24, i)
	}
	a.i("ADD", "$4", "R0")
	a.i("ADD", fmt.Sprintf("$%d", t.size), "R2")
	a.i("SUB", "$1", "R1")
	a.i("CBNZ", "R1", "loop")
	a.label("store")
	a.i("VST1", a.list(0, nv), "(R7)")
	a.i("MOVD", "$1", "R9")
	a.i("MOVB", "R9", a.fp("ok"))
	a.i("RET")
	a.label("bad")
	a.comment("an index outside blk: ok = false, nothing read there")
	a.i("MOVB", "ZR", a.fp("ok"))
	a.i("RET")
}
