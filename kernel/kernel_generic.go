package kernel

// The portable Go implementation. It is compiled on every platform and under
// every build tag: it is the fallback where no assembly exists (and under the
// purego tag), and the baseline the assembly paths are tested against.
// The reductions keep four partial sums, which lets the compiler overlap
// the floating-point adds; they obey the same error bound as the SIMD paths.

func dotGeneric[T float32 | float64](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i <= len(x)-4; i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func sqdistGeneric[T float32 | float64](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i <= len(x)-4; i += 4 {
		d0 := x[i] - y[i]
		d1 := x[i+1] - y[i+1]
		d2 := x[i+2] - y[i+2]
		d3 := x[i+3] - y[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := x[i] - y[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

func axpyGeneric[T float32 | float64](a T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

func scaleGeneric[T float32 | float64](a T, x []T) {
	for i := range x {
		x[i] *= a
	}
}

func matvecGeneric[T float32 | float64](dst, m, w []T) {
	d := len(w)
	for i := range dst {
		dst[i] = dotGeneric(m[i*d:i*d+d], w)
	}
}
