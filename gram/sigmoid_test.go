package gram

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSigmoid checks the sigmoid kernel's values against
// tanh(γ·x·y + c₀) computed directly: Compute (the blocked engine),
// Rows.Row and the Diag of sparse rows, within float64 rounding; and its
// Validate.
func TestSigmoid(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, d = 37, 13
	X := make([]float64, n*d)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	k := Sigmoid{Gamma: 0.07, Coef0: -0.3}
	want := func(i, j int) float64 {
		var dot float64
		for c := range d {
			dot += X[i*d+c] * X[j*d+c]
		}
		return math.Tanh(k.Gamma*dot + k.Coef0)
	}
	m, err := Compute(X, d, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := NewRows(X, d, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		row := rows.Row(nil, i)
		for j := range n {
			w := want(i, j)
			if math.Abs(m.At(i, j)-w) > 1e-13 || math.Abs(row[j]-w) > 1e-13 {
				t.Fatalf("K(%d, %d): Compute %v, Row %v, tanh %v", i, j, m.At(i, j), row[j], w)
			}
		}
	}
	for _, bad := range []Sigmoid{{Gamma: 0}, {Gamma: math.Inf(1)}, {Gamma: 1, Coef0: math.NaN()}} {
		if err := bad.Validate(); !errors.Is(err, ErrInvalidKernel) {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if k.String() != "sigmoid(gamma=0.07, coef0=-0.3)" {
		t.Errorf("String %q", k.String())
	}
}
