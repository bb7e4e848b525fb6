// Package usedcols renumbers the columns of sparse rows to the ones they
// use. Hashed text spreads a few hundred thousand distinct features over
// 2²⁰ or more columns: a trainer whose weights span only the used columns
// keeps them in the caches, and writes the model's D-wide weights once at
// the end.
package usedcols

import "math/bits"

// Renumber returns idx (column indices below d, each row's increasing)
// with every column replaced by its rank among the columns that occur in
// idx, and cols, the column of each rank (increasing). A row's indices
// stay increasing, so its stored values keep their order. It allocates
// d/8 bytes of bitmap and d/16 of counts besides its results, and never
// modifies idx. Indices must lie in [0, d).
func Renumber(idx []int32, d int) (ranked, cols []int32) {
	words := (d + 63) / 64
	set := make([]uint64, words)
	for _, j := range idx {
		set[j>>6] |= 1 << (j & 63)
	}
	base := make([]int32, words) // ranks before each word
	n := 0
	for w, b := range set {
		base[w] = int32(n)
		n += bits.OnesCount64(b)
	}
	cols = make([]int32, 0, n)
	for w, b := range set {
		for ; b != 0; b &= b - 1 {
			cols = append(cols, int32(w*64+bits.TrailingZeros64(b)))
		}
	}
	ranked = make([]int32, len(idx))
	for k, j := range idx {
		w := j >> 6
		ranked[k] = base[w] + int32(bits.OnesCount64(set[w]&(1<<(j&63)-1)))
	}
	return ranked, cols
}
