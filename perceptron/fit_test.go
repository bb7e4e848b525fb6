package perceptron

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// marshalAny encodes a linear or kernel model for comparison.
func marshalAny(t *testing.T, m interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitDispatch checks that Fit and FitKernel give, for dense and CSR
// rows and for binary and multiclass labels, the model of the trainer
// they dispatch to, bit for bit, and a report that sums its diagnostics.
func TestFitDispatch(t *testing.T) {
	rng := newRand(3)
	Xb, yb, _, _ := separable(rng, 60, 4, 3, 0.5, true)
	Xm, ym := intMulticlass(rng, 80, 5, 3)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		X    []float64
		d    int
		y    []int
		opt  Options
	}{
		{"binary", Xb, 4, yb, Options{Algorithm: linear.Averaged, MaxIter: 5}},
		{"ovr", Xm, 5, ym, Options{Algorithm: linear.Online, MaxIter: 4}},
		{"argmax", Xm, 5, ym, Options{Multiclass: fit.Argmax, MaxIter: 4}},
		{"argmax±1", Xb, 4, yb, Options{Multiclass: fit.Argmax, MaxIter: 4}},
	} {
		data := &dataset.Data[float64]{X: tc.X, Y: tc.y, Rows: len(tc.y), Cols: tc.d}
		csr, err := dataset.FromDense(data)
		if err != nil {
			t.Fatal(err)
		}
		binary := tc.opt.Multiclass != fit.Argmax && tc.name == "binary"
		var want, wantS *linear.Model[float64]
		var wd *Diagnostics
		if binary {
			want, wd, err = trainBinary(tc.X, tc.d, tc.y, tc.opt)
			if err == nil {
				wantS, _, err = trainBinarySparse(csr, tc.y, tc.opt)
			}
		} else {
			want, wd, err = trainMulti(tc.X, tc.d, tc.y, tc.opt)
			if err == nil {
				wantS, _, err = trainMultiSparse(csr, tc.y, tc.opt)
			}
		}
		if err != nil {
			t.Fatal(tc.name, err)
		}
		got, rep, err := Fit(ctx, data, tc.y, tc.opt)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if !bytes.Equal(marshalAny(t, got), marshalAny(t, want)) {
			t.Errorf("%s: Fit on dense rows differs from the trainer's model", tc.name)
		}
		gotS, _, err := Fit(ctx, csr, tc.y, tc.opt)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if !bytes.Equal(marshalAny(t, gotS), marshalAny(t, wantS)) {
			t.Errorf("%s: Fit on a CSR differs from the sparse trainer's model", tc.name)
		}
		mistakes := 0
		for _, e := range wd.Epochs {
			mistakes += e.Mistakes
		}
		if rep.Epochs != len(wd.Epochs) || rep.Mistakes != mistakes || rep.Iterations != wd.Updates || rep.Converged != wd.Converged {
			t.Errorf("%s: report %+v, diagnostics: %d epochs, %d mistakes, %d updates, converged %v", tc.name, rep, len(wd.Epochs), mistakes, wd.Updates, wd.Converged)
		}
		if _, ok := rep.Detail.(*Diagnostics); !ok || rep.Time <= 0 {
			t.Errorf("%s: report detail %T, time %v", tc.name, rep.Detail, rep.Time)
		}

		kopt := KernelOptions{Options: tc.opt, Kernel: gram.Polynomial{Degree: 2, Gamma: 1, Coef0: 1}}
		var wantK, wantKS *expansion.Model[float64]
		if binary {
			wantK, _, err = trainKernelBinary(tc.X, tc.d, tc.y, kopt)
			if err == nil {
				wantKS, _, err = trainKernelBinarySparse(csr, tc.y, kopt)
			}
		} else {
			wantK, _, err = trainKernelMulti(tc.X, tc.d, tc.y, kopt)
			if err == nil {
				wantKS, _, err = trainKernelMultiSparse(csr, tc.y, kopt)
			}
		}
		if err != nil {
			t.Fatal(tc.name, err)
		}
		gotK, krep, err := FitKernel(ctx, data, tc.y, kopt)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if !bytes.Equal(marshalAny(t, gotK), marshalAny(t, wantK)) {
			t.Errorf("%s: FitKernel on dense rows differs from the trainer's model", tc.name)
		}
		if krep.SupportVectors != wantK.NumSupport() || krep.SupportVectors == 0 {
			t.Errorf("%s: report has %d support vectors, the model %d", tc.name, krep.SupportVectors, wantK.NumSupport())
		}
		gotKS, _, err := FitKernel(ctx, csr, tc.y, kopt)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		if !bytes.Equal(marshalAny(t, gotKS), marshalAny(t, wantKS)) {
			t.Errorf("%s: FitKernel on a CSR differs from the sparse trainer's model", tc.name)
		}
	}
}

// TestFitInit checks the warm starts: Weights is the trainer's start, and a
// *Model continues it as continueDense does.
func TestFitInit(t *testing.T) {
	rng := newRand(5)
	X, y, _, _ := separable(rng, 50, 3, 3, 0.3, true)
	data := &dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: 3}
	ctx := context.Background()
	w0 := Weights{W: []float64{1, -2, 0.5}, B: []float64{3}}
	want, _, err := trainBinary(X, 3, y, Options{MaxIter: 3, Init: w0})
	if err != nil {
		t.Fatal(err)
	}
	zero, _, err := Fit(ctx, data, y, Options{MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := Fit(ctx, data, y, Options{MaxIter: 3, Init: w0})
	if err != nil {
		t.Fatal(err)
	}
	if !sameModel(t, got, want) || sameModel(t, got, zero) {
		t.Error("Fit with Init: Weights is not the trainer's run from w₀, b₀ (or equals the run from 0)")
	}

	first, _, err := Fit(ctx, data, y, Options{Algorithm: linear.Averaged, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	cont, _, err := continueDense(first, X, 3, y, Options{Algorithm: linear.Averaged, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []dataset.Rows[float64]{data, mustCSR(t, data)} {
		got, rep, err := Fit(ctx, rows, y, Options{Algorithm: linear.Averaged, MaxIter: 2, Init: first})
		if err != nil {
			t.Fatal(err)
		}
		if !sameModel(t, got, cont) || rep.Epochs == 0 {
			t.Errorf("%T: Fit with Init: *Model is not continueDense's model", rows)
		}
	}
	if _, _, err := Fit(ctx, data, y, Options{Init: Dual{}}); !errors.Is(err, ErrOption) {
		t.Errorf("Fit with a Dual start: %v, want ErrOption", err)
	}
	m32, _, err := Fit(ctx, &dataset.Data[float32]{X: to32(X), Y: y, Rows: len(y), Cols: 3}, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Fit(ctx, data, y, Options{Init: m32}); !errors.Is(err, ErrOption) {
		t.Errorf("Fit[float64] from a float32 model: %v, want ErrOption", err)
	}
}

func mustCSR(t *testing.T, d *dataset.Data[float64]) *dataset.CSR[float64] {
	t.Helper()
	c, err := dataset.FromDense(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFitContext checks that a cancelled context ends both fits with its
// error, before training and between epochs.
func TestFitContext(t *testing.T) {
	rng := newRand(9)
	X, y, _, _ := separable(rng, 40, 3, 3, 0, true)
	data := &dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: 3}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Fit(done, data, y, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit with a cancelled context: %v", err)
	}
	if _, _, err := FitKernel(done, data, y, KernelOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("FitKernel with a cancelled context: %v", err)
	}
	ctx, cancel2 := context.WithCancel(context.Background())
	epochs := 0
	opt := Options{Algorithm: linear.Voted, MaxIter: 50, Stop: StopNever, Callback: func(Epoch) error {
		epochs++
		if epochs == 2 {
			cancel2()
		}
		return nil
	}}
	if _, _, err := Fit(ctx, data, y, opt); !errors.Is(err, context.Canceled) || epochs != 2 {
		t.Errorf("Fit cancelled after epoch 2: %v after %d epochs", err, epochs)
	}
	for _, rows := range []dataset.Rows[float64]{nil, (*dataset.Data[float64])(nil)} {
		if _, _, err := Fit(context.Background(), rows, y, Options{}); !errors.Is(err, ErrEmpty) {
			t.Errorf("Fit on %#v: %v, want ErrEmpty", rows, err)
		}
	}
}
