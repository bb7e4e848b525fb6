package main

import "fmt"

// neonGemmOf returns the NEON micro-kernel of t: 8 rows by 3 vectors.
func neonGemmOf(t elem) gemmSpec {
	nr := 3 * 16 / t.size
	p := "s"
	if !t.is32() {
		p = "d"
	}
	return gemmSpec{fmt.Sprintf("%sgemm8x%d", p, nr), 8, nr}
}
