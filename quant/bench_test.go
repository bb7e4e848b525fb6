package quant

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkQuantizeInput times the per-vector quantisation of a float32
// sample of d = 768 (Predict's cost above PredictU8's).
func BenchmarkQuantizeInput(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 3))
	x := make([]float32, 768)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	u := make([]uint8, len(x))
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		if _, _, err := QuantizeInput(u, x); err != nil {
			b.Fatal(err)
		}
	}
}
