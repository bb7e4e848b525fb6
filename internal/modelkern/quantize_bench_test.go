package modelkern_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// BenchmarkQuantize times the int8 models' input quantiser, QuantRange and
// QuantizeU8 of one float32 sample, on every int8 implementation this CPU
// runs (generic is the Go loops), at d = 768 and 784.
func BenchmarkQuantize(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 3))
	for _, d := range []int{768, 784} {
		x := make([]float32, d)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		u := make([]uint8, d)
		for _, v := range kerneltest.Int8Impls() {
			if !v.Available() {
				continue
			}
			k := modelkern.OnInt8(v)
			b.Run(fmt.Sprintf("d=%d/kernel=QuantRange/impl=%s", d, v.Name()), func(b *testing.B) {
				b.SetBytes(int64(4 * d))
				for b.Loop() {
					if _, _, ok := k.QuantRange(x); !ok {
						b.Fatal("not finite")
					}
				}
			})
			b.Run(fmt.Sprintf("d=%d/kernel=QuantizeU8/impl=%s", d, v.Name()), func(b *testing.B) {
				b.SetBytes(int64(4 * d))
				for b.Loop() {
					k.QuantizeU8(u, x, 37.1, 128.5)
				}
			})
		}
	}
}
