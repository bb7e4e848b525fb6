package expansion

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
)

// TestDecide: the tie rules of the three schemes.
func TestDecide(t *testing.T) {
	bin := &Model[float64]{labels: []int{-1, 1}, scheme: fit.Binary, nf: 1}
	ovr := &Model[float64]{labels: []int{3, 5, 9}, scheme: fit.OneVsRest}
	ovo := &Model[float64]{labels: []int{3, 5, 9}, scheme: fit.OneVsOne}
	votes := make([]int, 3)
	cases := []struct {
		m    *Model[float64]
		sc   []float64
		want int
	}{
		{bin, []float64{0}, -1},
		{bin, []float64{1e-300}, 1},
		{ovr, []float64{1, 2, 2}, 5}, // tie → smaller label
		{ovr, []float64{-3, -2, -1}, 9},
		// pairs (3,5), (3,9), (5,9): 5, 3, 9 → one vote each → 3
		{ovo, []float64{1, -1, 1}, 3},
		// 5, 9, 9 → 9
		{ovo, []float64{1, 1, 1}, 9},
		// zero votes for the smaller label of the pair
		{ovo, []float64{0, 0, 0}, 3},
	}
	for i, c := range cases {
		if got := c.m.decide(c.sc, votes); got != c.want {
			t.Errorf("case %d: %d, want %d", i, got, c.want)
		}
	}
	for r, want := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		if a, b := pairOf(3, r); a != want[0] || b != want[1] {
			t.Errorf("pairOf(3, %d) = %d, %d", r, a, b)
		}
	}
}
