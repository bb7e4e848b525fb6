package perceptron

import "testing"

// BenchmarkScoresBatchGEMM runs ScoresBatch of 200 samples (d = 784,
// float32) on a 64-class one-vs-rest model, the matrix-product path
// (gemmMinRows classes), plain and with Normalize (whose per-row scaling
// finishBatch applies after the product).
//
//	go test -run '^$' -bench '^BenchmarkScoresBatchGEMM$' -count 5 ./perceptron
func BenchmarkScoresBatchGEMM(b *testing.B) {
	const d, n, k = 784, 200, gemmMinRows
	rng := newRand(3)
	X := make([]float32, n*d)
	y := make([]int, n)
	for i := range X {
		X[i] = float32(rng.Float64())
	}
	for i := range y {
		y[i] = i % k
	}
	for _, c := range []struct {
		name string
		o    Options
	}{{"plain", Options{MaxIter: 1}}, {"normalize", Options{MaxIter: 1, Normalize: true}}} {
		m, _, err := trainMulti(X, d, y, c.o)
		if err != nil {
			b.Fatal(err)
		}
		if s := snap(m); !useGEMM(partsRows(s)) {
			b.Fatalf("%d classes: not the matrix-product path", partsRows(s))
		}
		dst := make([]float32, n*k)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := m.ScoresBatch(dst, X); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
