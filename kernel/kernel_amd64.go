//go:build !purego

package kernel

import "github.com/klauspost/cpuid/v2"

// archImpls returns the amd64 assembly implementations, worst first:
// AVX2+FMA (kernel_amd64.s) and AVX-512F (kernel_avx512_amd64.s). cpuid
// checks that the operating system saves the YMM (and, for AVX-512, the ZMM
// and opmask) state via XGETBV before reporting the features. The AVX-512
// code also uses AVX instructions for its final cross-lane sums, so it asks
// for AVX2 and FMA3 as well (every AVX-512F CPU has them).
func archImpls() []*Impl {
	return []*Impl{
		{name: "avx2", id: IDAVX2, rank: 1, available: cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3)},
		{name: "avx512", id: IDAVX512, rank: 2, available: cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX2, cpuid.FMA3)},
	}
}

// The dispatch switches: each calls the implementation named by id
// directly (a direct call reaches the assembly without an ABI wrapper),
// and the portable Go code for IDGeneric or any id this build lacks.

func dot32(id ID, x, y []float32) float32 {
	switch id {
	case IDAVX512:
		return dotAVX512F32(x, y)
	case IDAVX2:
		return dotAVX2F32(x, y)
	}
	return dotGeneric(x, y)
}

func sqdist32(id ID, x, y []float32) float32 {
	switch id {
	case IDAVX512:
		return sqdistAVX512F32(x, y)
	case IDAVX2:
		return sqdistAVX2F32(x, y)
	}
	return sqdistGeneric(x, y)
}

func axpy32(id ID, a float32, x, y []float32) {
	switch id {
	case IDAVX512:
		axpyAVX512F32(a, x, y)
		return
	case IDAVX2:
		axpyAVX2F32(a, x, y)
		return
	}
	axpyGeneric(a, x, y)
}

func scale32(id ID, a float32, x []float32) {
	switch id {
	case IDAVX512:
		scaleAVX512F32(a, x)
		return
	case IDAVX2:
		scaleAVX2F32(a, x)
		return
	}
	scaleGeneric(a, x)
}

func matvec32(id ID, dst, m, w []float32) {
	switch id {
	case IDAVX512:
		matvecAVX512F32(dst, m, w)
		return
	case IDAVX2:
		matvecAVX2F32(dst, m, w)
		return
	}
	matvecGeneric(dst, m, w)
}

func dot64(id ID, x, y []float64) float64 {
	switch id {
	case IDAVX512:
		return dotAVX512F64(x, y)
	case IDAVX2:
		return dotAVX2F64(x, y)
	}
	return dotGeneric(x, y)
}

func sqdist64(id ID, x, y []float64) float64 {
	switch id {
	case IDAVX512:
		return sqdistAVX512F64(x, y)
	case IDAVX2:
		return sqdistAVX2F64(x, y)
	}
	return sqdistGeneric(x, y)
}

func axpy64(id ID, a float64, x, y []float64) {
	switch id {
	case IDAVX512:
		axpyAVX512F64(a, x, y)
		return
	case IDAVX2:
		axpyAVX2F64(a, x, y)
		return
	}
	axpyGeneric(a, x, y)
}

func scale64(id ID, a float64, x []float64) {
	switch id {
	case IDAVX512:
		scaleAVX512F64(a, x)
		return
	case IDAVX2:
		scaleAVX2F64(a, x)
		return
	}
	scaleGeneric(a, x)
}

func matvec64(id ID, dst, m, w []float64) {
	switch id {
	case IDAVX512:
		matvecAVX512F64(dst, m, w)
		return
	case IDAVX2:
		matvecAVX2F64(dst, m, w)
		return
	}
	matvecGeneric(dst, m, w)
}

// The AVX2+FMA kernels (kernel_amd64.s). Each reads len(x) (or len(dst) and
// len(w)) and trusts the caller's length checks: len(y) == len(x), and
// len(m) == len(dst)*len(w) for matvec.

// dotAVX2F32 returns Σ x[i]*y[i]:
//
//	for i := range x { s += x[i] * y[i] }
//
//go:noescape
func dotAVX2F32(x, y []float32) float32

// sqdistAVX2F32 returns Σ (x[i]-y[i])²:
//
//	for i := range x { d := x[i] - y[i]; s += d * d }
//
//go:noescape
func sqdistAVX2F32(x, y []float32) float32

// axpyAVX2F32 adds a*x to y with one rounding per element (FMA):
//
//	for i := range x { y[i] += a * x[i] }
//
//go:noescape
func axpyAVX2F32(a float32, x, y []float32)

// scaleAVX2F32 multiplies x by a in place:
//
//	for i := range x { x[i] *= a }
//
//go:noescape
func scaleAVX2F32(a float32, x []float32)

// matvecAVX2F32 sets dst[i] to row i of the row-major len(dst)×len(w)
// matrix m times w, four rows at a time:
//
//	d := len(w)
//	for i := range dst { dst[i] = dot(m[i*d:(i+1)*d], w) }
//
//go:noescape
func matvecAVX2F32(dst, m, w []float32)

// dotAVX2F64 returns Σ x[i]*y[i]:
//
//	for i := range x { s += x[i] * y[i] }
//
//go:noescape
func dotAVX2F64(x, y []float64) float64

// sqdistAVX2F64 returns Σ (x[i]-y[i])²:
//
//	for i := range x { d := x[i] - y[i]; s += d * d }
//
//go:noescape
func sqdistAVX2F64(x, y []float64) float64

// axpyAVX2F64 adds a*x to y with one rounding per element (FMA):
//
//	for i := range x { y[i] += a * x[i] }
//
//go:noescape
func axpyAVX2F64(a float64, x, y []float64)

// scaleAVX2F64 multiplies x by a in place:
//
//	for i := range x { x[i] *= a }
//
//go:noescape
func scaleAVX2F64(a float64, x []float64)

// matvecAVX2F64 sets dst[i] to row i of the row-major len(dst)×len(w)
// matrix m times w, four rows at a time:
//
//	d := len(w)
//	for i := range dst { dst[i] = dot(m[i*d:(i+1)*d], w) }
//
//go:noescape
func matvecAVX2F64(dst, m, w []float64)

// The AVX-512F kernels (kernel_avx512_amd64.s), same contracts as the AVX2
// ones: each reads len(x) (or len(dst) and len(w)) and trusts the caller's
// length checks.

// dotAVX512F32 returns Σ x[i]*y[i]:
//
//	for i := range x { s += x[i] * y[i] }
//
//go:noescape
func dotAVX512F32(x, y []float32) float32

// sqdistAVX512F32 returns Σ (x[i]-y[i])²:
//
//	for i := range x { d := x[i] - y[i]; s += d * d }
//
//go:noescape
func sqdistAVX512F32(x, y []float32) float32

// axpyAVX512F32 adds a*x to y with one rounding per element (FMA):
//
//	for i := range x { y[i] += a * x[i] }
//
//go:noescape
func axpyAVX512F32(a float32, x, y []float32)

// scaleAVX512F32 multiplies x by a in place:
//
//	for i := range x { x[i] *= a }
//
//go:noescape
func scaleAVX512F32(a float32, x []float32)

// matvecAVX512F32 sets dst[i] to row i of the row-major len(dst)×len(w)
// matrix m times w, four rows at a time:
//
//	d := len(w)
//	for i := range dst { dst[i] = dot(m[i*d:(i+1)*d], w) }
//
//go:noescape
func matvecAVX512F32(dst, m, w []float32)

// dotAVX512F64 returns Σ x[i]*y[i]:
//
//	for i := range x { s += x[i] * y[i] }
//
//go:noescape
func dotAVX512F64(x, y []float64) float64

// sqdistAVX512F64 returns Σ (x[i]-y[i])²:
//
//	for i := range x { d := x[i] - y[i]; s += d * d }
//
//go:noescape
func sqdistAVX512F64(x, y []float64) float64

// axpyAVX512F64 adds a*x to y with one rounding per element (FMA):
//
//	for i := range x { y[i] += a * x[i] }
//
//go:noescape
func axpyAVX512F64(a float64, x, y []float64)

// scaleAVX512F64 multiplies x by a in place:
//
//	for i := range x { x[i] *= a }
//
//go:noescape
func scaleAVX512F64(a float64, x []float64)

// matvecAVX512F64 sets dst[i] to row i of the row-major len(dst)×len(w)
// matrix m times w, four rows at a time:
//
//	d := len(w)
//	for i := range dst { dst[i] = dot(m[i*d:(i+1)*d], w) }
//
//go:noescape
func matvecAVX512F64(dst, m, w []float64)
