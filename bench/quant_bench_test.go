package bench

import (
	"context"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// quantCase is a 10-class one-vs-rest float32 model of d features, its
// quantised form and one sample in every input form.
type quantCase struct {
	m  *linear.Model[float32]
	q  *quant.Model
	x  []float32
	u  []uint8
	v  []int8
	sx float32
	z  uint8
}

func newQuantCase(t testing.TB, d int) *quantCase {
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
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, perceptron.Options{MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	q, err := quant.New(m)
	if err != nil {
		t.Fatal(err)
	}
	c := &quantCase{m: m, q: q, x: X[3*d : 4*d], u: make([]uint8, d), v: make([]int8, d)}
	if c.sx, c.z, err = quant.QuantizeInput(c.u, c.x); err != nil {
		t.Fatal(err)
	}
	for i := range c.v {
		c.v[i] = int8(c.u[i] >> 1)
	}
	return c
}

// float32 is the float model's Predict of the sample.
func (c *quantCase) float32() (int, error) { return c.m.Predict(c.x) }

// int8 returns PredictU8, PredictI8 and Predict of the sample on the int8
// implementation im.
func (c *quantCase) int8(im *kernel.Int8Impl) (u8, i8, f32 func() (int, error)) {
	q := c.q.OnInt8(im)
	return func() (int, error) { return q.PredictU8(c.u, c.sx, c.z) },
		func() (int, error) { return q.PredictI8(c.v, c.sx) },
		func() (int, error) { return q.Predict(c.x) }
}

// kernelOnly returns a call of the int8 kernel alone that PredictU8 runs
// on im (DotsU8I8 of the model's weights and the unsigned sample), so
// that a table shows what PredictU8 adds to it.
func (c *quantCase) kernelOnly(im *kernel.Int8Impl) func() (int, error) {
	k := im.Kernels()
	r, d := c.q.NumScores(), c.q.Dims()
	W := make([]int8, 0, r*d)
	for i := range r {
		w, _, _ := c.q.Weights(i)
		W = append(W, w...)
	}
	acc := make([]int32, r)
	return func() (int, error) {
		k.DotsU8I8(acc, W, c.u)
		return int(acc[0]), nil
	}
}

// BenchmarkQuantPredict times a 10-class one-vs-rest Predict at d = 768
// and 784 in the same run: the float32 model (linear.Model.Predict on
// the active float implementation), and its quantised form (package
// quant) on every int8 implementation this CPU has, with the sample given
// as unsigned bytes (PredictU8: pixels), signed bytes (PredictI8: int8
// embeddings) and float32 (Predict: quantised per vector first). Run it
// with ROSENBLATT_KERNEL=avx2 for the AVX2 float32 figure to set against
// int8=avx2 (an AVX2 CPU without VNNI). On a shared machine prefer
// TestQuantPredictCPUTime, which measures the same calls in thread CPU
// time.
//
//	go -C bench test -run '^$' -bench '^BenchmarkQuantPredict$' -count 5 .
func BenchmarkQuantPredict(b *testing.B) {
	for _, d := range []int{768, 784} {
		c := newQuantCase(b, d)
		bench := func(name string, f func() (int, error)) {
			b.Run(fmt.Sprintf("d=%d/%s", d, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		bench("float32="+kernel.ActiveImpl().Name(), c.float32)
		for _, im := range kerneltest.Int8Impls() {
			if !im.Available() || im.Name() == "generic" {
				continue
			}
			u8, i8, f32 := c.int8(im)
			bench("int8="+im.Name()+"/input=u8", u8)
			bench("int8="+im.Name()+"/input=i8", i8)
			bench("int8="+im.Name()+"/input=float32", f32)
		}
	}
}
