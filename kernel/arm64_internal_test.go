//go:build arm64 && !purego

package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Checks specific to the NEON assembly. The behaviour of every implementation
// against a reference is tested in kernel_test.go; this file checks what only
// this implementation promises: fused multiply-adds in Axpy and in-place use.
// (The hand-encoded WORD instructions are checked on every host by
// wordenc_test.go.)

// fusedRef returns a*x+y rounded once to T (math/big computes it exactly at
// 200 bits, far more than the 24+24+(exponent range) bits that can matter
// here, then rounds to nearest even).
func fusedRef[T float32 | float64](a, x, y T) T {
	p := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	p.Mul(p, new(big.Float).SetPrec(200).SetFloat64(float64(x)))
	p.Add(p, new(big.Float).SetPrec(200).SetFloat64(float64(y)))
	var z T
	if _, ok := any(z).(float32); ok {
		f, _ := p.Float32()
		return T(f)
	}
	f, _ := p.Float64()
	return T(f)
}

func bitsEqual[T float32 | float64](a, b T) bool {
	if _, ok := any(a).(float32); ok {
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

// testAxpyFused checks that every element of Axpy, in the vector body and in
// the scalar tail, is a single fused multiply-add (bit-exact against the
// once-rounded a*x+y), with inputs chosen so that a*x and y nearly cancel
// and the unfused result would differ. It also runs Axpy in place (x and y
// the same slice), which the kernel supports.
func testAxpyFused[T float32 | float64](t *testing.T, axpy func(a T, x, y []T)) {
	rng := rand.New(rand.NewPCG(11, 12))
	unfusedDiffers := 0
	for n := 0; n <= 70; n++ {
		a := T(1 + rng.Float64())
		x := make([]T, n)
		y := make([]T, n)
		want := make([]T, n)
		for i := range x {
			x[i] = T(rng.Float64()*2 - 1)
			y[i] = -a * x[i] // a*x - fl(a*x): the rounding error of the product
			want[i] = fusedRef(a, x[i], y[i])
			// The explicit conversion forces rounding of the product
			// (Go may otherwise fuse x*y+z on arm64).
			if want[i] != T(a*x[i])+y[i] {
				unfusedDiffers++
			}
		}
		x0 := append([]T(nil), x...)
		axpy(a, x, y)
		for i := range y {
			if !bitsEqual(y[i], want[i]) {
				t.Fatalf("n=%d i=%d: got %v, want the fused %v", n, i, y[i], want[i])
			}
			if !bitsEqual(x[i], x0[i]) {
				t.Fatalf("n=%d i=%d: x modified", n, i)
			}
		}

		// In place: x += a*x.
		for i := range x {
			want[i] = fusedRef(a, x[i], x[i])
		}
		axpy(a, x, x)
		for i := range x {
			if !bitsEqual(x[i], want[i]) {
				t.Fatalf("in place n=%d i=%d: got %v, want %v", n, i, x[i], want[i])
			}
		}
	}
	if unfusedDiffers == 0 {
		t.Fatal("test data never separates fused from unfused multiply-add")
	}
}

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
