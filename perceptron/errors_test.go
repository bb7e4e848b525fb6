package perceptron

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

func TestInputErrors(t *testing.T) {
	good := []float64{1, 2, 3, 4, -1, -2}
	nan := []float64{1, 2, math.NaN(), 4, -1, -2}
	inf := []float64{1, 2, 3, math.Inf(-1), -1, -2}
	huge := []float64{1e200, 1e200, 3, 4, -1, -2}
	for _, tc := range []struct {
		name  string
		X     []float64
		cols  int
		y     []int
		multi bool
		want  error
	}{
		{"empty", nil, 2, nil, false, ErrEmpty},
		{"empty-multi", []float64{}, 2, []int{}, true, ErrEmpty},
		{"zero-features", good, 0, []int{1, -1, 1}, false, linear.ErrDims},
		{"negative-cols", good, -2, []int{1, -1, 1}, false, linear.ErrDims},
		{"not-multiple", good, 4, []int{1, -1}, false, linear.ErrDims},
		{"short-y", good, 2, []int{1, -1}, false, linear.ErrDims},
		{"long-y", good, 2, []int{1, -1, 1, 1}, true, linear.ErrDims},
		{"nan", nan, 2, []int{1, -1, 1}, false, linear.ErrNonFinite},
		{"inf-multi", inf, 2, []int{0, 1, 2}, true, linear.ErrNonFinite},
		{"overflow", huge, 2, []int{1, -1, 1}, false, linear.ErrNonFinite},
		{"labels-01", good, 2, []int{0, 1, 1}, false, linear.ErrLabels},
		{"labels-2", good, 2, []int{1, -1, 2}, false, linear.ErrLabels},
		{"one-class", good, 2, []int{1, 1, 1}, false, ErrOneClass},
		{"one-class-multi", good, 2, []int{7, 7, 7}, true, ErrOneClass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var m *linear.Model[float64]
			if tc.multi {
				m, _, err = trainMulti(tc.X, tc.cols, tc.y, Options{})
			} else {
				m, _, err = trainBinary(tc.X, tc.cols, tc.y, Options{})
			}
			if !errors.Is(err, tc.want) || m != nil {
				t.Fatalf("got %v, %v; want %v", m, err, tc.want)
			}
			// Float32 too.
			if tc.multi {
				_, _, err = trainMulti(to32(tc.X), tc.cols, tc.y, Options{})
			} else {
				_, _, err = trainBinary(to32(tc.X), tc.cols, tc.y, Options{})
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("float32: got %v; want %v", err, tc.want)
			}
		})
	}
}

func TestOptionErrors(t *testing.T) {
	X := []float64{1, 2, 3, 4, -1, -2}
	y := []int{1, -1, 1}
	for _, tc := range []struct {
		name  string
		opt   Options
		multi bool
	}{
		{"eta<0", Options{Eta: -1}, false},
		{"eta-nan", Options{Eta: math.NaN()}, false},
		{"eta-inf", Options{Eta: math.Inf(1)}, false},
		{"tau<0", Options{Algorithm: linear.MiniBatch, Tau: -0.5}, false},
		{"B<1", Options{Algorithm: linear.MiniBatch, BatchSize: -1}, false},
		{"maxiter<0", Options{MaxIter: -3}, false},
		{"algorithm", Options{Algorithm: 99}, false},
		{"algorithm-dcd", Options{Algorithm: linear.DualCD}, false}, // package svm's
		{"strategy", Options{Multiclass: 9}, true},
		{"lambda<0", Options{Algorithm: linear.SVM, Lambda: -1}, false},
		{"C-nan", Options{Algorithm: linear.SVM, C: math.NaN()}, false},
		{"lambda-and-C", Options{Algorithm: linear.SVM, Lambda: 1, C: 1}, false},
		{"tol<0", Options{Algorithm: linear.SVM, Tol: -1}, false},
		{"workers<0", Options{Workers: -1}, false},
		{"argmax-svm", Options{Algorithm: linear.SVM, Multiclass: fit.Argmax}, true},
		{"argmax-voted", Options{Algorithm: linear.Voted, Multiclass: fit.Argmax}, true},
		{"argmax-batch", Options{Algorithm: linear.Batch, Multiclass: fit.Argmax}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.multi {
				_, _, err = trainMulti(X, 2, y, tc.opt)
			} else {
				_, _, err = trainBinary(X, 2, y, tc.opt)
			}
			if !errors.Is(err, ErrOption) {
				t.Fatalf("got %v, want ErrOption", err)
			}
		})
	}
	if _, err := linear.ParseAlgorithm("nope"); !errors.Is(err, linear.ErrOption) {
		t.Fatalf("ParseAlgorithm: %v", err)
	}
	for a := linear.Online; a <= linear.DualCD; a++ {
		if b, err := linear.ParseAlgorithm(a.String()); err != nil || b != a {
			t.Fatalf("ParseAlgorithm(%q) = %v, %v", a.String(), b, err)
		}
	}
}

// TestEnumNames pins the enums' names, the form of an unknown value, and
// the parse errors' text.
func TestEnumNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{linear.Online.String(), "online"},
		{linear.SVM.String(), "svm"},
		{(linear.DualCD + 1).String(), "Algorithm(7)"},
		{fit.Argmax.String(), "argmax"},
		{fit.Scheme(7).String(), "Scheme(7)"},
		{SampleReplace.String(), "replace"},
		{Sampling(200).String(), "Sampling(200)"},
		{func() string { _, err := linear.ParseAlgorithm("nope"); return err.Error() }(), `linear: invalid option: unknown algorithm "nope"`},
		{func() string { _, err := ParseSampling("often"); return err.Error() }(), `perceptron: invalid option: unknown sampling "often"`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// Training never writes to the caller's slices.
func TestCallerDataUntouched(t *testing.T) {
	X, y := intMulticlass(newRand(600), 90, 4, 3)
	X0, y0 := slices.Clone(X), slices.Clone(y)
	yb := make([]int, len(y))
	for i := range y {
		yb[i] = 1 - 2*(i%2)
	}
	yb0 := slices.Clone(yb)
	for a := linear.Online; a < numAlgorithms; a++ {
		for _, norm := range []bool{false, true} {
			opt := Options{Algorithm: a, Normalize: norm, Shuffle: true, MaxIter: 3}
			if _, _, err := trainBinary(X, 4, yb, opt); err != nil {
				t.Fatal(err)
			}
			if _, _, err := trainMulti(X, 4, y, opt); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !slices.Equal(X, X0) || !slices.Equal(y, y0) || !slices.Equal(yb, yb0) {
		t.Fatal("training modified the caller's data")
	}
}
