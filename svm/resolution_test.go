package svm

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// TestHardMarginBelowFloat32: float32 data separable by a margin below
// what float32 kernel values resolve (the classes 2⁻¹³ apart at radius 1:
// D = 2⁻²⁶, under float32's floor of about 4·10⁻⁶) are separable for trainDense
// and MaxMargin alike, as in float64, with the float64 margin 2⁻¹⁴;
// data whose classes touch are still not separable.
func TestHardMarginBelowFloat32(t *testing.T) {
	eps := float32(math.Ldexp(1, -13))
	X := []float32{1, 0, 1, -1, 1, eps, 1, 1 + eps}
	y := []int{1, 1, 0, 0}
	want := math.Ldexp(1, -14)
	for _, kern := range []gram.Kernel{gram.Linear{}, nil} {
		_, info, err := trainDense(X, 2, y, Options{C: math.Inf(1), Kernel: kern})
		if kern == nil {
			// RBF with γ = 1/2: the points are still 2⁻¹³ apart, K rounds to 1 in float32.
			if err != nil {
				t.Fatalf("RBF: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trainDense float32, C = inf: %v", err)
		}
		if got := info.Problems[0].Margin; math.Abs(got-want) > 1e-3*want {
			t.Errorf("trainDense float32: margin %g, want %g", got, want)
		}
		X64 := make([]float64, len(X))
		for i, v := range X {
			X64[i] = float64(v)
		}
		_, info64, err := trainDense(X64, 2, y, Options{C: math.Inf(1), Kernel: kern})
		if err != nil {
			t.Fatalf("trainDense float64: %v", err)
		}
		if a, b := info.Problems[0].Margin, info64.Problems[0].Margin; math.Abs(a-b) > 1e-3*b {
			t.Errorf("margins float32 %g, float64 %g", a, b)
		}
	}
	// The same on CSR rows (trainSparse).
	c := &dataset.CSR[float32]{Rows: 4, Cols: 2, Ptr: []int{0, 1, 3, 5, 7}, Idx: []int32{0, 0, 1, 0, 1, 0, 1},
		Val: []float32{1, 1, -1, 1, eps, 1, 1 + eps}, Y: y}
	if _, info, err := trainSparse(c, y, Options{C: math.Inf(1), Kernel: gram.Linear{}}); err != nil {
		t.Errorf("trainSparse float32, C = inf: %v", err)
	} else if got := info.Problems[0].Margin; math.Abs(got-want) > 1e-3*want {
		t.Errorf("trainSparse float32: margin %g, want %g", got, want)
	}
	mg, err := MaxMargin(context.Background(), dataset.NewData(X, 2, nil), y, MarginOptions{})
	if err != nil {
		t.Fatalf("MaxMargin float32: %v", err)
	}
	if !(mg.Gamma <= want*(1+1e-9) && want <= mg.Upper*(1+1e-9)) || math.Abs(mg.Gamma-want) > 1e-3*want {
		t.Errorf("MaxMargin float32: [%g, %g], want %g", mg.Gamma, mg.Upper, want)
	}
	// The same point in both classes: not separable in either type.
	Xt := []float32{1, 0, 1, -1, 1, 0, 1, 1 + eps}
	if _, _, err := trainDense(Xt, 2, y, Options{C: math.Inf(1), Kernel: gram.Linear{}}); !errors.Is(err, ErrNotSeparable) {
		t.Errorf("touching classes, trainDense: err = %v, want ErrNotSeparable", err)
	}
	if _, err := MaxMargin(context.Background(), dataset.NewData(Xt, 2, nil), y, MarginOptions{}); !errors.Is(err, ErrNotSeparable) {
		t.Errorf("touching classes, MaxMargin: err = %v, want ErrNotSeparable", err)
	}
}
