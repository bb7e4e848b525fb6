package perceptron

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// TestDataMarginKnown: the AND set, whose maximum margin with the bias as
// a weight on the constant 1 is 1/√17 (the separator 2x₁ + 2x₂ − 3, ‖(w,
// b)‖ = √17, nearest points at distance 1/√17), with R′ = √3; without the
// request, no data margin.
func TestDataMarginKnown(t *testing.T) {
	X := []float64{0, 0, 0, 1, 1, 0, 1, 1}
	y := []int{-1, -1, -1, 1}
	_, diag, err := trainBinary(X, 2, y, Options{Algorithm: linear.Online, DataMargin: true})
	if err != nil {
		t.Fatal(err)
	}
	dm := diag.DataMargin
	if dm == nil || diag.DataMarginErr != nil {
		t.Fatalf("DataMargin = %+v", dm)
	}
	want := 1 / math.Sqrt(17)
	if math.Abs(dm.Gamma-want) > 1e-6 || math.Abs(dm.Upper-want) > 1e-6 || dm.Gamma > dm.Upper {
		t.Errorf("γ_D in [%v, %v], want %v", dm.Gamma, dm.Upper, want)
	}
	if math.Abs(dm.Radius-math.Sqrt(3)) > 1e-12 || math.Abs(dm.Radius-diag.RadiusAugmented) > 1e-12 {
		t.Errorf("R′ = %v, want √3 = RadiusAugmented %v", dm.Radius, diag.RadiusAugmented)
	}
	if math.Abs(dm.Bound-51) > 1e-3 {
		t.Errorf("R′²/γ² = %v, want 51", dm.Bound)
	}
	if diag.Updates > int(dm.Bound) {
		t.Errorf("%d mistakes, more than Novikoff's %v", diag.Updates, dm.Bound)
	}
	_, diag, err = trainBinary(X, 2, y, Options{Algorithm: linear.Online})
	if err != nil || diag.DataMargin != nil {
		t.Errorf("without DataMargin: %+v, %v", diag.DataMargin, err)
	}
}

// TestDataMarginBounds: on planted separable data, in every scaling and
// with or without a bias, the data margin brackets the model's own
// augmented margin from above (no separator beats γ_D), its bound is at
// most the model's BoundAugmented, Rosenblatt's perceptron makes at most
// that many mistakes, and the margin is svm.MaxMargin's on the points as
// trained on, built here by hand.
func TestDataMarginBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for trial := range 6 {
		bias := trial%2 == 0
		X, y, _, _ := separable(rng, 80, 3, 4, 1, bias)
		opt := Options{Algorithm: linear.Online, NoBias: !bias, MaxIter: 1000, DataMargin: true}
		switch trial / 2 {
		case 1:
			opt.Normalize = true
		case 2:
			opt.NormalizeFeatures = true
		}
		_, diag, err := trainBinary(X, 3, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		dm := diag.DataMargin
		if !diag.Converged || dm == nil {
			t.Fatalf("trial %d: converged %v, %+v", trial, diag.Converged, dm)
		}
		if diag.MarginAugmented > dm.Upper*(1+1e-9) || dm.Gamma > dm.Upper*(1+1e-9) {
			t.Errorf("trial %d: the model's margin %v or the separator's %v exceeds γ_D ≤ %v", trial, diag.MarginAugmented, dm.Gamma, dm.Upper)
		}
		if dm.Bound > diag.BoundAugmented*(1+1e-6) || float64(diag.Updates) > dm.Bound {
			t.Errorf("trial %d: %d mistakes, data bound %v, model bound %v", trial, diag.Updates, dm.Bound, diag.BoundAugmented)
		}
		if math.Abs(dm.Radius-diag.RadiusAugmented) > 1e-9*dm.Radius {
			t.Errorf("trial %d: R′ %v, RadiusAugmented %v", trial, dm.Radius, diag.RadiusAugmented)
		}
		// The points the perceptron trains on, by hand.
		var Z []float64
		d := 3
		for i := range len(y) {
			x := append([]float64(nil), X[i*3:(i+1)*3]...)
			if bias && opt.Normalize {
				x = append(x, 1)
			}
			n := 0.0
			for _, v := range x {
				n += v * v
			}
			if opt.Normalize || opt.NormalizeFeatures {
				for j := range x {
					x[j] /= math.Sqrt(n)
				}
			}
			d = len(x)
			Z = append(Z, x...)
		}
		mo := svm.MarginOptions{NoBias: true}
		if bias && !opt.Normalize {
			mo = svm.MarginOptions{BiasFeature: 1}
		}
		ref, err := svm.MaxMargin(context.Background(), dataset.NewData(Z, d, nil), y, mo)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(ref.Gamma-dm.Gamma) > 1e-6*ref.Gamma {
			t.Errorf("trial %d: γ_D %v, by hand %v", trial, dm.Gamma, ref.Gamma)
		}
	}
}

// TestDataMarginNotSeparable: XOR is not linearly separable: training
// succeeds, the data margin says why, with a bound near 0; an RBF kernel
// perceptron separates it, and its data margin in the kernel's space is
// svm.MaxMargin's with the bias feature.
func TestDataMarginNotSeparable(t *testing.T) {
	X := []float64{0, 0, 1, 1, 0, 1, 1, 0}
	y := []int{1, 1, -1, -1}
	_, diag, err := trainBinary(X, 2, y, Options{Algorithm: linear.Averaged, MaxIter: 5, DataMargin: true})
	if err != nil {
		t.Fatal(err)
	}
	dm := diag.DataMargin
	var ns *svm.NotSeparableError
	if dm != nil || !errors.Is(diag.DataMarginErr, svm.ErrNotSeparable) || !errors.As(diag.DataMarginErr, &ns) || !(ns.Upper < 1e-3) {
		t.Fatalf("DataMargin = %+v, %v", dm, diag.DataMarginErr)
	}
	kern := gram.RBF{Gamma: 1}
	_, kd, err := trainKernelBinary(X, 2, y, KernelOptions{Options: Options{Algorithm: linear.Online, DataMargin: true}, Kernel: kern})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := svm.MaxMargin(context.Background(), dataset.NewData(X, 2, nil), y, svm.MarginOptions{Kernel: kern, BiasFeature: 1})
	if err != nil {
		t.Fatal(err)
	}
	if kd.DataMargin == nil || math.Abs(kd.DataMargin.Gamma-ref.Gamma) > 1e-9 || kd.MarginAugmented > kd.DataMargin.Upper*(1+1e-9) {
		t.Fatalf("kernel DataMargin = %+v, MaxMargin %v, the model's %v", kd.DataMargin, ref.Gamma, kd.MarginAugmented)
	}
}

// TestDataMarginOneVsRest: each class of a one-vs-rest model gets its own
// data margin against the rest, float32 too; the fit.Argmax scheme and a
// kernel model with Normalize are refused.
func TestDataMarginOneVsRest(t *testing.T) {
	X := []float32{0, 0, 0, 1, 5, 5, 5, 6, 10, 0, 10, 1}
	y := []int{1, 1, 2, 2, 3, 3}
	_, diag, err := trainMulti(X, 2, y, Options{Algorithm: linear.Averaged, DataMargin: true})
	if err != nil {
		t.Fatal(err)
	}
	if diag.DataMargin != nil || len(diag.Classes) != 3 {
		t.Fatalf("top-level %+v, %d classes", diag.DataMargin, len(diag.Classes))
	}
	for c, cd := range diag.Classes {
		if cd.DataMargin == nil || cd.DataMargin.Gamma <= 0 {
			t.Errorf("class %d: %+v", c, cd.DataMargin)
		}
	}
	// Class 2 against the rest (a horizontal line separates them): the
	// margin is svm.MaxMargin's, to float32's tolerance.
	yy := []int{-1, -1, 1, 1, -1, -1}
	ref, err := svm.MaxMargin(context.Background(), dataset.NewData(X, 2, nil), yy, svm.MarginOptions{BiasFeature: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := diag.Classes[1].DataMargin.Gamma; math.Abs(ref.Gamma-got) > 1e-3*ref.Gamma {
		t.Errorf("class 2: γ_D %v, MaxMargin %v", got, ref.Gamma)
	}
	if _, _, err := trainMulti(X, 2, y, Options{Multiclass: fit.Argmax, DataMargin: true}); !errors.Is(err, ErrOption) {
		t.Errorf("fit.Argmax: %v", err)
	}
	if _, _, err := trainKernelBinary([]float64{0, 1}, 1, []int{-1, 1}, KernelOptions{Options: Options{Normalize: true, DataMargin: true}}); !errors.Is(err, ErrOption) {
		t.Errorf("kernel with Normalize: %v", err)
	}
}

// TestDataMarginFloat32: the data margin of float32 training data is
// solved in float64 on the same values: two points 10⁻⁴ apart on a line,
// whose margin (about 4.5·10⁻⁵ with the bias feature) a float32 kernel
// matrix cannot resolve (solved in float32, they were "not separable"),
// get the exact margin of the float32 values: the distance to the origin
// of the nearest point of the segment between −z₁ and z₂.
func TestDataMarginFloat32(t *testing.T) {
	X := []float32{0.5, 0.5001}
	y := []int{-1, 1}
	_, diag, err := trainBinary(X, 1, y, Options{Algorithm: linear.Online, MaxIter: 1, DataMargin: true})
	if err != nil {
		t.Fatal(err)
	}
	// a = −(x₁, 1), b = (x₂, 1): the nearest point of a + t(b − a).
	ax, ay := -float64(X[0]), -1.0
	dx, dy := float64(X[1])+float64(X[0]), 2.0
	tt := min(1, max(0, -(ax*dx+ay*dy)/(dx*dx+dy*dy)))
	want := math.Hypot(ax+tt*dx, ay+tt*dy)
	dm := diag.DataMargin
	if dm == nil || !(dm.Gamma <= dm.Upper) || math.Abs(dm.Gamma-want) > 1e-3*want || math.Abs(dm.Upper-want) > 1e-3*want {
		t.Fatalf("DataMargin = %+v, want γ_D = %v", dm, want)
	}
}
