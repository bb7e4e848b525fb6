//go:build !purego

package kernel

// archImpls returns the NEON implementation (kernel_arm64.s). It is always
// available: Advanced SIMD (ASIMD, "NEON") with double-precision floating
// point is a mandatory part of ARMv8-A, and every arm64 CPU Go supports
// implements it, so no feature detection is needed.
func archImpls() []*Impl {
	return []*Impl{{name: "neon", id: IDNEON, rank: 1, available: true}}
}

// The dispatch switches: each calls the implementation named by id
// directly (a direct call reaches the assembly without an ABI wrapper),
// and the portable Go code for IDGeneric or any id this build lacks.

func dot32(id ID, x, y []float32) float32 {
	switch id {
	case IDNEON:
		return dotNEONF32(x, y)
	}
	return dotGeneric(x, y)
}

func sqdist32(id ID, x, y []float32) float32 {
	switch id {
	case IDNEON:
		return sqdistNEONF32(x, y)
	}
	return sqdistGeneric(x, y)
}

func axpy32(id ID, a float32, x, y []float32) {
	switch id {
	case IDNEON:
		axpyNEONF32(a, x, y)
		return
	}
	axpyGeneric(a, x, y)
}

func scale32(id ID, a float32, x []float32) {
	switch id {
	case IDNEON:
		scaleNEONF32(a, x)
		return
	}
	scaleGeneric(a, x)
}

func matvec32(id ID, dst, m, w []float32) {
	switch id {
	case IDNEON:
		matvecNEONF32(dst, m, w)
		return
	}
	matvecGeneric(dst, m, w)
}

func dot64(id ID, x, y []float64) float64 {
	switch id {
	case IDNEON:
		return dotNEONF64(x, y)
	}
	return dotGeneric(x, y)
}

func sqdist64(id ID, x, y []float64) float64 {
	switch id {
	case IDNEON:
		return sqdistNEONF64(x, y)
	}
	return sqdistGeneric(x, y)
}

func axpy64(id ID, a float64, x, y []float64) {
	switch id {
	case IDNEON:
		axpyNEONF64(a, x, y)
		return
	}
	axpyGeneric(a, x, y)
}

func scale64(id ID, a float64, x []float64) {
	switch id {
	case IDNEON:
		scaleNEONF64(a, x)
		return
	}
	scaleGeneric(a, x)
}

func matvec64(id ID, dst, m, w []float64) {
	switch id {
	case IDNEON:
		matvecNEONF64(dst, m, w)
		return
	}
	matvecGeneric(dst, m, w)
}

// The assembly kernels. Callers (the Kernels methods) check the
// preconditions: len(y) == len(x), and len(m) == len(dst)*len(w) for matvec.
// Any length >= 0 and any element alignment is accepted. Reductions keep 16
// (float32) or 8 (float64) partial sums, so they round differently from the
// plain loops shown, within the bound documented in kernel.go; the
// multiply-adds are fused.

// dotNEONF32 returns the dot product of x and y:
//
//	var s float32
//	for i := range x {
//		s += x[i] * y[i]
//	}
//	return s
//
//go:noescape
func dotNEONF32(x, y []float32) float32

// dotNEONF64 returns the dot product of x and y:
//
//	var s float64
//	for i := range x {
//		s += x[i] * y[i]
//	}
//	return s
//
//go:noescape
func dotNEONF64(x, y []float64) float64

// sqdistNEONF32 returns the squared Euclidean distance of x and y:
//
//	var s float32
//	for i := range x {
//		d := x[i] - y[i]
//		s += d * d
//	}
//	return s
//
//go:noescape
func sqdistNEONF32(x, y []float32) float32

// sqdistNEONF64 returns the squared Euclidean distance of x and y:
//
//	var s float64
//	for i := range x {
//		d := x[i] - y[i]
//		s += d * d
//	}
//	return s
//
//go:noescape
func sqdistNEONF64(x, y []float64) float64

// axpyNEONF32 adds a*x to y in place:
//
//	for i := range x {
//		y[i] += a * x[i]
//	}
//
//go:noescape
func axpyNEONF32(a float32, x, y []float32)

// axpyNEONF64 adds a*x to y in place:
//
//	for i := range x {
//		y[i] += a * x[i]
//	}
//
//go:noescape
func axpyNEONF64(a float64, x, y []float64)

// scaleNEONF32 multiplies x by a in place:
//
//	for i := range x {
//		x[i] *= a
//	}
//
//go:noescape
func scaleNEONF32(a float32, x []float32)

// scaleNEONF64 multiplies x by a in place:
//
//	for i := range x {
//		x[i] *= a
//	}
//
//go:noescape
func scaleNEONF64(a float64, x []float64)

// matvecNEONF32 sets dst[i] to the dot product of row i of the row-major
// len(dst)×len(w) matrix m with w, four rows at a time:
//
//	d := len(w)
//	for i := range dst {
//		dst[i] = dot(m[i*d:(i+1)*d], w)
//	}
//
//go:noescape
func matvecNEONF32(dst, m, w []float32)

// matvecNEONF64 sets dst[i] to the dot product of row i of the row-major
// len(dst)×len(w) matrix m with w, four rows at a time:
//
//	d := len(w)
//	for i := range dst {
//		dst[i] = dot(m[i*d:(i+1)*d], w)
//	}
//
//go:noescape
func matvecNEONF64(dst, m, w []float64)
