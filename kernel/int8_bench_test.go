package kernel_test

import (
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// BenchmarkInt8 measures the int8 kernels of every int8 implementation this
// CPU runs against the float32 Dot and Dots of every implementation, in one
// run: one vector of d = 768 (a sentence embedding) and 10 classes. GOP/s
// counts a multiply and an add per element, as GFLOP/s does for float32.
// The cross-implementation comparison with peers is in the bench module.
func BenchmarkInt8(b *testing.B) {
	const d, classes = 768, 10
	rng := rand.New(rand.NewPCG(1, 2))
	x, xs, W := make([]uint8, d), make([]int8, d), make([]int8, classes*d)
	for i := range x {
		x[i], xs[i] = uint8(rng.Uint32()), int8(rng.Uint32())
	}
	for i := range W {
		W[i] = int8(rng.Uint32())
	}
	dst := make([]int32, classes)
	var sink int32
	ops := func(b *testing.B, n int) {
		if s := b.Elapsed().Seconds(); s > 0 {
			b.ReportMetric(2*float64(n)*float64(b.N)/s/1e9, "GOP/s")
		}
	}
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			continue
		}
		k := v.Kernels()
		b.Run("kernel=DotU8I8/impl="+v.Name(), func(b *testing.B) {
			for b.Loop() {
				sink += k.DotU8I8(x, W[:d])
			}
			ops(b, d)
		})
		b.Run("kernel=DotI8/impl="+v.Name(), func(b *testing.B) {
			for b.Loop() {
				sink += k.DotI8(xs, W[:d])
			}
			ops(b, d)
		})
		b.Run("kernel=DotsU8I8/impl="+v.Name(), func(b *testing.B) {
			for b.Loop() {
				k.DotsU8I8(dst, W, x)
			}
			ops(b, classes*d)
		})
		b.Run("kernel=DotsI8/impl="+v.Name(), func(b *testing.B) {
			for b.Loop() {
				k.DotsI8(dst, W, xs)
			}
			ops(b, classes*d)
		})
		b.Run("kernel=MatVecU8I8/impl="+v.Name(), func(b *testing.B) {
			X := make([]uint8, classes*d)
			for i := range X {
				X[i] = uint8(i * 7)
			}
			for b.Loop() {
				k.MatVecU8I8(dst, X, W[:d])
			}
			ops(b, classes*d)
		})
	}
	xf, Wf, df := make([]float32, d), make([]float32, classes*d), make([]float32, classes)
	for i := range xf {
		xf[i] = float32(x[i])
	}
	for i := range Wf {
		Wf[i] = float32(W[i])
	}
	var sinkf float32
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := kernel.On[float32](im)
		b.Run("kernel=Dot/type=f32/impl="+im.Name(), func(b *testing.B) {
			for b.Loop() {
				sinkf += k.Dot(xf, Wf[:d])
			}
			ops(b, d)
		})
		b.Run("kernel=Dots/type=f32/impl="+im.Name(), func(b *testing.B) {
			for b.Loop() {
				k.Dots(df, Wf, xf)
			}
			ops(b, classes*d)
		})
	}
	_, _ = sink, sinkf
}
