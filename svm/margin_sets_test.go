package svm

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// TestMaxMarginWorkingSets: the working-set solve (forced here on small
// data) gives the margin, bracket, radius, support vectors and separator
// of the solve on all rows, in every bias mode and for the linear, the
// polynomial and the RBF kernel; it proves non-separability as the whole
// solve does; labels other than two classes are still refused.
func TestMaxMarginWorkingSets(t *testing.T) {
	defer func(v int) { wsStart = v }(wsStart)
	r := rand.New(rand.NewPCG(91, 92))
	for trial := range 9 {
		X, y := gapData(r, 300, 3, 0.3)
		kerns := []gram.Kernel{gram.Linear{}, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, gram.RBF{Gamma: 2}}
		o := MarginOptions{Kernel: kerns[trial%3], Bias: BiasMode(trial / 3), Tol: 1e-9}
		wsStart = 1000
		all, err := MaxMargin(X, 3, y, o)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		wsStart = 16
		ws, err := MaxMargin(X, 3, y, o)
		if err != nil {
			t.Fatalf("trial %d, working sets: %v", trial, err)
		}
		rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
		if rel(ws.Gamma, all.Gamma) > 1e-6 || rel(ws.Upper, all.Upper) > 1e-6 || ws.Gamma > ws.Upper*(1+1e-12) ||
			ws.Radius != all.Radius || !slices.Equal(ws.Support, all.Support) || rel(ws.Bias+1, all.Bias+1) > 1e-5 {
			t.Errorf("trial %d (%v, %v): working sets γ ∈ [%v, %v], R %v, SV %v, b %v; all rows [%v, %v], R %v, SV %v, b %v",
				trial, o.Kernel, o.Bias, ws.Gamma, ws.Upper, ws.Radius, ws.Support, ws.Bias, all.Gamma, all.Upper, all.Radius, all.Support, all.Bias)
		}
		if (ws.W == nil) != (all.W == nil) {
			t.Errorf("trial %d: W %v, all rows %v", trial, ws.W, all.W)
		}
		for j := range ws.W {
			if math.Abs(ws.W[j]-all.W[j]) > 1e-5*math.Abs(all.W[j])+1e-9 {
				t.Errorf("trial %d: W %v, all rows %v", trial, ws.W, all.W)
				break
			}
		}
		// Every row meets the margin the result states, recomputed from
		// the kernel's definition.
		f := make([]float64, len(y))
		for i := range y {
			for _, j := range ws.Support {
				c := ws.Alpha[j] * float64(y[j])
				k := refKernel(o.Kernel, X[i*3:(i+1)*3], X[j*3:(j+1)*3])
				if o.Bias == BiasFeature {
					k++
				}
				f[i] += c * k
			}
		}
		wsq := 0.0
		for _, j := range ws.Support {
			wsq += ws.Alpha[j] * float64(y[j]) * f[j]
		}
		b := 0.0
		if o.Bias == BiasFree {
			b = ws.Bias
		}
		m := math.Inf(1)
		for i := range y {
			m = min(m, float64(y[i])*(f[i]+b)/math.Sqrt(wsq))
		}
		if rel(m, ws.Gamma) > 1e-6 {
			t.Errorf("trial %d: the separator's margin over every row is %v, the result says %v", trial, m, ws.Gamma)
		}
	}
	// Not separable: XOR-like labels on many rows.
	X, _ := randData(r, 400, 2, 0)
	y := make([]int, 400)
	for i := range y {
		y[i] = 1
		if (X[2*i] > 0) != (X[2*i+1] > 0) {
			y[i] = -1
		}
	}
	wsStart = 16
	_, err := MaxMargin(X, 2, y, MarginOptions{})
	var ns *NotSeparableError
	if !errors.As(err, &ns) {
		t.Errorf("XOR on working sets: %v", err)
	}
	if _, err := MaxMargin(X, 2, make([]int, 400), MarginOptions{}); !errors.Is(err, ErrLabels) {
		t.Errorf("one class on working sets: %v", err)
	}
	bad := slices.Clone(X)
	bad[777] = math.NaN()
	if _, err := MaxMargin(bad, 2, y, MarginOptions{}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN on working sets: %v", err)
	}
}

// gapData returns n rows in [−1, 1]^d labelled by a random hyperplane,
// none of them closer than gap to it.
func gapData(r *rand.Rand, n, d int, gap float64) ([]float64, []int) {
	w := make([]float64, d)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	var X []float64
	var y []int
	for len(y) < n {
		x := make([]float64, d)
		s := 0.1
		for j := range x {
			x[j] = 2*r.Float64() - 1
			s += w[j] * x[j]
		}
		if math.Abs(s) < gap {
			continue
		}
		X = append(X, x...)
		if s > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	return X, y
}
