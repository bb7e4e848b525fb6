package svm

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

func marshal(t *testing.T, m interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitDispatch checks that Fit and FitLinear give the models of the
// trainers they dispatch to (dense and CSR, binary and multiclass), bit
// for bit, with reports that sum the machines' figures.
func TestFitDispatch(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	ctx := context.Background()
	for _, classes := range []int{2, 3} {
		X, y := randInt(r, 60, 4, 3, classes)
		data := &dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: 4}
		csr, err := dataset.FromDense(data)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Kernel: gram.RBF{Gamma: 0.1}, Multiclass: fit.OneVsRest}
		want, info, err := trainDense(X, 4, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		wantS, _, err := trainSparse(csr, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, rep, err := Fit(ctx, data, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		gotS, _, err := Fit(ctx, csr, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(marshal(t, got), marshal(t, want)) || !bytes.Equal(marshal(t, gotS), marshal(t, wantS)) {
			t.Errorf("%d classes: Fit differs from trainDense or trainSparse", classes)
		}
		var iters int
		var primal, dual float64
		for _, p := range info.Problems {
			iters += p.Iterations
			primal += p.Primal
			dual += p.Dual
		}
		if rep.Iterations != iters || rep.Objective != primal || rep.Dual != dual || rep.Gap != primal+dual ||
			rep.SupportVectors != want.NumSupport() || rep.Converged != info.Converged || rep.Detail.(*Info) == nil {
			t.Errorf("%d classes: report %+v for %d iterations, primal %v, dual %v, %d SV", classes, rep, iters, primal, dual, want.NumSupport())
		}
		if rep.Gap < -1e-9 {
			t.Errorf("negative duality gap %v", rep.Gap)
		}

		lopts := LinearOptions{C: 0.5, Seed: 3, Tol: 1e-3}
		wantL, linfo, err := trainLinearDense(X, 4, y, lopts)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := sparseRows(csr)
		if err != nil {
			t.Fatal(err)
		}
		wantLS, _, err := trainLinearRows(ctx, rows, y, lopts)
		if err != nil {
			t.Fatal(err)
		}
		gotL, lrep, err := FitLinear(ctx, data, y, lopts)
		if err != nil {
			t.Fatal(err)
		}
		gotLS, _, err := FitLinear(ctx, csr, y, lopts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(marshal(t, gotL), marshal(t, wantL)) || !bytes.Equal(marshal(t, gotLS), marshal(t, wantLS)) {
			t.Errorf("%d classes: FitLinear differs from trainLinearDense or trainLinearRows", classes)
		}
		most, sv := 0, 0
		for _, p := range linfo.Problems {
			most = max(most, p.Iterations)
			sv += p.SV
		}
		if lrep.Epochs != most || lrep.SupportVectors != sv || lrep.Detail.(*Info) == nil {
			t.Errorf("%d classes: linear report %+v; most passes %d, %d SV", classes, lrep, most, sv)
		}
	}
}

// TestFitErrors checks the dispatch's own errors: a cancelled context, no
// data, and the hard margin on sparse rows.
func TestFitErrors(t *testing.T) {
	X := []float64{0, 1, 1, 0, 2, 2, 3, 1}
	y := []int{-1, -1, 1, 1}
	data := &dataset.Data[float64]{X: X, Y: y, Rows: 4, Cols: 2}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Fit(ctx, data, y, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit, cancelled: %v", err)
	}
	if _, _, err := FitLinear(ctx, data, y, LinearOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("FitLinear, cancelled: %v", err)
	}
	for _, rows := range []dataset.Rows[float64]{nil, (*dataset.Data[float64])(nil), (*dataset.CSR[float64])(nil)} {
		if _, _, err := Fit(context.Background(), rows, y, Options{}); !errors.Is(err, ErrEmpty) {
			t.Errorf("Fit on %#v: %v, want ErrEmpty", rows, err)
		}
		if _, _, err := FitLinear(context.Background(), rows, y, LinearOptions{}); !errors.Is(err, ErrEmpty) {
			t.Errorf("FitLinear on %#v: %v, want ErrEmpty", rows, err)
		}
	}
	csr, err := dataset.FromDense(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := FitLinear(context.Background(), csr, y, LinearOptions{C: math.Inf(1)}); !errors.Is(err, ErrOption) {
		t.Errorf("FitLinear, hard margin on a CSR: %v, want ErrOption", err)
	}
}
