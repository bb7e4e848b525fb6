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

// ByCount renumbers the ranks of Renumber's results, in place, in order of
// decreasing count in ranked (ties in increasing column order): the most
// frequent columns first, so that a trainer's weights for them share a few
// cache lines (a tenth of the columns often holds most of the stored
// values). The rows' values keep their order; their indices are no longer
// increasing. It takes O(len(ranked) + len(cols) + the largest count) time.
func ByCount(ranked, cols []int32) {
	cnt := make([]int32, len(cols))
	for _, r := range ranked {
		cnt[r]++
	}
	top := int32(0)
	for _, c := range cnt {
		top = max(top, c)
	}
	// start[c]: the first new rank of the columns counted c times (those
	// counted more come first).
	start := make([]int32, top+2)
	for _, c := range cnt {
		start[c]++
	}
	next := int32(0)
	for c := top; c >= 0; c-- {
		k := start[c]
		start[c] = next
		next += k
	}
	perm := make([]int32, len(cols)) // old rank → new rank
	for r, c := range cnt {
		perm[r] = start[c]
		start[c]++
	}
	for k, r := range ranked {
		ranked[k] = perm[r]
	}
	old := append([]int32(nil), cols...)
	for r, j := range old {
		cols[perm[r]] = j
	}
}
