package gram

import (
	"math"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The portable Go micro-kernel and tile functions: the reference every
// assembly path is tested against, and the path of purego builds and of
// architectures without assembly.

func genericMicro[T kernel.Float]() micro[T] {
	return micro[T]{mr: 4, nr: 4, kern: kernGeneric[T], rbf: rbfGeneric[T], poly: polyGeneric[T], trans: transGeneric[T]}
}

// kernGeneric is the 4×4 micro-kernel: sixteen accumulators, each a
// sequential chain over k.
func kernGeneric[T kernel.Float](kc int, a, b, c []T, ldc int, acc bool) {
	a, b = a[:kc*4], b[:kc*4]
	c0, c1, c2, c3 := c[:4:4], c[ldc:ldc+4:ldc+4], c[2*ldc:2*ldc+4:2*ldc+4], c[3*ldc:3*ldc+4:3*ldc+4]
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 T
	if acc {
		c00, c01, c02, c03 = c0[0], c0[1], c0[2], c0[3]
		c10, c11, c12, c13 = c1[0], c1[1], c1[2], c1[3]
		c20, c21, c22, c23 = c2[0], c2[1], c2[2], c2[3]
		c30, c31, c32, c33 = c3[0], c3[1], c3[2], c3[3]
	}
	for k := 0; k < kc; k++ {
		ak, bk := a[k*4:k*4+4:k*4+4], b[k*4:k*4+4:k*4+4]
		a0, a1, a2, a3 := ak[0], ak[1], ak[2], ak[3]
		b0, b1, b2, b3 := bk[0], bk[1], bk[2], bk[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	c0[0], c0[1], c0[2], c0[3] = c00, c01, c02, c03
	c1[0], c1[1], c1[2], c1[3] = c10, c11, c12, c13
	c2[0], c2[1], c2[2], c2[3] = c20, c21, c22, c23
	c3[0], c3[1], c3[2], c3[3] = c30, c31, c32, c33
}

// rbfGeneric evaluates the exponential with math.Exp in float64.
func rbfGeneric[T kernel.Float](dst []T, ni T, nj []T, gamma T) {
	nj = nj[:len(dst)]
	g := -float64(gamma)
	for j, s := range dst {
		t := ni + nj[j] - 2*s
		if t < 0 {
			t = 0
		}
		dst[j] = T(math.Exp(g * float64(t)))
	}
}

// polyGeneric raises γ·s + c to the power by repeated squaring.
func polyGeneric[T kernel.Float](dst []T, gamma, coef0 T, degree int) {
	for j, s := range dst {
		dst[j] = powi(gamma*s+coef0, degree)
	}
}

// powi returns x^m for m ≥ 1 by binary powering.
func powi[T kernel.Float](x T, m int) T {
	r := T(1)
	for {
		if m&1 != 0 {
			r *= x
		}
		m >>= 1
		if m == 0 {
			return r
		}
		x *= x
	}
}

// transGeneric sets dst[c·ldd+r] = src[r·lds+c] for r < rows, c < cols,
// one destination row at a time.
func transGeneric[T kernel.Float](dst []T, ldd int, src []T, lds int, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	_, _ = dst[(cols-1)*ldd+rows-1], src[(rows-1)*lds+cols-1]
	for c := 0; c < cols; c++ {
		d := dst[c*ldd:][:rows]
		for r := range d {
			d[r] = src[r*lds+c]
		}
	}
}
