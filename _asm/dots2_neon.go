package main

import "fmt"

// neonDots2 emits dots2 for NEON: dst[k] = W[k]·x0 and dst[K+k] = W[k]·x1
// (see dots2Kernel), the classes five at a time (then a last tile of 1 to
// 4) in a 2×5 register tile: each vector step loads the two sample vectors
// and five weight vectors for ten multiply-adds. The last d mod L columns
// are summed one at a time into scalar accumulators, added after the
// vector sums are reduced.
func neonDots2(f *neonFile, t elem) {
	a := f.fn(t, "dots2NEON"+t.sfx, []arg{{"dst", "slice"}, {"w", "slice"}, {"x", "slice"}}, "")
	a.comment("R0: dst cursor of x0's scores, R13: of x1's, R1: classes left,",
		"R2: the tile's first weight row, R3: x0, R6: x1, R4: d = len(x)/2,",
		fmt.Sprintf("R5: row stride in bytes (%dd).", t.size))
	a.i("MOVD", a.fp("dst_base"), "R0")
	a.i("MOVD", a.fp("dst_len"), "R1")
	a.i("LSR", "$1", "R1", "R1")
	a.i("LSL", fmt.Sprintf("$%d", t.shift), "R1", "R13")
	a.i("ADD", "R0", "R13", "R13")
	a.i("MOVD", a.fp("w_base"), "R2")
	a.i("MOVD", a.fp("x_base"), "R3")
	a.i("MOVD", a.fp("x_len"), "R4")
	a.i("LSR", "$1", "R4", "R4")
	a.i("LSL", fmt.Sprintf("$%d", t.shift), "R4", "R5")
	a.i("ADD", "R3", "R5", "R6")
	a.i("CMP", "$5", "R1")
	a.i("BLT", "rem")
	a.label("tile5")
	neonDots2Tile(a, 5)
	a.i("CMP", "$5", "R1")
	a.i("BGE", "tile5")
	a.label("rem")
	for c := 4; c >= 1; c-- {
		a.i("CMP", fmt.Sprintf("$%d", c), "R1")
		a.i("BEQ", fmt.Sprintf("tile%d", c))
	}
	a.i("B", "done")
	for c := 4; c >= 1; c-- {
		a.label(fmt.Sprintf("tile%d", c))
		neonDots2Tile(a, c)
		a.i("B", "done")
	}
	a.label("done")
	a.i("RET")
}

// neonDots2Tile emits one tile of c ≤ 5 weight rows from R2, stores the
// 2c scores and advances R0, R13, R2 and R1 past it.
func neonDots2Tile(a *neon, c int) {
	t := a.t
	L := a.lanes()
	p := fmt.Sprintf("t%d", c)
	rows := []string{"R7", "R8", "R9", "R10", "R11"}[:c]
	a.comment(fmt.Sprintf("R7..R%d: cursors in the tile's %d rows, R14, R15: in x0, x1,", 6+c, c),
		"R19: loop counter; V0..V4 / V5..V9: x0's / x1's vector sums,",
		"V16, V17: sample vectors, V18..V22: weight vectors,",
		"F20..F24 / F25..F29: x0's / x1's sums of the last columns.")
	a.i("MOVD", "R2", "R7")
	for i := 1; i < c; i++ {
		a.i("ADD", "R5", rows[i-1], rows[i])
	}
	a.i("MOVD", "R3", "R14")
	a.i("MOVD", "R6", "R15")
	for i := 0; i < c; i++ {
		a.vzero(i, 5+i)
	}
	a.i("LSR", fmt.Sprintf("$%d", log2(L)), "R4", "R19")
	a.i("CBZ", "R19", p+"tail")
	a.label(p + "loop")
	a.i("VLD1.P", fmt.Sprintf("%d(R14)", 16), a.list(16, 1))
	a.i("VLD1.P", fmt.Sprintf("%d(R15)", 16), a.list(17, 1))
	for i, r := range rows {
		a.i("VLD1.P", fmt.Sprintf("16(%s)", r), a.list(18+i, 1))
	}
	for i := range rows {
		a.vfmla(18+i, 16, i)
		a.vfmla(18+i, 17, 5+i)
	}
	a.i("SUBS", "$1", "R19", "R19")
	a.i("BNE", p+"loop")

	a.label(p + "tail")
	for i := 0; i < c; i++ {
		a.vzero(20+i, 25+i)
	}
	a.i("AND", fmt.Sprintf("$%d", L-1), "R4", "R19")
	a.i("CBZ", "R19", p+"sum")
	a.label(p + "one")
	a.comment("one column j: F16, F17 = x0[j], x1[j], F18 = row[j]")
	ld := func(r, f string) {
		a.i(a.sc("FMOV")+".P", fmt.Sprintf("%d(%s)", t.size, r), f)
	}
	ld("R14", "F16")
	ld("R15", "F17")
	for i, r := range rows {
		ld(r, "F18")
		a.i(a.sc("FMADD"), "F18", fmt.Sprintf("F%d", 20+i), "F16", fmt.Sprintf("F%d", 20+i))
		a.i(a.sc("FMADD"), "F18", fmt.Sprintf("F%d", 25+i), "F17", fmt.Sprintf("F%d", 25+i))
	}
	a.i("SUBS", "$1", "R19", "R19")
	a.i("BNE", p+"one")

	a.label(p + "sum")
	a.comment("each vector sum reduced to its lane 0, plus the last columns' sum, stored")
	for s := 0; s < 2; s++ {
		cur := "R0"
		if s == 1 {
			cur = "R13"
		}
		for i := 0; i < c; i++ {
			v := 5*s + i
			if t.is32() {
				a.faddp(v, v, v)
			}
			a.faddpScalar(v, v)
			a.i(a.sc("FADD"), fmt.Sprintf("F%d", 20+v), fmt.Sprintf("F%d", v), fmt.Sprintf("F%d", v))
			a.i(a.sc("FMOV")+".P", fmt.Sprintf("F%d", v), fmt.Sprintf("%d(%s)", t.size, cur))
		}
	}
	a.comment(fmt.Sprintf("%s has walked to the end of the tile's last row: the next tile's first.", rows[c-1]))
	a.i("MOVD", rows[c-1], "R2")
	a.i("SUB", fmt.Sprintf("$%d", c), "R1", "R1")
}
