package quant

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// BenchmarkPredict times a 10-class one-vs-rest Predict at d = 768 and 784
// in the same run: the float32 model (perceptron.Model.Predict on the
// active float implementation), and its quantised form on every int8
// implementation this CPU has, with the sample given as unsigned bytes
// (PredictU8: pixels), signed bytes (PredictI8: int8 embeddings) and
// float32 (Predict: quantised per vector, then PredictU8). Run it with
// ROSENBLATT_KERNEL=avx2 for the AVX2 float32 figure to set against
// int8=avx2 (an AVX2 CPU without VNNI).
//
//	go test -run '^$' -bench '^BenchmarkPredict$' -count 5 ./quant
func BenchmarkPredict(b *testing.B) {
	for _, d := range []int{768, 784} {
		rng := rand.New(rand.NewPCG(uint64(d), 1))
		const n, cls = 200, 10
		X := make([]float32, n*d)
		for i := range X {
			X[i] = rng.Float32()
		}
		y := make([]int, n)
		for i := range y {
			y[i] = i % cls
		}
		m, _, err := perceptron.TrainMulticlass(X, d, y, perceptron.Options{MaxIter: 2})
		if err != nil {
			b.Fatal(err)
		}
		q, err := New(m)
		if err != nil {
			b.Fatal(err)
		}
		x := X[3*d : 4*d]
		u, v := make([]uint8, d), make([]int8, d)
		sx, z, err := QuantizeInput(u, x)
		if err != nil {
			b.Fatal(err)
		}
		for i := range v {
			v[i] = int8(u[i] >> 1)
		}
		b.Run(fmt.Sprintf("d=%d/float32=%s", d, kernel.ActiveImpl().Name()), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Predict(x); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, im := range kernel.Int8Impls() {
			if !im.Available() || im.Name() == "generic" {
				continue
			}
			q := q.OnInt8(im)
			for _, in := range []struct {
				name string
				f    func() (int, error)
			}{
				{"u8", func() (int, error) { return q.PredictU8(u, sx, z) }},
				{"i8", func() (int, error) { return q.PredictI8(v, sx) }},
				{"float32", func() (int, error) { return q.Predict(x) }},
			} {
				b.Run(fmt.Sprintf("d=%d/int8=%s/input=%s", d, im.Name(), in.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := in.f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

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
