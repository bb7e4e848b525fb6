package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The int8 kernels against the float32 ones, same run: one sample of
// d = 768 (a sentence embedding) scored against 1 and 10 weight vectors.
// GOP/s counts a multiply and an add per element, as GFLOP/s does.

const (
	int8D       = 768
	int8Classes = 10
)

// int8Case is one measured call: a kernel of an implementation, as user
// code calls it (through the package's API, one closure per candidate).
type int8Case struct {
	kernel, impl string
	ops          int // multiply-adds per call
	call         func()
}

var int8Sink int32

// int8Cases returns the int8 kernels of every int8 implementation this CPU
// runs ("auto": the package-level DotU8I8 and DotsU8I8) and float32 Dot and
// Dots of every implementation, on the same data. The int8 calls go through
// an Int8Kernels method value captured in a closure, one indirect call as
// user code through an interface would pay.
func int8Cases() []int8Case {
	const d, K = int8D, int8Classes
	rng := rand.New(rand.NewPCG(7, 8))
	x, xs, W := make([]uint8, d), make([]int8, d), make([]int8, K*d)
	for i := range x {
		x[i], xs[i] = uint8(rng.Uint32()), int8(rng.Uint32())
	}
	for i := range W {
		W[i] = int8(rng.Uint32())
	}
	dst := make([]int32, K)
	xf, Wf, df := make([]float32, d), make([]float32, K*d), make([]float32, K)
	for i := range xf {
		xf[i] = float32(x[i]) / 255
	}
	for i := range Wf {
		Wf[i] = float32(W[i]) / 127
	}
	var cs []int8Case
	X := make([]uint8, K*d) // K samples for MatVecU8I8, against the weights W[:d]
	for i := range X {
		X[i] = uint8(rng.Uint32())
	}
	add := func(impl string, k kernel.Int8Kernels) {
		cs = append(cs,
			int8Case{"DotU8I8", impl, d, func() { int8Sink += k.DotU8I8(x, W[:d]) }},
			int8Case{"DotI8", impl, d, func() { int8Sink += k.DotI8(xs, W[:d]) }},
			int8Case{"DotsU8I8", impl, K * d, func() { k.DotsU8I8(dst, W, x) }},
			int8Case{"DotsI8", impl, K * d, func() { k.DotsI8(dst, W, xs) }},
			int8Case{"MatVecU8I8", impl, K * d, func() { k.MatVecU8I8(dst, X, W[:d]) }})
	}
	cs = append(cs,
		int8Case{"DotU8I8", "auto", d, func() { int8Sink += kernel.DotU8I8(x, W[:d]) }},
		int8Case{"DotsU8I8", "auto", K * d, func() { kernel.DotsU8I8(dst, W, x) }})
	for _, v := range kerneltest.Int8Impls() {
		if v.Available() {
			add(v.Name(), v.Kernels())
		}
	}
	for _, im := range kernel.Impls() {
		if im.Available() {
			k := kernel.On[float32](im)
			cs = append(cs,
				int8Case{"Dot/f32", im.Name(), d, func() { sink32 += k.Dot(xf, Wf[:d]) }},
				int8Case{"Dots/f32", im.Name(), K * d, func() { k.Dots(df, Wf, xf) }})
		}
	}
	return cs
}

// BenchmarkInt8 is the wall-clock benchmark of int8Cases:
//
//	go -C bench test -run '^$' -bench Int8 -count 5
func BenchmarkInt8(b *testing.B) {
	for _, c := range int8Cases() {
		b.Run(fmt.Sprintf("kernel=%s/impl=%s/n=%d", c.kernel, c.impl, c.ops), func(b *testing.B) {
			for b.Loop() {
				c.call()
			}
			if s := b.Elapsed().Seconds(); s > 0 {
				b.ReportMetric(2*float64(c.ops)*float64(b.N)/s/1e9, "GOP/s")
			}
		})
	}
}
