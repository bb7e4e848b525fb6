package svm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/kernel"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// refKernel evaluates a kernel in float64 straight from its definition,
// independently of package gram.
func refKernel(k gram.Kernel, x, z []float64) float64 {
	var dot, sq float64
	for i := range x {
		dot += x[i] * z[i]
		e := x[i] - z[i]
		sq += e * e
	}
	switch kk := k.(type) {
	case gram.Linear:
		return dot
	case gram.Polynomial:
		return math.Pow(kk.Gamma*dot+kk.Coef0, float64(kk.Degree))
	case gram.RBF:
		return math.Exp(-kk.Gamma * sq)
	}
	panic("unknown kernel")
}

func to64[T kernel.Float](x []T) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// refGram returns the N×N kernel matrix in float64.
func refGram(k gram.Kernel, X []float64, d int) [][]float64 {
	n := len(X) / d
	K := make([][]float64, n)
	for i := range K {
		K[i] = make([]float64, n)
		for j := range K[i] {
			K[i][j] = refKernel(k, X[i*d:(i+1)*d], X[j*d:(j+1)*d])
		}
	}
	return K
}

// solveLinear solves A·x = b by Gaussian elimination with partial
// pivoting; ok is false for a (numerically) singular A.
func solveLinear(A [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	M := make([][]float64, n)
	for i := range M {
		M[i] = append(append([]float64(nil), A[i]...), b[i])
	}
	scale := 0.0
	for i := range M {
		for j := range n {
			scale = max(scale, math.Abs(M[i][j]))
		}
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(M[r][c]) > math.Abs(M[p][c]) {
				p = r
			}
		}
		if math.Abs(M[p][c]) <= 1e-11*scale {
			return nil, false
		}
		M[c], M[p] = M[p], M[c]
		for r := c + 1; r < n; r++ {
			f := M[r][c] / M[c][c]
			for j := c; j <= n; j++ {
				M[r][j] -= f * M[c][j]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := M[r][n]
		for j := r + 1; j < n; j++ {
			s -= M[r][j] * x[j]
		}
		x[r] = s / M[r][r]
	}
	return x, true
}

// exactSolution is the exact optimum of a small C-SVC dual.
type exactSolution struct {
	obj   float64 // ½αᵀQα − Σα
	alpha []float64
	b     float64
}

// exactDual solves min ½αᵀQα − eᵀα s.t. yᵀα = 0, 0 ≤ α ≤ C (C may be
// +Inf: the hard margin) exactly, by trying every split of the variables
// into α = 0, 0 < α < C and α = C, solving the KKT equations of the free
// ones (with the bias as the multiplier of yᵀα = 0) and keeping a split
// whose solution satisfies every KKT condition. For a convex QP any such
// point is optimal. n must be small (3ⁿ splits). ok is false if no split
// passes.
func exactDual(K [][]float64, y []float64, C float64) (exactSolution, bool) {
	n := len(y)
	states := 3
	if math.IsInf(C, 1) {
		states = 2
	}
	total := 1
	for range n {
		total *= states
	}
	best := exactSolution{obj: math.Inf(1)}
	found := false
	st := make([]int, n) // 0: lower, 1: free, 2: upper
	for code := range total {
		c := code
		var free []int
		for i := range n {
			st[i] = c % states
			c /= states
			if st[i] == 1 {
				free = append(free, i)
			}
		}
		alpha := make([]float64, n)
		for i := range n {
			if st[i] == 2 {
				alpha[i] = C
			}
		}
		// g_i = Σ_{j bound at C} Q_ij C
		g := func(i int) float64 {
			s := 0.0
			for j := range n {
				if st[j] == 2 {
					s += y[i] * y[j] * K[i][j] * C
				}
			}
			return s
		}
		var b float64
		if len(free) > 0 {
			m := len(free) + 1
			A := make([][]float64, m)
			rhs := make([]float64, m)
			for r, i := range free {
				A[r] = make([]float64, m)
				for cc, j := range free {
					A[r][cc] = y[i] * y[j] * K[i][j]
				}
				A[r][m-1] = y[i]
				rhs[r] = 1 - g(i)
			}
			A[m-1] = make([]float64, m)
			for cc, j := range free {
				A[m-1][cc] = y[j]
			}
			s := 0.0
			for j := range n {
				if st[j] == 2 {
					s += y[j] * C
				}
			}
			rhs[m-1] = -s
			x, ok := solveLinear(A, rhs)
			if !ok {
				continue
			}
			okBounds := true
			for r, i := range free {
				if !(x[r] > 0 && x[r] < C) {
					okBounds = false
				}
				alpha[i] = x[r]
			}
			if !okBounds {
				continue
			}
			b = x[m-1]
		} else {
			s := 0.0
			for j := range n {
				if st[j] == 2 {
					s += y[j] * C
				}
			}
			if math.Abs(s) > 1e-12 {
				continue
			}
		}
		// f_i = Σ α_j y_j K_ij; check the KKT conditions of the bound
		// variables (finding b's feasible interval when nothing is free).
		lo, hi := math.Inf(-1), math.Inf(1)
		fs := make([]float64, n)
		for i := range n {
			for j := range n {
				fs[i] += alpha[j] * y[j] * K[i][j]
			}
		}
		for i := range n {
			// need y_i(f_i + b) ≥ 1 (lower) or ≤ 1 (upper)
			switch st[i] {
			case 0, 2:
				bound := y[i] - fs[i] // y_i(f_i+b) = 1 ⇔ b = y_i − f_i
				geq := st[i] == 0
				if (y[i] > 0) == geq {
					lo = max(lo, bound)
				} else {
					hi = min(hi, bound)
				}
			}
		}
		if len(free) == 0 {
			if lo > hi+1e-9 {
				continue
			}
			b = (max(lo, -1e300) + min(hi, 1e300)) / 2
			if math.IsInf(lo, -1) {
				b = hi
			}
			if math.IsInf(hi, 1) {
				b = lo
			}
		} else if b < lo-1e-9 || b > hi+1e-9 {
			continue
		}
		obj := 0.0
		for i := range n {
			obj += 0.5*alpha[i]*y[i]*fs[i] - alpha[i]
		}
		found = true
		if obj < best.obj {
			best = exactSolution{obj: obj, alpha: alpha, b: b}
		}
	}
	return best, found
}

// randData returns n rows of d features uniform in [−1, 1] and labels ±1
// from a random hyperplane with some flipped.
func randData(r *rand.Rand, n, d int, flip float64) ([]float64, []int) {
	X := make([]float64, n*d)
	for i := range X {
		X[i] = 2*r.Float64() - 1
	}
	w := make([]float64, d)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	y := make([]int, n)
	for i := range y {
		s := 0.1
		for j := range d {
			s += w[j] * X[i*d+j]
		}
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
		if r.Float64() < flip {
			y[i] = -y[i]
		}
	}
	// Both classes present.
	y[0], y[1] = 1, -1
	return X, y
}

// randInt returns integer-valued data with values in [−m, m].
func randInt(r *rand.Rand, n, d, m, classes int) ([]float64, []int) {
	X := make([]float64, n*d)
	for i := range X {
		X[i] = float64(r.IntN(2*m+1) - m)
	}
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(classes)
	}
	for c := range classes {
		y[c] = c
	}
	return X, y
}

func load(t testing.TB, name string, cols int) *dataset.Data[float64] {
	t.Helper()
	ds, err := dataset.LoadLIBSVM[float64]("testdata/"+name, dataset.LIBSVMOptions{Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func convert32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// checkKKT recomputes, in float64 from the data, the decision values of
// binary machine r of model m trained with constant C on rows X (labels y,
// positive = pos) and checks the KKT conditions of the C-SVC within tol:
// 0 ≤ αᵢ ≤ C, Σαᵢyᵢ = 0, yᵢf(xᵢ) ≥ 1 − tol where αᵢ = 0, ≤ 1 + tol where
// αᵢ = C, within tol of 1 in between.
func checkKKT(t *testing.T, m *expansion.Model[float64], r int, X []float64, d int, y []int, pos int, C, tol float64) {
	t.Helper()
	s := m.NumSupport()
	coef, b := m.Coefficients(r)
	idx := m.SupportIndices()
	alpha := map[int]float64{}
	var sum float64
	for j, c := range coef {
		if c == 0 {
			continue
		}
		i := idx[j]
		yi := -1.0
		if y[i] == pos {
			yi = 1
		}
		a := c * yi
		if a < 0 || a > C*(1+1e-12) {
			t.Fatalf("row %d: α = %v outside [0, %v]", i, a, C)
		}
		alpha[i] = a
		sum += c
	}
	if math.Abs(sum) > 1e-9*max(1, C)*float64(s) {
		t.Errorf("Σαy = %v, want 0", sum)
	}
	sv := m.SupportVectors()
	for i := range y {
		yi := -1.0
		if y[i] == pos {
			yi = 1
		}
		f := float64(b)
		for j, c := range coef {
			if c != 0 {
				f += float64(c) * refKernel(m.Kernel(), sv[j*d:(j+1)*d], X[i*d:(i+1)*d])
			}
		}
		yf := yi * f
		a := alpha[i]
		switch {
		case a == 0 && yf < 1-tol:
			t.Errorf("row %d: α = 0 but y·f = %v < 1 − %v", i, yf, tol)
		case a >= C && yf > 1+tol:
			t.Errorf("row %d: α = C but y·f = %v > 1 + %v", i, yf, tol)
		case a > 0 && a < C && math.Abs(yf-1) > tol:
			t.Errorf("row %d: 0 < α = %v < C but y·f = %v", i, a, yf)
		}
	}
}
