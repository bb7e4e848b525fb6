package usedcols

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRenumber checks Renumber against a map on rows of random columns
// (dense and sparse, across word boundaries, with the last column used):
// cols lists each used column once in increasing order, and every index
// becomes the rank of its column.
func TestRenumber(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ d, nnz int }{{1, 1}, {64, 5}, {65, 40}, {200, 0}, {1000, 300}, {1 << 16, 2000}} {
		idx := make([]int32, tc.nnz)
		for k := range idx {
			idx[k] = int32(r.IntN(tc.d))
		}
		if tc.nnz > 0 {
			idx[0] = int32(tc.d - 1)
		}
		ranked, cols := Renumber(idx, tc.d)
		seen := map[int32]bool{}
		for _, j := range idx {
			seen[j] = true
		}
		want := make([]int32, 0, len(seen))
		for j := range seen {
			want = append(want, j)
		}
		slices.Sort(want)
		if !slices.Equal(cols, want) {
			t.Fatalf("d=%d: cols %v, want %v", tc.d, cols, want)
		}
		for k, j := range idx {
			if cols[ranked[k]] != j {
				t.Fatalf("d=%d: index %d (column %d) renumbered %d, the rank of column %d", tc.d, k, j, ranked[k], cols[ranked[k]])
			}
		}
	}
}

// TestByCount: after byCount every index still names its column through
// cols, the ranks run in order of decreasing count, and equal counts keep
// their columns in increasing order.
func TestByCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 70, 5000} {
		idx := make([]int32, 3*d)
		for k := range idx {
			idx[k] = int32(r.IntN(d) * r.IntN(2)) // column 0 about half the time
		}
		ranked, cols := Renumber(idx, d)
		byCount(ranked, cols)
		cnt := make([]int, len(cols))
		for k, j := range idx {
			if cols[ranked[k]] != j {
				t.Fatalf("d=%d: index %d (column %d) renumbered %d, the rank of column %d", d, k, j, ranked[k], cols[ranked[k]])
			}
			cnt[ranked[k]]++
		}
		if cols[0] != 0 {
			t.Errorf("d=%d: the most frequent column is %d, want 0", d, cols[0])
		}
		for q := 1; q < len(cols); q++ {
			if cnt[q] > cnt[q-1] || cnt[q] == cnt[q-1] && cols[q] < cols[q-1] {
				t.Fatalf("d=%d: rank %d (column %d, %d times) after rank %d (column %d, %d times)", d, q, cols[q], cnt[q], q-1, cols[q-1], cnt[q-1])
			}
		}
	}
}

// TestRenumberByCount checks RenumberByCount against Renumber then
// byCount (the same ranks and columns) and its Lookup against the ranks.
func TestRenumberByCount(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 63, 64, 70, 5000, 1 << 16} {
		for _, nnz := range []int{0, 1, 3 * d} {
			idx := make([]int32, nnz)
			for k := range idx {
				idx[k] = int32(r.IntN(d) * r.IntN(2)) // column 0 about half the time
			}
			want, wantCols := Renumber(idx, d)
			byCount(want, wantCols)
			got := make([]int32, len(idx))
			c := RenumberByCount(got, idx, d)
			if !slices.Equal(got, want) || !slices.Equal(c.Cols, wantCols) {
				t.Fatalf("d=%d nnz=%d: ranks or columns differ from Renumber and ByCount", d, nnz)
			}
			used := map[int32]int32{}
			for rk, j := range c.Cols {
				used[j] = int32(rk)
			}
			for j := range int32(d) {
				rk, ok := c.Lookup(j)
				if wr, wok := used[j]; ok != wok || ok && rk != wr {
					t.Fatalf("d=%d: Lookup(%d) = %d, %v; want %d, %v", d, j, rk, ok, wr, wok)
				}
			}
		}
	}
}

// byCount (the reference of RenumberByCount's order) renumbers the ranks of Renumber's results, in place, in order of
// decreasing count in ranked (ties in increasing column order): the most
// frequent columns first, so that a trainer's weights for them share a few
// cache lines (a tenth of the columns often holds most of the stored
// values). The rows' values keep their order; their indices are no longer
// increasing. It takes O(len(ranked) + len(cols) + the largest count) time.
func byCount(ranked, cols []int32) {
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
