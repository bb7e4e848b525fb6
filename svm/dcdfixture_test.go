package svm_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// dcdFixture is one entry of testdata/dcd-fixture.json: a linear SVM
// trained by dual coordinate descent before the model became
// linear.Model (svm.LinearModel, at commit 4e96bc1), with the bits of its
// weights and biases and its labels and score bits on the test rows,
// dense and sparse, one row and batched. ROSENBLATT_WRITE_DCD_FIXTURE=1
// rewrites the file.
type dcdFixture struct {
	Name    string              `json:"name"`
	Impl    string              `json:"impl"`
	Weights [][]uint64          `json:"weights"`
	Biases  []uint64            `json:"biases"`
	Labels  map[string][]int    `json:"labels"`
	Scores  map[string][]uint64 `json:"scores"`
}

type dcdCase struct {
	name   string
	data   string // dataset/testdata base name
	cols   int
	sparse bool
	f32    bool
	labels map[int]int // relabelling, if any
	opt    svm.LinearOptions
}

var dcdCases = []dcdCase{
	{name: "breast-binary-f64", data: "breast_cancer_std", cols: 30, opt: svm.LinearOptions{Seed: 1}},
	{name: "breast-binary-f32-sparse", data: "breast_cancer_std", cols: 30, sparse: true, f32: true, opt: svm.LinearOptions{Seed: 1}},
	{name: "breast-labels-3-7-sq", data: "breast_cancer_std", cols: 30, labels: map[int]int{-1: 3, 1: 7}, opt: svm.LinearOptions{Loss: svm.SquaredHinge, C: 0.5, Seed: 2}},
	{name: "breast-nobias-f32", data: "breast_cancer_std", cols: 30, f32: true, opt: svm.LinearOptions{NoBias: true, Seed: 1}},
	{name: "iris-ovr-bias2", data: "iris", cols: 4, opt: svm.LinearOptions{BiasFeature: 2, Seed: 1}},
	{name: "iris-ovr-f32-sparse", data: "iris", cols: 4, sparse: true, f32: true, opt: svm.LinearOptions{Seed: 3}},
	{name: "digits-ovr-f32", data: "digits", cols: 64, f32: true, opt: svm.LinearOptions{Seed: 1}},
	{name: "digits-ovr-sparse", data: "digits", cols: 64, sparse: true, opt: svm.LinearOptions{Seed: 1, Workers: 2}},
	{name: "iris-hard-f64", data: "iris", cols: 4, labels: map[int]int{0: 0, 1: 1, 2: 1}, opt: svm.LinearOptions{C: math.Inf(1)}},
}

func loadCase[T kernel.Float](t *testing.T, c dcdCase, part string) *dataset.Data[T] {
	t.Helper()
	ds, err := dataset.LoadLIBSVM[T]("../dataset/testdata/"+c.data+"."+part+".libsvm", dataset.LIBSVMOptions{Cols: c.cols})
	if err != nil {
		t.Fatal(err)
	}
	if c.labels != nil {
		for i, v := range ds.Y {
			ds.Y[i] = c.labels[v]
		}
	}
	return ds
}

func fbits[T kernel.Float](v T) uint64 {
	if f, ok := any(v).(float64); ok {
		return math.Float64bits(f)
	}
	return uint64(math.Float32bits(float32(v)))
}

func runCase[T kernel.Float](t *testing.T, c dcdCase) dcdFixture {
	train, test := loadCase[T](t, c, "train"), loadCase[T](t, c, "test")
	var X dataset.Rows[T] = train
	ctest, err := dataset.FromDense(test)
	if err != nil {
		t.Fatal(err)
	}
	if c.sparse {
		if X, err = dataset.FromDense(train); err != nil {
			t.Fatal(err)
		}
	}
	m, _, err := svm.FitLinear(context.Background(), X, train.Y, c.opt)
	if err != nil {
		t.Fatal(err)
	}
	f := dcdFixture{Name: c.name, Impl: kernel.ActiveImpl().Name(), Labels: map[string][]int{}, Scores: map[string][]uint64{}}
	r := m.NumScores()
	for k := range r {
		w, b := m.Weights(k)
		var wb []uint64
		for _, v := range w {
			wb = append(wb, fbits(v))
		}
		f.Weights = append(f.Weights, wb)
		f.Biases = append(f.Biases, fbits(b))
	}
	n, d := min(test.Rows, 60), test.Cols
	test.X, ctest = test.X[:n*d], ctest.Slice(0, n)
	labels, sc := make([]int, n), make([]T, n*r)
	forms := []struct {
		name string
		run  func() error
	}{
		{"dense", func() (err error) {
			for i := range n {
				x := test.X[i*d : (i+1)*d]
				if labels[i], err = m.Predict(x); err != nil {
					return err
				}
				if err = m.Scores(sc[i*r:(i+1)*r], x); err != nil {
					return err
				}
			}
			return nil
		}},
		{"sparse", func() (err error) {
			for i := range n {
				if labels[i], err = m.PredictSparse(ctest.Row(i)); err != nil {
					return err
				}
				if err = m.ScoresSparse(sc[i*r:(i+1)*r], ctest.Row(i)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"batch", func() error {
			if err := m.PredictBatch(labels, test.X); err != nil {
				return err
			}
			return m.ScoresBatch(sc, test.X)
		}},
		{"sparse-batch", func() error {
			if err := m.PredictBatchSparse(labels, ctest); err != nil {
				return err
			}
			return m.ScoresBatchSparse(sc, ctest)
		}},
	}
	for _, fm := range forms {
		clear(labels)
		clear(sc)
		if err := fm.run(); err != nil {
			t.Fatalf("%s: %v", fm.name, err)
		}
		f.Labels[fm.name] = append([]int(nil), labels...)
		var bs []uint64
		for _, v := range sc {
			bs = append(bs, fbits(v))
		}
		f.Scores[fm.name] = bs
	}
	return f
}

// TestDCDFixture trains the cases of dcdCases and checks each model's
// weights, labels and scores against those the linear SVM gave before
// it returned linear.Model: bit for bit on the implementation that
// wrote the fixture, the labels everywhere, the values within the solver's tolerance on another
// implementation (which sums in another order).
func TestDCDFixture(t *testing.T) {
	const path = "testdata/dcd-fixture.json"
	var got []dcdFixture
	for _, c := range dcdCases {
		if c.f32 {
			got = append(got, runCase[float32](t, c))
		} else {
			got = append(got, runCase[float64](t, c))
		}
	}
	if os.Getenv("ROSENBLATT_WRITE_DCD_FIXTURE") == "1" {
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []dcdFixture
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d cases, the fixture has %d", len(got), len(want))
	}
	for i, g := range got {
		w, c := want[i], dcdCases[i]
		exact := w.Impl == g.Impl
		same := func(what string, a, b []uint64) {
			if len(a) != len(b) {
				t.Errorf("%s %s: %d values, want %d", c.name, what, len(a), len(b))
				return
			}
			for j := range a {
				if exact && a[j] != b[j] || !exact && !nearBits(c.f32, a[j], b[j]) {
					t.Errorf("%s %s[%d]: bits %x, want %x (exact: %v)", c.name, what, j, a[j], b[j], exact)
					return
				}
			}
		}
		if len(g.Weights) != len(w.Weights) {
			t.Fatalf("%s: %d weight rows, want %d", c.name, len(g.Weights), len(w.Weights))
		}
		for k := range g.Weights {
			same("weights", g.Weights[k], w.Weights[k])
		}
		same("biases", g.Biases, w.Biases)
		for form, ls := range w.Labels {
			gl := g.Labels[form]
			for j := range ls {
				if gl[j] != ls[j] {
					t.Errorf("%s %s label %d: %d, want %d", c.name, form, j, gl[j], ls[j])
				}
			}
			same(form+" scores", g.Scores[form], w.Scores[form])
		}
	}
}

// nearBits reports whether the values of bits a and b agree within what
// another summation order gives: its rounding moves the solver's path, and
// the solver stops within its tolerance, so 2e-3 relative to the value
// plus 1.
func nearBits(f32 bool, a, b uint64) bool {
	x, y, tol := math.Float64frombits(a), math.Float64frombits(b), 2e-3
	if f32 {
		x, y = float64(math.Float32frombits(uint32(a))), float64(math.Float32frombits(uint32(b)))
	}
	return math.Abs(x-y) <= tol*(1+math.Abs(y))
}
