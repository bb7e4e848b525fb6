package text

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEntries: sortEntries (sortSmall below 128 entries, the radix
// sort above) gives slices.Sort's order for every width of the entries
// and every count around the thresholds, with repeated values (a
// document's repeated features) and without.
func TestSortEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s scratch
	for _, bits := range []int{1, 2, 6, 7, 8, 9, 16, 21, 29} {
		for _, n := range []int{0, 1, 2, 15, 16, 17, 40, 63, 64, 127, 128, 129, 1000} {
			for _, dups := range []bool{false, true} {
				ent := make([]uint64, n)
				for i := range ent {
					ent[i] = rng.Uint64N(1 << bits)
					if dups && i > 0 && rng.IntN(2) == 0 {
						ent[i] = ent[rng.IntN(i)]
					}
				}
				want := slices.Sorted(slices.Values(ent))
				s.ent = slices.Clone(ent)
				s.sortEntries(bits)
				if !slices.Equal(s.ent, want) {
					t.Fatalf("bits %d, %d entries (dups %v): %v, want %v", bits, n, dups, s.ent, want)
				}
			}
		}
	}
}
