//go:build (amd64 || arm64) && !purego

package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExportedAPIRunsAssembly checks that the generated Kernels methods and
// package-level functions, whose dispatch switch is inline, reach each
// assembly implementation: Axpy through them must be one fused
// multiply-add per element, bit for bit, on data where an unfused
// multiply-add (the portable Go code on amd64) rounds differently.
func TestExportedAPIRunsAssembly(t *testing.T) {
	for _, im := range archImpls() {
		if !im.available {
			t.Logf("%s: not available on this CPU, not tested here", im.name)
			continue
		}
		t.Run(im.name+"/f32", func(t *testing.T) { testAxpyFused(t, Kernels[float32]{im: im}.Axpy) })
		t.Run(im.name+"/f64", func(t *testing.T) { testAxpyFused(t, Kernels[float64]{im: im}.Axpy) })
	}
	if active.id != IDGeneric {
		t.Run("package-level/"+active.name, func(t *testing.T) {
			testAxpyFused(t, Axpy[float32])
			testAxpyFused(t, Axpy[float64])
		})
	}
}

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
