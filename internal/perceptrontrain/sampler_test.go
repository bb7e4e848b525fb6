package perceptrontrain

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSweepShuffle checks that a shuffled sweep's orders are those
// rand.Rand.Shuffle makes from the sampler's generator, epoch after epoch
// (the sampler runs the same Fisher–Yates inline): a model trained with a
// seed must not change with the way its orders are drawn.
func TestSweepShuffle(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 1000} {
		s := NewSampler(n, 1, SampleSweep, true, 42)
		s.Reset()
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		r := rand.New(rand.NewPCG(42, 42^0x9e3779b97f4a7c15))
		for epoch := range 3 {
			s.Next()
			r.Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
			if !slices.Equal(s.Order(), want) {
				t.Fatalf("n=%d epoch %d: order %v, want %v", n, epoch, s.Order(), want)
			}
		}
	}
}
