package main

import "fmt"

// The sparse kernels for arm64 (kernel/sparse_arm64.s): the dot and the
// scatter axpy as scalar loops of native instructions (no WORD): the
// index with MOVWU (zero-extended, so a negative int32 is 2³² − |i|, not
// below the bound), checked against min(len(w), 2³¹) with one CMP and BHS,
// the weight with a register-offset FMOVS/FMOVD, and a fused FMADD. NEON
// has no gather, and an LD1 lane load takes no register offset (one ADD
// more per element than the scalar load), so the dot keeps eight scalar
// partial sums, eight non-zeros per iteration. On an invalid index the
// functions return as their amd64 counterparts do (ok = false; or the
// number of non-zeros updated), having touched nothing outside w or y.

func sparseNEONFile() []byte {
	f := newNeonFile(
		"Sparse kernels of package kernel (the \"neon\" implementation): the",
		"sparse·dense dot and the scatter axpy as scalar loops. The Go declarations",
		"are in sparse_arm64.go; the generator's sparse_neon.go holds the",
		"definitions.",
	)
	for _, t := range []elem{f32, f64} {
		neonDotSparse(f, t)
		neonAxpySparse(f, t)
	}
	return f.bytes()
}

// sparseFrame lays out (idx []int32, val, w []T) and, after the
// arguments, the results: a T and a bool (dot) or an int (axpy), as
// Go's ABI0 frame does. scalar is the leading T argument of axpy.
func sparseFrame(f *neonFile, t elem, name string, scalar bool, dot bool) *neon {
	a := &neon{f: f, t: t, frame: map[string]int{}}
	off := 0
	sig := ""
	if scalar {
		a.frame["a"] = 0
		off = 8
		sig = "a " + t.goType + ", "
	}
	for _, p := range []string{"idx", "val", "w"} {
		if !dot && p == "w" {
			p = "y"
		}
		a.frame[p+"_base"], a.frame[p+"_len"], a.frame[p+"_cap"] = off, off+8, off+16
		off += 24
	}
	var res string
	if dot {
		a.frame["s"] = off
		off += t.size
		a.frame["ok"] = off
		off++
		res = fmt.Sprintf(" (s %s, ok bool)", t.goType)
		sig += fmt.Sprintf("idx []int32, val, w []%s", t.goType)
	} else {
		a.frame["done"] = off
		off += 8
		res = " (done int)"
		sig += fmt.Sprintf("idx []int32, val, y []%s", t.goType)
	}
	fmt.Fprintf(&f.b, "\n// func %s(%s)%s\n", name, sig, res)
	fmt.Fprintf(&f.b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, off)
	return a
}

// sparseBoundNEON sets R4 = min(R4, 2³¹) (clobbers R5).
func (a *neon) sparseBoundNEON() {
	a.i("MOVD", "$0x80000000", "R5")
	a.i("CMP", "R5", "R4")
	a.i("CSEL", "HI", "R5", "R4", "R4")
}

// dotOne emits non-zero k (elements from R0 and R2) into F<acc>, with
// index register r and temporaries F<ta>, F<tb>.
func (a *neon) dotOne(k int, r string, ta, tb, acc int) {
	a.i("MOVWU", fmt.Sprintf("%d(R0)", 4*k), r)
	a.i("CMP", "R4", r)
	a.i("BHS", "bad")
	a.i(a.sc("FMOV"), fmt.Sprintf("(R3)(%s<<%d)", r, a.t.shift), fmt.Sprintf("%s%d", "F", ta))
	a.i(a.sc("FMOV"), fmt.Sprintf("%d(R2)", k*a.t.size), fmt.Sprintf("F%d", tb))
	// Fd = Fa + Fn·Fm: FMADD Fm, Fa, Fn, Fd
	a.i(a.sc("FMADD"), fmt.Sprintf("F%d", tb), fmt.Sprintf("F%d", acc), fmt.Sprintf("F%d", ta), fmt.Sprintf("F%d", acc))
}

var neonIdxRegs = []string{"R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13"}

func neonDotSparse(f *neonFile, t elem) {
	a := sparseFrame(f, t, "dotSparseNEON"+t.sfx, false, true)
	a.comment("R0 = &idx[0], R1 = non-zeros left, R2 = &val[0], R3 = &w[0],",
		"R4 = min(len(w), 2³¹): an index is valid iff it is below R4 (unsigned)")
	a.i("MOVD", a.fp("idx_base"), "R0")
	a.i("MOVD", a.fp("idx_len"), "R1")
	a.i("MOVD", a.fp("val_base"), "R2")
	a.i("MOVD", a.fp("w_base"), "R3")
	a.i("MOVD", a.fp("w_len"), "R4")
	a.sparseBoundNEON()
	a.comment("F0..F7 = eight partial sums")
	a.vzero(0, 1, 2, 3, 4, 5, 6, 7)
	a.i("CMP", "$8", "R1")
	a.i("BLT", "tail4")
	a.label("loop8")
	for k := 0; k < 8; k++ {
		a.dotOne(k, neonIdxRegs[k], 16+k%4, 20+k%4, k)
	}
	a.i("ADD", "$32", "R0")
	a.i("ADD", fmt.Sprintf("$%d", 8*t.size), "R2")
	a.i("SUB", "$8", "R1")
	a.i("CMP", "$8", "R1")
	a.i("BGE", "loop8")
	a.label("tail4")
	a.i("CMP", "$4", "R1")
	a.i("BLT", "tail1")
	for k := 0; k < 4; k++ {
		a.dotOne(k, neonIdxRegs[k], 16+k, 20+k, k)
	}
	a.i("ADD", "$16", "R0")
	a.i("ADD", fmt.Sprintf("$%d", 4*t.size), "R2")
	a.i("SUB", "$4", "R1")
	a.label("tail1")
	a.i("CBZ", "R1", "sum")
	a.dotOne(0, "R6", 16, 20, 0)
	a.i("ADD", "$4", "R0")
	a.i("ADD", fmt.Sprintf("$%d", t.size), "R2")
	a.i("SUB", "$1", "R1")
	a.i("B", "tail1")
	a.label("sum")
	a.comment("((F0+F4) + (F1+F5)) + ((F2+F6) + (F3+F7))")
	add := a.sc("FADD")
	for i := 0; i < 4; i++ {
		a.i(add, fmt.Sprintf("F%d", 4+i), fmt.Sprintf("F%d", i), fmt.Sprintf("F%d", i))
	}
	a.i(add, "F1", "F0", "F0")
	a.i(add, "F3", "F2", "F2")
	a.i(add, "F2", "F0", "F0")
	a.i(a.sc("FMOV"), "F0", a.fp("s"))
	a.i("MOVD", "$1", "R5")
	a.i("MOVB", "R5", a.fp("ok"))
	a.i("RET")
	a.label("bad")
	a.comment("an index outside w: s = 0, ok = false, nothing read there")
	if t.is32() {
		a.i("MOVW", "ZR", a.fp("s"))
	} else {
		a.i("MOVD", "ZR", a.fp("s"))
	}
	a.i("MOVB", "ZR", a.fp("ok"))
	a.i("RET")
}

func neonAxpySparse(f *neonFile, t elem) {
	a := sparseFrame(f, t, "axpySparseNEON"+t.sfx, true, false)
	a.comment("F31 = a, R0 = &idx[i], R2 = &val[i], R3 = &y[0], R1 = len(idx),",
		"R4 = min(len(y), 2³¹), R5 = non-zeros done; one at a time, in order (a",
		"repeated index reads the value the previous update stored)")
	a.i(a.sc("FMOV"), a.fp("a"), "F31")
	a.i("MOVD", a.fp("idx_base"), "R0")
	a.i("MOVD", a.fp("idx_len"), "R1")
	a.i("MOVD", a.fp("val_base"), "R2")
	a.i("MOVD", a.fp("y_base"), "R3")
	a.i("MOVD", a.fp("y_len"), "R4")
	a.sparseBoundNEON()
	a.i("MOVD", "ZR", "R5")
	a.label("loop")
	a.i("CMP", "R1", "R5")
	a.i("BHS", "done")
	a.i("MOVWU", "(R0)", "R6")
	a.i("CMP", "R4", "R6")
	a.i("BHS", "done")
	y := fmt.Sprintf("(R3)(R6<<%d)", t.shift)
	a.i(a.sc("FMOV"), y, "F0")
	a.i(a.sc("FMOV"), "(R2)", "F1")
	a.comment("F0 += F1·a")
	a.i(a.sc("FMADD"), "F31", "F0", "F1", "F0")
	a.i(a.sc("FMOV"), "F0", y)
	a.i("ADD", "$4", "R0")
	a.i("ADD", fmt.Sprintf("$%d", t.size), "R2")
	a.i("ADD", "$1", "R5")
	a.i("B", "loop")
	a.label("done")
	a.i("MOVD", "R5", a.fp("done"))
	a.i("RET")
}
