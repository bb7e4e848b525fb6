package ipm

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

func readSVM[T kernel.Float](t *testing.T, path string) *linear.Model[T] {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m linear.Model[T]
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &m
}

// primal returns Σ over the machines of ½‖w‖² + C·Σ max(0, 1 − yᵢ(w·xᵢ + b))
// (the bias feature's weight is b), computed here from the model file.
func primal[T kernel.Float](m *linear.Model[T], d *dataset.Data[T], C float64) float64 {
	labels := m.Classes()
	P := 0.0
	for r := range m.NumScores() {
		w, b := m.Weights(r)
		P += float64(b) * float64(b) / 2
		for _, v := range w {
			P += float64(v) * float64(v) / 2
		}
		for i := range d.Rows {
			y := -1.0
			if (m.NumScores() == 1 && d.Y[i] == labels[1]) || (m.NumScores() > 1 && d.Y[i] == labels[r]) {
				y = 1
			}
			s := float64(b)
			for j, v := range d.Row(i) {
				s += float64(v) * float64(w[j])
			}
			P += C * max(0, 1-y*s)
		}
	}
	return P
}

// One shard is dual coordinate ascent on all the rows, one pass per epoch
// in the shard's random order, with its αs carried from epoch to epoch:
// the model file is that of the same passes made in this process, byte for
// byte (binary and one-vs-rest). Losing the αs between epochs, or mixing
// a lone shard's w with anything, would change it.
func TestSVMOneShardIsLocalDCD(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int{1, 3} {
		d := intData(240, 9, classes, 21)
		const epochs, C, seed = 6, 0.5, 9
		dir := t.TempDir()
		out := filepath.Join(dir, "svm.bin")
		if _, err := Run(ctx, Config{Inputs: []string{writeParts(t, dir, d, 3)}, Dims: d.Cols, Algorithm: linear.SVM,
			C: C, Seed: seed, Shards: 1, Epochs: epochs, Output: out}, runPrism); err != nil {
			t.Fatal(err)
		}
		c, err := dataset.FromDense(d)
		if err != nil {
			t.Fatal(err)
		}
		l, err := newLocal(c, d.Classes(), C, 1)
		if err != nil {
			t.Fatal(err)
		}
		R := machines(d.Classes())
		st := svmState{Labels: d.Classes(), W: make([][]float64, R)}
		for r := range st.W {
			st.W[r] = make([]float64, d.Cols+1)
		}
		u, ub := toT[float32](st.W)
		alpha := make([]float64, d.Rows*R)
		for e := 1; e <= epochs; e++ {
			l.pass(alpha, u, ub, nil, nil, shardPerm(seed, e, 0, d.Rows))
		}
		st.W = fromT(u, ub)
		want, err := svmModel[float32](&st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d classes: the one-shard model differs from %d passes of DCD in this process", classes, epochs)
		}
	}
}

// One and four shards, averaging (CoCoA) and adding (CoCoA+), reach the
// optimum of the svm package's single-machine solver: P(w) of the model
// file, computed here, is within 1% of min P, bounded below by the dual
// objective svm.FitLinear reaches at a tight tolerance (weak duality, so
// the check holds whatever the solver's own error). The job's own
// certificate, its reported duality gap, is non-negative, bounds
// P(w) − min P and agrees with the P(w) computed here.
func TestSVMReachesOptimum(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int{1, 3} {
		d32 := intData(400, 10, classes, 31)
		d := &dataset.Data[float64]{Rows: d32.Rows, Cols: d32.Cols, Y: d32.Y}
		for _, v := range d32.X {
			d.X = append(d.X, float64(v))
		}
		const C = 0.05
		_, rep, err := svm.FitLinear(context.Background(), d, d.Y, svm.LinearOptions{C: C, Tol: 1e-6, MaxIter: 1e6})
		if err != nil {
			t.Fatal(err)
		}
		lower := -rep.Dual // min P ≥ −Σ dual
		dir := t.TempDir()
		pattern := writeParts(t, dir, d, 2)
		for _, tc := range []struct {
			shards, epochs int
			mixing         Mixing
		}{
			{1, 40, Uniform}, {4, 40, Adding}, {4, 80, Uniform},
		} {
			out := filepath.Join(dir, "svm.bin")
			rep, err := Run(ctx, Config{Inputs: []string{pattern}, Dims: d.Cols, Type: "float64", Algorithm: linear.SVM,
				Mixing: tc.mixing, C: C, Shards: tc.shards, Epochs: tc.epochs, Output: out, Overwrite: true}, runPrism)
			if err != nil {
				t.Fatal(err)
			}
			P := primal(readSVM[float64](t, out), d, C)
			t.Logf("%d classes, %d shards, %v, %d epochs: P = %.6f, min P ≥ %.6f (%.2g), reported gap %.3g",
				classes, tc.shards, tc.mixing, tc.epochs, P, lower, (P-lower)/P, rep.Gap)
			if P-lower > 0.01*P {
				t.Errorf("%d classes, %d shards, %v: P(w) = %.6f is more than 1%% above min P ≥ %.6f", classes, tc.shards, tc.mixing, P, lower)
			}
			if math.Abs(rep.Primal-P) > 1e-9*P || rep.Gap < -1e-9*P || rep.Gap < P-lower-1e-9*P {
				t.Errorf("report: primal %.9g (here %.9g), gap %.3g, below P − min P ≤ %.3g", rep.Primal, P, rep.Gap, P-lower)
			}
		}
	}
}

// More shards than rows: the shards without rows move nothing (averaging
// counts them with Δw = 0, as their αs are 0), and the job still writes
// a model whose duality gap is non-negative.
func TestSVMEmptyShards(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.svm")
	if err := os.WriteFile(in, []byte("1 1:2 2:1\n-1 1:-1 2:-2\n1 1:1 2:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mx := range []Mixing{Uniform, Adding} {
		out := filepath.Join(dir, mx.String()+".bin")
		rep, err := Run(context.Background(), Config{Inputs: []string{in}, Dims: 2, Algorithm: linear.SVM, Mixing: mx,
			Shards: 5, Epochs: 3, Output: out}, runPrism)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.History) != 3 || len(rep.History[0].Shards) != 3 || rep.Gap < 0 || rep.Primal <= 0 {
			t.Fatalf("%v: %d epochs, %d shards with rows, primal %v, gap %v", mx, len(rep.History), len(rep.History[0].Shards), rep.Primal, rep.Gap)
		}
		if m := readSVM[float32](t, out); m.Dims() != 2 {
			t.Fatalf("%v: %d features", mx, m.Dims())
		}
	}
}
