// Package usedcols renumbers the columns of sparse rows to the ones they
// use. Hashed text spreads a few hundred thousand distinct features over
// 2²⁰ or more columns: a trainer whose weights span only the used columns
// keeps them in the caches, and writes the model's D-wide weights once at
// the end.
package usedcols

import (
	"math/bits"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
)

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

// Columns describes the used columns of RenumberByCount: Cols[r] is the
// column of rank r (the most frequent first), and Words the used columns
// as a bitmap with counts (Words[j/64].Bits has bit j%64 set if column j
// is used, Words[w].Base is the number of used columns below column 64·w),
// and Rank[s] the rank of the used column that is s-th in increasing
// order, so that a column j maps to its rank with no table of d entries
// (Lookup).
type Columns struct {
	Cols  []int32
	Words []Word
	Rank  []int32
}

// Word is 64 columns of the bitmap of Columns, with the used columns
// before them: one load finds a column's rank among the used ones.
type Word struct {
	Bits uint64
	Base int32
}

// Lookup returns the rank of column j (in [0, d)), and whether j is used
// (if not, the rank is meaningless).
func (c *Columns) Lookup(j int32) (int32, bool) {
	wd := c.Words[j>>6]
	bit := uint64(1) << (j & 63)
	if wd.Bits&bit == 0 {
		return 0, false
	}
	return c.Rank[wd.Base+int32(bits.OnesCount64(wd.Bits&(bit-1)))], true
}

// RenumberByCount is Renumber with the ranks renumbered in order of
// decreasing count in idx (ties in increasing column order): the most
// frequent columns first, so that a trainer's weights for them share a few
// cache lines (a tenth of the columns often holds most of the stored
// values). The rows' values keep their order; their indices are no longer
// increasing. The ranks are written to ranked (len(idx) long; it may not
// be idx). It takes O(len(idx) + d/64 + the largest count) time, three
// passes over idx, and keeps the bitmap (Columns) for looking columns up
// later.
func RenumberByCount(ranked, idx []int32, d int) *Columns {
	if d <= denseMax && d <= denseRatio*len(idx) {
		return renumberDense(ranked, idx, d)
	}
	words := pages.Make[Word]((d + 63) / 64)
	c := &Columns{Words: words}
	for _, j := range idx {
		words[j>>6].Bits |= 1 << (j & 63)
	}
	n := 0
	for w := range words {
		words[w].Base = int32(n)
		n += bits.OnesCount64(words[w].Bits)
	}
	// The columns' ranks in increasing order, counted as they are found.
	cnt := pages.Make[int32](n)
	ranked = ranked[:len(idx)]
	for k, j := range idx {
		wd := words[j>>6]
		s := wd.Base + int32(bits.OnesCount64(wd.Bits&(1<<(j&63)-1)))
		ranked[k] = s
		cnt[s]++
	}
	top := int32(0)
	for _, k := range cnt {
		top = max(top, k)
	}
	start := startsByCount(cnt, top)
	c.Rank = cnt // each count is read once, before its slot is written
	for s, k := range cnt {
		c.Rank[s] = start[k]
		start[k]++
	}
	for k, s := range ranked {
		ranked[k] = c.Rank[s]
	}
	c.Cols = pages.Make[int32](n)
	s := 0
	for w, wd := range words {
		for b := wd.Bits; b != 0; b &= b - 1 {
			c.Cols[c.Rank[s]] = int32(w*64 + bits.TrailingZeros64(b))
			s++
		}
	}
	return c
}

// FromSorted returns the Columns of the used columns cols (strictly
// increasing, each in [0, d)), ranked in that order: Cols is cols itself.
func FromSorted(cols []int32, d int) *Columns {
	c := &Columns{Cols: cols, Words: make([]Word, (d+63)/64), Rank: make([]int32, len(cols))}
	for r, j := range cols {
		c.Words[j>>6].Bits |= 1 << (j & 63)
		c.Rank[r] = int32(r)
	}
	base := int32(0)
	for w := range c.Words {
		c.Words[w].Base = base
		base += int32(bits.OnesCount64(c.Words[w].Bits))
	}
	return c
}

// RenumberByCount counts in an array of d counts (renumberDense) when d
// is at most denseMax and denseRatio times the stored values: two passes
// over idx instead of three, and no bitmap arithmetic per value (the
// manual pages' 8.26 M values over 2²⁰ columns: see
// bench/results/text/usedcols-ab-zen5.txt). With fewer values than
// columns the d counts cost more than they save (the manual pages' name
// set, 300,497 values over 2²⁰ columns: perceptron's
// BenchmarkTextOvRParts/fit took 23 ms with them, 17 ms without, on the
// Zen 5 guest: bench/results/layout/ab-12801f6-9055b90).
const (
	denseMax   = 1 << 22
	denseRatio = 1
)

// renumberDense is RenumberByCount with a count per column: the counts,
// then the ranks in increasing column order, the counting sort by
// decreasing count, and each value's rank looked up by its column. The
// results are RenumberByCount's.
func renumberDense(ranked, idx []int32, d int) *Columns {
	cnt := pages.Make[int32](d) // then each used column's rank
	for _, j := range idx {
		cnt[j]++
	}
	words := pages.Make[Word]((d + 63) / 64)
	c := &Columns{Words: words}
	n := 0
	top := int32(0)
	for w := range words {
		var b uint64
		for i, k := range cnt[w*64 : min(d, w*64+64)] {
			if k != 0 {
				b |= 1 << i
				top = max(top, k)
			}
		}
		words[w] = Word{Bits: b, Base: int32(n)}
		n += bits.OnesCount64(b)
	}
	start := startsByCount(cnt, top)
	c.Rank = pages.Make[int32](n)
	c.Cols = pages.Make[int32](n)
	s := 0
	for j, k := range cnt {
		if k == 0 {
			continue
		}
		r := start[k]
		start[k]++
		c.Rank[s], c.Cols[r] = r, int32(j)
		cnt[j] = r
		s++
	}
	ranked = ranked[:len(idx)]
	for k, j := range idx {
		ranked[k] = cnt[j]
	}
	return c
}

// startsByCount is the start of a counting sort of the columns by
// decreasing count (cnt, at most top; ties then go in the order they are
// placed, increasing column order in both callers): start[k] is the first
// rank of the columns counted k times.
func startsByCount(cnt []int32, top int32) []int32 {
	start := make([]int32, top+2)
	for _, k := range cnt {
		start[k]++
	}
	next := int32(0)
	for k := top; k >= 0; k-- {
		m := start[k]
		start[k] = next
		next += m
	}
	return start
}
