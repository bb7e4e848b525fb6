package modelkern_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// rescaleWant is RescaleArgmax's documented loop, written out here.
func rescaleWant(dst []float32, acc []int32, s, b []float64, sx float64) (int, bool) {
	for k, a := range acc {
		dst[k] = float32(float64(s[k]*sx*float64(a)) + b[k])
	}
	best := 0
	for k, v := range dst {
		if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
			return 0, false
		}
		if v > dst[best] {
			best = k
		}
	}
	return best, true
}

// TestRescaleArgmax checks every int8 implementation's RescaleArgmax
// against the loop, bit for bit, at every length 0..40 (the AVX-512 one's
// eight-score steps and masked tails) with scores drawn to tie (few
// distinct values, ±0), all negative, overflowing float32 (a huge s[k]:
// +Inf, and −Inf, at any index) and at random.
func TestRescaleArgmax(t *testing.T) {
	for _, v := range kerneltest.AvailableInt8() {
		t.Run(v.Name(), func(t *testing.T) {
			k := modelkern.OnInt8(v)
			rng := rand.New(rand.NewPCG(21, 22))
			for n := 0; n <= 40; n++ {
				for trial := range 60 {
					acc, s, b := make([]int32, n), make([]float64, n), make([]float64, n)
					sx := float64(float32(rng.Float64()*2 + 1e-3))
					for i := range acc {
						switch trial % 6 {
						case 0: // ties: a few values
							acc[i] = int32(rng.IntN(3) - 1)
							s[i], b[i] = 0.5, 0
						case 1: // ±0 and ties at 0
							acc[i] = 0
							s[i], b[i] = 1, []float64{0, math.Copysign(0, -1)}[rng.IntN(2)]
						case 2: // all negative
							acc[i] = -int32(rng.IntN(1 << 20))
							s[i], b[i] = float64(float32(rng.Float64()*1e-3)), -rng.Float64()
						default:
							acc[i] = int32(rng.Uint32())
							s[i], b[i] = float64(float32(rng.Float64()*1e-3)), float64(float32(rng.NormFloat64()))
						}
					}
					if n > 0 && trial%6 == 5 {
						i := rng.IntN(n)
						s[i] = 1e300 // beyond float32: ±Inf (or a large finite b)
						if acc[i] == 0 {
							acc[i] = 1
						}
					}
					want, got := make([]float32, n), make([]float32, n)
					for i := range got {
						got[i] = float32(math.NaN())
					}
					wb, wf := rescaleWant(want, acc, s, b, sx)
					gb, gf := k.RescaleArgmax(got, acc, s, b, sx)
					if gb != wb || gf != wf {
						t.Fatalf("n=%d trial %d: got (%d, %v), want (%d, %v); scores %v", n, trial, gb, gf, wb, wf, want)
					}
					for i := range want {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("n=%d trial %d: dst[%d] = %v, want %v", n, trial, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestRescaleArgmaxLengths checks that mismatched lengths panic.
func TestRescaleArgmaxLengths(t *testing.T) {
	k := modelkern.OnInt8(kerneltest.Int8Impls()[0])
	for _, c := range []struct{ nd, ns, nb int }{{3, 4, 4}, {4, 3, 4}, {4, 4, 5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("lengths %v did not panic", c)
				}
			}()
			k.RescaleArgmax(make([]float32, c.nd), make([]int32, 4), make([]float64, c.ns), make([]float64, c.nb), 1)
		}()
	}
}
