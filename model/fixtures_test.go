package model_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// fixture is a line of testdata/fixtures/expected.json: a model file made
// by the module before package model existed (testdata/gen_fixtures.go),
// with its labels and the bits of its scores on iris's test rows.
type fixture struct {
	File   string              `json:"file"`
	Kind   int                 `json:"kind"`
	Elem   string              `json:"elem"`
	Labels map[string][]int    `json:"labels"`
	Scores map[string][]uint64 `json:"scores"`
	Impl   string              `json:"impl"` // the kernel implementation that computed them
}

func fixtures(t *testing.T) []fixture {
	t.Helper()
	data, err := os.ReadFile("testdata/fixtures/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var fs []fixture
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestFixtures loads every kind of model file that earlier versions wrote,
// binary and JSON, and checks each predicts the labels and score bits it
// predicted when it was written, dense and sparse, one row and batched.
func TestFixtures(t *testing.T) {
	fs := fixtures(t)
	kinds := map[model.Kind]bool{}
	for _, f := range fs {
		t.Run(f.File, func(t *testing.T) {
			m, err := model.LoadFile(filepath.Join("testdata/fixtures", f.File))
			if err != nil {
				t.Fatal(err)
			}
			if got := model.KindOf(m); got != model.Kind(f.Kind) {
				t.Errorf("KindOf = %v, want %v", got, model.Kind(f.Kind))
			}
			kinds[model.Kind(f.Kind)] = true
			if model.Elem(m) != f.Elem {
				t.Errorf("Elem = %q, want %q", model.Elem(m), f.Elem)
			}
			if m.String() == "" {
				t.Error("no description")
			}
			info, err := model.InspectFile(filepath.Join("testdata/fixtures", f.File))
			if err != nil {
				t.Fatal(err)
			}
			if info.Kind != model.Kind(f.Kind) || info.Elem != f.Elem || info.Dims != 4 || len(info.Classes) != len(m.Classes()) {
				t.Errorf("Inspect = %+v, model %v", info, m)
			}
			if f.Elem == "float64" {
				checkFixture[float64](t, m, f)
			} else {
				checkFixture[float32](t, m, f)
			}
		})
	}
	for k := model.Kind(1); k < 255; k++ {
		if k.Known() && !kinds[k] {
			t.Errorf("no fixture of kind %d (%v)", k, k)
		}
	}
}

func bits[T model.Float](v T) uint64 {
	if f, ok := any(v).(float64); ok {
		return math.Float64bits(f)
	}
	return uint64(math.Float32bits(float32(v)))
}

// near reports whether v agrees with the value whose bits are want within
// the rounding of another summation order: the kernel SVMs' scores cancel
// terms some 500 times larger (a degree-2 polynomial kernel on iris), so
// the tolerance is relative to the score plus 1: 2e-3 for float32, 1e-9
// for float64.
func near[T model.Float](v T, want uint64) bool {
	var w, tol float64
	if _, ok := any(v).(float64); ok {
		w, tol = math.Float64frombits(want), 1e-9
	} else {
		w, tol = float64(math.Float32frombits(uint32(want))), 2e-3
	}
	return math.Abs(float64(v)-w) <= tol*(1+math.Abs(w))
}

func checkFixture[T model.Float](t *testing.T, m model.Model, f fixture) {
	c, err := model.As[T](m)
	if err != nil {
		t.Fatal(err)
	}
	test, err := dataset.LoadLIBSVM[T]("testdata/iris.test.libsvm", dataset.LIBSVMOptions{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	csr, err := dataset.FromDense(test)
	if err != nil {
		t.Fatal(err)
	}
	r := c.NumScores()
	// The bits are those of the implementation that wrote the fixture
	// (and the same on every one for a quantised model, whose sums are
	// exact integers); another implementation sums in another order, so
	// its scores agree within float rounding.
	exact := kernel.ActiveImpl().Name() == f.Impl || model.Kind(f.Kind) >= model.QuantBinary && model.Kind(f.Kind) <= model.QuantArgmax
	labels := make([]int, test.Rows)
	sc := make([]T, test.Rows*r)
	forms := map[string]func() error{
		"dense": func() (err error) {
			for i := range test.Rows {
				x := test.X[i*4 : (i+1)*4]
				if labels[i], err = c.Predict(x); err != nil {
					return err
				}
				if err = c.Scores(sc[i*r:(i+1)*r], x); err != nil {
					return err
				}
			}
			return nil
		},
		"sparse": func() (err error) {
			for i := range test.Rows {
				if labels[i], err = c.PredictSparse(csr.Row(i)); err != nil {
					return err
				}
				if err = c.ScoresSparse(sc[i*r:(i+1)*r], csr.Row(i)); err != nil {
					return err
				}
			}
			return nil
		},
		"batch": func() error {
			if err := c.PredictBatch(labels, test.X); err != nil {
				return err
			}
			return c.ScoresBatch(sc, test.X)
		},
		"sparse-batch": func() error {
			if err := c.PredictBatchSparse(labels, csr); err != nil {
				return err
			}
			return c.ScoresBatchSparse(sc, csr)
		},
	}
	for form, run := range forms {
		clear(labels)
		clear(sc)
		if err := run(); err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		want, wantL := f.Scores[form], f.Labels[form]
		if len(want) != len(sc) || len(wantL) != len(labels) {
			t.Fatalf("%s: the fixture has %d scores and %d labels for %d rows of %d", form, len(want), len(wantL), test.Rows, r)
		}
		for i, k := range labels {
			if k != wantL[i] {
				t.Errorf("%s row %d: label %d, want %d", form, i, k, wantL[i])
			}
		}
		for i, v := range sc {
			if exact && bits(v) != want[i] || !exact && !near(v, want[i]) {
				t.Errorf("%s score %d (row %d): %v (bits %x), want bits %x (exact: %v)", form, i, i/r, v, bits(v), want[i], exact)
			}
		}
	}
}
