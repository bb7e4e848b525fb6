//go:build !purego

package gram

import "github.com/rosenblatt-go/rosenblatt/kernel"

// archRegistry registers the arm64 code for kernel's neon implementation:
// NEON micro-kernels with the tile functions in Go (the exponential is the
// assembly paths' polynomial, rbfPoly).
var archRegistry = [kernel.NumIDs]*impl{
	kernel.IDNEON: {
		f32: micro[float32]{mr: 8, nr: 12, kern: kernNEONF32, rbf: rbfPoly[float32], poly: polyGeneric[float32], trans: transGeneric[float32]},
		f64: micro[float64]{mr: 8, nr: 6, kern: kernNEONF64, rbf: rbfPoly[float64], poly: polyGeneric[float64], trans: transGeneric[float64]},
	},
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The wrappers check the slices cover what the assembly touches, so a
// driver bug panics instead of corrupting memory.

func kernNEONF32(kc int, a, b, c []float32, ldc int, acc bool) {
	_, _, _ = a[kc*8-1], b[kc*12-1], c[7*ldc+11]
	sgemm8x12(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

func kernNEONF64(kc int, a, b, c []float64, ldc int, acc bool) {
	_, _, _ = a[kc*8-1], b[kc*6-1], c[7*ldc+5]
	dgemm8x6(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

// sgemm8x12 sets the 8×12 tile c (row stride ldc) to Σₖ a[k·8+r]·b[k·12+j],
// k < kc ≥ 1, continuing from the tile's values if acc != 0 (NEON).
//
//go:noescape
func sgemm8x12(kc int, a, b, c *float32, ldc int, acc int)

// dgemm8x6 is sgemm8x12 for float64 with an 8×6 tile.
//
//go:noescape
func dgemm8x6(kc int, a, b, c *float64, ldc int, acc int)
