package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

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
// runs ("auto" the package-level functions) and float32 Dot and Dots of
// every implementation, on the same data.
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
	add := func(impl string, dot func([]uint8, []int8) int32, doti func([]int8, []int8) int32, dots func([]int32, []int8, []uint8), dotsi func([]int32, []int8, []int8)) {
		cs = append(cs,
			int8Case{"DotU8I8", impl, d, func() { int8Sink += dot(x, W[:d]) }},
			int8Case{"DotI8", impl, d, func() { int8Sink += doti(xs, W[:d]) }},
			int8Case{"DotsU8I8", impl, K * d, func() { dots(dst, W, x) }},
			int8Case{"DotsI8", impl, K * d, func() { dotsi(dst, W, xs) }})
	}
	add("auto", kernel.DotU8I8, kernel.DotI8, kernel.DotsU8I8, kernel.DotsI8)
	for _, v := range kernel.Int8Impls() {
		if v.Available() {
			k := kernel.OnInt8(v)
			add(v.Name(), k.DotU8I8, k.DotI8, k.DotsU8I8, k.DotsI8)
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
