//go:build arm64 && !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Checks specific to the NEON assembly. The behaviour of every implementation
// against a reference is tested in kernel_test.go; this file checks what only
// this implementation promises: fused multiply-adds in Axpy and in-place use.
// (The hand-encoded WORD instructions are checked on every host by
// wordenc_test.go.)

// fusedRef, bitsEqual and testAxpyFused are in fused_internal_test.go.

func TestNEONAxpyFused(t *testing.T) {
	t.Run("f32", func(t *testing.T) { testAxpyFused(t, axpyNEONF32) })
	t.Run("f64", func(t *testing.T) { testAxpyFused(t, axpyNEONF64) })
}

// TestNEONScaleInPlaceExact checks Scale against the plain multiply, bit for
// bit (a product rounds the same in every order), including -0, subnormal
// and infinite results.
func TestNEONScaleInPlaceExact(t *testing.T) {
	run := func(t *testing.T, n int, a float64) {
		x32 := make([]float32, n)
		x64 := make([]float64, n)
		rng := rand.New(rand.NewPCG(uint64(n), 13))
		for i := range x64 {
			v := math.Ldexp(rng.Float64()*2-1, rng.IntN(300)-150)
			if i%7 == 3 {
				v = 0
			}
			x64[i] = v
			x32[i] = float32(v)
		}
		w32 := append([]float32(nil), x32...)
		w64 := append([]float64(nil), x64...)
		for i := range w32 {
			w32[i] *= float32(a)
			w64[i] *= a
		}
		scaleNEONF32(float32(a), x32)
		scaleNEONF64(a, x64)
		for i := range x32 {
			if !bitsEqual(x32[i], w32[i]) || !bitsEqual(x64[i], w64[i]) {
				t.Fatalf("n=%d a=%v i=%d: got %v/%v, want %v/%v", n, a, i, x32[i], x64[i], w32[i], w64[i])
			}
		}
	}
	for _, a := range []float64{-1.5, 0x1p-100, math.Inf(-1), -0.0} {
		for n := 0; n <= 40; n++ {
			run(t, n, a)
		}
	}
}

// BenchmarkNEONvsGeneric compares the NEON and generic float32 kernels on a
// Fashion-MNIST sized vector (784) and a 10-class score matrix. Under
// qemu-aarch64 the numbers measure the emulator, not a CPU; run it on arm64
// hardware for real figures.
func BenchmarkNEONvsGeneric(b *testing.B) {
	const d, rows = 784, 10
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, d)
	y := make([]float32, d)
	m := make([]float32, rows*d)
	dst := make([]float32, rows)
	for i := range x {
		x[i], y[i] = rng.Float32(), rng.Float32()
	}
	for i := range m {
		m[i] = rng.Float32()
	}
	for _, c := range []struct {
		name string
		f    funcs[float32]
	}{{"generic", tableOf[float32](impls[0])}, {"neon", tableOf[float32](archImpls()[0])}} {
		b.Run("dot/"+c.name, func(b *testing.B) {
			b.SetBytes(2 * 4 * d)
			var s float32
			for b.Loop() {
				s += c.f.dot(x, y)
			}
			_ = s
		})
		b.Run("axpy/"+c.name, func(b *testing.B) {
			b.SetBytes(2 * 4 * d)
			for b.Loop() {
				c.f.axpy(1e-7, x, y)
			}
		})
		b.Run("matvec10/"+c.name, func(b *testing.B) {
			b.SetBytes(4 * (rows*d + d))
			for b.Loop() {
				c.f.matvec(dst, m, x)
			}
		})
	}
}
