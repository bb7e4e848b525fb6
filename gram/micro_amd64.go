//go:build !purego

package gram

import "github.com/rosenblatt-go/rosenblatt/kernel"

// archRegistry registers the amd64 assembly for the implementations of
// package kernel: the AVX2 micro-kernels and tile functions for avx2, the
// AVX-512 micro-kernels with the AVX2 tile functions for avx512 (whose
// availability kernel checks: every AVX-512F CPU it accepts has AVX2 and
// FMA3).
var archRegistry = [kernel.NumIDs]*impl{
	kernel.IDAVX2: {
		f32: micro[float32]{mr: 6, nr: 16, kern: kernAVX2F32, rbf: rbfAVX2F32s, poly: polyAVX2F32s, trans: transAVX2F32s},
		f64: micro[float64]{mr: 6, nr: 8, kern: kernAVX2F64, rbf: rbfAVX2F64s, poly: polyAVX2F64s, trans: transAVX2F64s},
	},
	kernel.IDAVX512: {
		f32: micro[float32]{mr: 12, nr: 32, kern: kernAVX512F32, rbf: rbfAVX2F32s, poly: polyAVX2F32s, trans: transAVX2F32s},
		f64: micro[float64]{mr: 12, nr: 16, kern: kernAVX512F64, rbf: rbfAVX2F64s, poly: polyAVX2F64s, trans: transAVX2F64s},
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

func kernAVX2F32(kc int, a, b, c []float32, ldc int, acc bool) {
	_, _, _ = a[kc*6-1], b[kc*16-1], c[5*ldc+15]
	sgemm6x16(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

func kernAVX2F64(kc int, a, b, c []float64, ldc int, acc bool) {
	_, _, _ = a[kc*6-1], b[kc*8-1], c[5*ldc+7]
	dgemm6x8(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

func kernAVX512F32(kc int, a, b, c []float32, ldc int, acc bool) {
	_, _, _ = a[kc*12-1], b[kc*32-1], c[11*ldc+31]
	sgemm12x32(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

func kernAVX512F64(kc int, a, b, c []float64, ldc int, acc bool) {
	_, _, _ = a[kc*12-1], b[kc*16-1], c[11*ldc+15]
	dgemm12x16(kc, &a[0], &b[0], &c[0], ldc, b2i(acc))
}

func rbfAVX2F32s(dst []float32, ni float32, nj []float32, gamma float32) {
	if len(dst)%8 != 0 || len(nj) < len(dst) {
		panic("gram: rbfAVX2F32 length")
	}
	if len(dst) > 0 {
		rbfAVX2F32(&dst[0], &nj[0], len(dst), ni, gamma)
	}
}

func rbfAVX2F64s(dst []float64, ni float64, nj []float64, gamma float64) {
	if len(dst)%4 != 0 || len(nj) < len(dst) {
		panic("gram: rbfAVX2F64 length")
	}
	if len(dst) > 0 {
		rbfAVX2F64(&dst[0], &nj[0], len(dst), ni, gamma)
	}
}

func polyAVX2F32s(dst []float32, gamma, coef0 float32, degree int) {
	if len(dst)%8 != 0 {
		panic("gram: polyAVX2F32 length")
	}
	if len(dst) > 0 {
		polyAVX2F32(&dst[0], len(dst), gamma, coef0, degree)
	}
}

func polyAVX2F64s(dst []float64, gamma, coef0 float64, degree int) {
	if len(dst)%4 != 0 {
		panic("gram: polyAVX2F64 length")
	}
	if len(dst) > 0 {
		polyAVX2F64(&dst[0], len(dst), gamma, coef0, degree)
	}
}

// transAVX2F32s transposes with 8×8 register blocks where it can and
// transGeneric for the remainder.
func transAVX2F32s(dst []float32, ldd int, src []float32, lds int, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	_, _ = dst[(cols-1)*ldd+rows-1], src[(rows-1)*lds+cols-1]
	r8, c8 := rows/8*8, cols/8*8
	if r8 > 0 {
		for c := 0; c < c8; c += 8 {
			transAVX2F32(&dst[c*ldd], ldd, &src[c], lds, r8)
		}
	}
	if c8 < cols {
		transGeneric(dst[c8*ldd:], ldd, src[c8:], lds, rows, cols-c8)
	}
	if r8 < rows {
		transGeneric(dst[r8:], ldd, src[r8*lds:], lds, rows-r8, c8)
	}
}

// transAVX2F64s transposes with 4×4 register blocks where it can and
// transGeneric for the remainder.
func transAVX2F64s(dst []float64, ldd int, src []float64, lds int, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	_, _ = dst[(cols-1)*ldd+rows-1], src[(rows-1)*lds+cols-1]
	r4, c4 := rows/4*4, cols/4*4
	if r4 > 0 {
		for c := 0; c < c4; c += 4 {
			transAVX2F64(&dst[c*ldd], ldd, &src[c], lds, r4)
		}
	}
	if c4 < cols {
		transGeneric(dst[c4*ldd:], ldd, src[c4:], lds, rows, cols-c4)
	}
	if r4 < rows {
		transGeneric(dst[r4:], ldd, src[r4*lds:], lds, rows-r4, c4)
	}
}

// transAVX2F32 sets dst[c·ldd+r] = src[r·lds+c] for c < 8, r < rows, rows a
// multiple of 8.
//
//go:noescape
func transAVX2F32(dst *float32, ldd int, src *float32, lds int, rows int)

// transAVX2F64 sets dst[c·ldd+r] = src[r·lds+c] for c < 4, r < rows, rows a
// multiple of 4.
//
//go:noescape
func transAVX2F64(dst *float64, ldd int, src *float64, lds int, rows int)

// sgemm6x16 sets the 6×16 tile c (row stride ldc) to Σₖ a[k·6+r]·b[k·16+j],
// k < kc ≥ 1, continuing from the tile's values if acc != 0 (AVX2+FMA).
//
//go:noescape
func sgemm6x16(kc int, a, b, c *float32, ldc int, acc int)

// dgemm6x8 is sgemm6x16 for float64 with a 6×8 tile.
//
//go:noescape
func dgemm6x8(kc int, a, b, c *float64, ldc int, acc int)

// sgemm12x32 is sgemm6x16 with a 12×32 tile in AVX-512 registers.
//
//go:noescape
func sgemm12x32(kc int, a, b, c *float32, ldc int, acc int)

// dgemm12x16 is dgemm6x8 with a 12×16 tile in AVX-512 registers.
//
//go:noescape
func dgemm12x16(kc int, a, b, c *float64, ldc int, acc int)

// rbfAVX2F32 sets dst[j] = exp(−gamma·max(ni + nj[j] − 2·dst[j], 0)) for
// j < n, n a multiple of 8.
//
//go:noescape
func rbfAVX2F32(dst, nj *float32, n int, ni, gamma float32)

// rbfAVX2F64 is rbfAVX2F32 for float64, n a multiple of 4.
//
//go:noescape
func rbfAVX2F64(dst, nj *float64, n int, ni, gamma float64)

// polyAVX2F32 sets dst[j] = (gamma·dst[j] + coef0)^degree for j < n, n a
// multiple of 8, degree ≥ 1.
//
//go:noescape
func polyAVX2F32(dst *float32, n int, gamma, coef0 float32, degree int)

// polyAVX2F64 is polyAVX2F32 for float64, n a multiple of 4.
//
//go:noescape
func polyAVX2F64(dst *float64, n int, gamma, coef0 float64, degree int)
